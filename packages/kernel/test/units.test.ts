// The kernel's small modules, one behaviour each.
import { describe, expect, it } from 'vitest';
import { IdempotencyStore } from '../src/idempotency.js';
import { readJsonBody } from '../src/json-body.js';
import { RateLimiter } from '../src/rate-limiter.js';
import { answersPath } from '../src/steps/own-route.js';
import { targetOf } from '../src/target.js';

describe('RateLimiter', () => {
  it('counts per bucket and class in one-second windows', () => {
    let now = 10_250;
    const limiter = new RateLimiter({ readsPerSecond: 2, writesPerSecond: 1 }, 'enforce', () => now);
    expect(limiter.consume('a', 'read')).toEqual({ allowed: true, limit: 2, remaining: 1, resetSeconds: 1 });
    expect(limiter.consume('a', 'read').remaining).toBe(0);
    expect(limiter.consume('a', 'read').allowed).toBe(false);
    expect(limiter.consume('b', 'read').allowed).toBe(true);
    expect(limiter.consume('a', 'write').allowed).toBe(true);
    now = 11_000;
    expect(limiter.consume('a', 'read')).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('never refuses when off, yet reports the whole budget', () => {
    const limiter = new RateLimiter({ readsPerSecond: 1, writesPerSecond: 1 }, 'off', () => 0);
    for (let i = 0; i < 5; i++)
      expect(limiter.consume('a', 'write')).toMatchObject({ allowed: true, limit: 1, remaining: 1 });
  });

  it('in report mode counts down to zero but never refuses (the mock)', () => {
    let now = 10_250;
    const limiter = new RateLimiter({ readsPerSecond: 3, writesPerSecond: 1 }, 'report', () => now);
    expect(limiter.consume('k', 'read')).toEqual({ allowed: true, limit: 3, remaining: 2, resetSeconds: 1 });
    limiter.consume('k', 'read');
    limiter.consume('k', 'read');
    expect(limiter.consume('k', 'read')).toEqual({ allowed: true, limit: 3, remaining: 0, resetSeconds: 1 });
    expect(limiter.consume('k', 'write').remaining).toBe(0);
    now = 11_000;
    expect(limiter.consume('k', 'read').remaining).toBe(2);
  });
});

describe('IdempotencyStore', () => {
  it('replays successes, releases failures, refuses reuse and duplicates in flight, expires', () => {
    let now = 1_000;
    const store = new IdempotencyStore(10, () => now);
    const first = store.begin('key', 'k', 'POST', '/a');
    expect(first.kind).toBe('new');
    expect(store.begin('key', 'k', 'POST', '/a').kind).toBe('in-progress');
    expect(store.begin('key', 'k', 'POST', '/b').kind).toBe('reuse');
    expect(store.begin('other-api-key', 'k', 'POST', '/b').kind).toBe('new');
    if (first.kind === 'new') first.ticket.complete({ status: 201, text: '{"x":1}' });
    expect(store.begin('key', 'k', 'POST', '/a')).toEqual({
      kind: 'replay',
      response: { status: 201, text: '{"x":1}' },
    });
    now = 11_000;
    expect(store.begin('key', 'k', 'POST', '/a').kind).toBe('replay'); // an hour (here 10 s) is kept whole
    now = 11_001;
    expect(store.begin('key', 'k', 'POST', '/a').kind).toBe('new');
    const failed = store.begin('key', 'f', 'POST', '/a');
    if (failed.kind === 'new') failed.ticket.complete({ status: 400, text: '{}' });
    expect(store.begin('key', 'f', 'PUT', '/z').kind).toBe('new');
    const abandoned = store.begin('key', 'g', 'POST', '/a');
    if (abandoned.kind === 'new') abandoned.ticket.abandon();
    expect(store.begin('key', 'g', 'POST', '/a').kind).toBe('new');
  });
});

describe('readJsonBody', () => {
  const limits = { maxBytes: 100, maxDepth: 3 };
  const read = (body: string | undefined, type: string | null = 'application/json', required = true) =>
    readJsonBody(
      new Request('http://x/', {
        method: 'POST',
        ...(body !== undefined ? { body } : {}),
        headers: type ? { 'Content-Type': type } : {},
      }),
      required,
      limits,
    );

  it('accepts a JSON object and refuses everything else with the right code', async () => {
    expect(await read('{"a":1}')).toEqual({ ok: true, value: { a: 1 }, valueCount: 2 });
    expect(await read(undefined, 'application/json', false)).toEqual({ ok: true, value: undefined });
    expect(await read('{}', 'text/plain')).toMatchObject({ ok: false, code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect(await read('{}', null)).toMatchObject({ ok: false, code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect(await read(undefined, null)).toMatchObject({
      ok: false,
      code: 'INVALID_REQUEST_BODY',
      message: expect.stringMatching(/empty/),
    });
    expect(await read('x'.repeat(101))).toMatchObject({ ok: false, message: expect.stringMatching(/larger than 100/) });
    expect(await read('{"a":{"b":{"c":{}}}}')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/deeper than 3/),
    });
    expect(await read('[1]')).toMatchObject({
      ok: false,
      message: 'The request body must be a JSON object; got an array.',
    });
    expect(await read('{,}')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^The request body is not valid JSON/),
    });
  });
});

describe('readJsonBody without Content-Type', () => {
  it('answers 415 for bytes sent without any Content-Type', async () => {
    const request = new Request('http://x/', { method: 'POST', body: new TextEncoder().encode('{}') });
    expect(request.headers.get('content-type')).toBeNull();
    expect(await readJsonBody(request, true, { maxBytes: 100, maxDepth: 3 })).toMatchObject({
      ok: false,
      code: 'UNSUPPORTED_MEDIA_TYPE',
    });
  });
});

describe('targetOf', () => {
  it('gives the pathname and query that WHATWG URL gives, for serialised request URLs', () => {
    const targets = [
      '/',
      '/v2/api/threads/cth-1',
      '/v2/api/conversations/%2B14155550123/action',
      '/v2/api/conversations?size=5&page=2',
      '//evil.example/v2/api/users',
      '/a/../b/./c',
      '/caf\u00e9 x?q=\u00e9&q=2',
      '/x?',
      '/x?a=1#frag',
      '/x#frag?no',
    ];
    for (const target of targets) {
      for (const url of [new Request(`http://h:1${target}`).url, new URL(`http://h:1${target}`).href]) {
        const expected = new URL(url);
        const got = targetOf(url);
        expect(got.pathname, url).toBe(expected.pathname);
        expect([...got.query], url).toEqual([...expected.searchParams]);
      }
    }
  });
});

describe('answersPath (own routes with a path segment)', () => {
  const fixed = { method: 'GET', path: '/__own/config', acts: false, answer: () => ({ status: 200 }) } as const;
  const withSegment = { ...fixed, path: '/__own/requests', segment: true } as const;

  it('answers a fixed route on its path only', () => {
    expect(['/__own/config', '/__own/config/x', '/__own/configx'].map((p) => answersPath(fixed, p))).toEqual([
      true,
      false,
      false,
    ]);
  });

  it('answers one non-empty segment under a route that takes one, never two', () => {
    const paths = [
      '/__own/requests',
      '/__own/requests/req_1',
      '/__own/requests/',
      '/__own/requests/a/b',
      '/__own/requestsx/a',
    ];
    expect(paths.map((p) => answersPath(withSegment, p))).toEqual([true, true, false, false, false]);
  });
});
