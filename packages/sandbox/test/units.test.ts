// The sandbox's small modules, one behaviour each.
import { describe, expect, it } from 'vitest';
import { deriveOptionKey } from '../src/handlers/custom-fields.js';
import { IdempotencyStore } from '../src/pipeline/idempotency.js';
import { readJsonBody } from '../src/pipeline/json-body.js';
import { RateLimiter } from '../src/pipeline/rate-limiter.js';
import { assertSeed } from '../src/store/store.js';
import { generateRequestId, newId } from '../src/support/ids.js';
import { parseMentions } from '../src/support/mentions.js';
import { matchesAll, searchTerms } from '../src/support/text-search.js';
import { paginate } from '../src/support/pagination.js';

describe('RateLimiter', () => {
  it('counts per bucket and class in one-second windows', () => {
    let now = 10_250;
    const limiter = new RateLimiter({ readsPerSecond: 2, writesPerSecond: 1 }, true, () => now);
    expect(limiter.consume('a', 'read')).toEqual({ allowed: true, limit: 2, remaining: 1, resetSeconds: 1 });
    expect(limiter.consume('a', 'read').remaining).toBe(0);
    expect(limiter.consume('a', 'read').allowed).toBe(false);
    expect(limiter.consume('b', 'read').allowed).toBe(true);
    expect(limiter.consume('a', 'write').allowed).toBe(true);
    now = 11_000;
    expect(limiter.consume('a', 'read')).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('never refuses when disabled, yet reports the budget', () => {
    const limiter = new RateLimiter({ readsPerSecond: 1, writesPerSecond: 1 }, false, () => 0);
    for (let i = 0; i < 5; i++) expect(limiter.consume('a', 'write')).toMatchObject({ allowed: true, limit: 1, remaining: 1 });
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
    expect(store.begin('key', 'k', 'POST', '/a')).toEqual({ kind: 'replay', response: { status: 201, text: '{"x":1}' } });
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
    readJsonBody(new Request('http://x/', { method: 'POST', ...(body !== undefined ? { body } : {}), headers: type ? { 'Content-Type': type } : {} }), required, limits);

  it('accepts a JSON object and refuses everything else with the right code', async () => {
    expect(await read('{"a":1}')).toEqual({ ok: true, value: { a: 1 }, valueCount: 2 });
    expect(await read(undefined, 'application/json', false)).toEqual({ ok: true, value: undefined });
    expect(await read('{}', 'text/plain')).toMatchObject({ ok: false, code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect(await read('{}', null)).toMatchObject({ ok: false, code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect(await read(undefined, null)).toMatchObject({ ok: false, code: 'INVALID_REQUEST_BODY', message: expect.stringMatching(/empty/) });
    expect(await read('x'.repeat(101))).toMatchObject({ ok: false, message: expect.stringMatching(/larger than 100/) });
    expect(await read('{"a":{"b":{"c":{}}}}')).toMatchObject({ ok: false, message: expect.stringMatching(/deeper than 3/) });
    expect(await read('[1]')).toMatchObject({ ok: false, message: 'The request body must be a JSON object; got an array.' });
    expect(await read('{,}')).toMatchObject({ ok: false, message: expect.stringMatching(/^The request body is not valid JSON/) });
  });
});

describe('search terms', () => {
  it('strips special characters, ANDs words and matches prefixes, case-insensitively', () => {
    expect(searchTerms('  Inv!  follow-up ')).toEqual(['inv', 'followup']);
    expect(searchTerms('!!! ???')).toBeNull();
    expect(matchesAll(['inv', 'followup'], ['Invoice sent; follow-up Friday'])).toBe(true);
    expect(matchesAll(['inv', 'friday'], ['Invoice sent', null, 'on FRIDAY'])).toBe(true);
    expect(matchesAll(['voice'], ['Invoice'])).toBe(false);
  });
});

describe('mentions', () => {
  const users = [
    { id: 'usr-1', name: 'Ann', email: 'a@x', role: 'ADMIN', removed: false },
    { id: 'usr-2', name: 'Bob', email: 'b@x', role: 'MEMBER', removed: true },
  ];
  it('parses each mentioned user once, flagging removed and unknown users', () => {
    expect(parseMentions({ content: '@[Ann](usr-1) @[B](usr-2) @[Ann again](usr-1) @[Zed](usr-9) @[broken](cll-1) @[x]( usr-1)' }, users)).toEqual([
      { user_id: 'usr-1', name: 'Ann', deleted: false },
      { user_id: 'usr-2', name: 'Bob', deleted: true },
      { user_id: 'usr-9', name: 'Zed', deleted: true },
    ]);
  });
});

describe('option keys', () => {
  it('derives ASCII snake-case keys, unique among the taken ones', () => {
    expect(deriveOptionKey('Enterprise Plus', new Set())).toBe('enterprise_plus');
    expect(deriveOptionKey('Crème brûlée!', new Set())).toBe('creme_brulee');
    expect(deriveOptionKey('Gold', new Set(['gold', 'gold_2']))).toBe('gold_3');
    expect(deriveOptionKey('???', new Set())).toBe('option');
  });
});

describe('ids and paging', () => {
  it('generates request ids and prefixed ids', () => {
    expect(generateRequestId()).toMatch(/^req_[A-Za-z0-9]{12}$/);
    expect(newId('cth-')).toMatch(/^cth-[A-Za-z0-9]{8}$/);
    let calls = 0;
    expect(newId('x-', () => ++calls < 3)).toMatch(/^x-/);
    expect(calls).toBe(3);
  });

  it('pages a list', () => {
    expect(paginate([1, 2, 3, 4, 5], 2, 2)).toEqual({ data: [3, 4], pagination: { page: 2, size: 2, total_count: 5, total_pages: 3, has_more: true } });
    expect(paginate([], 1, 20).pagination).toEqual({ page: 1, size: 20, total_count: 0, total_pages: 0, has_more: false });
  });
});

describe('seed check', () => {
  it('refuses seeds that cannot work', () => {
    expect(() => assertSeed({})).toThrow(/keys array/);
    expect(() => assertSeed({ keys: [{ key: 'k', name: 'n', team_id: 't' }], teams: [] })).toThrow(/unknown team_id/);
    expect(() => assertSeed({ keys: [{ key: 'k', name: 'n', team_id: 't', owner_user_id: 'u' }], teams: [{ id: 't', users: [] }] })).toThrow(/owner u/);
  });
});


describe('readJsonBody without Content-Type', () => {
  it('answers 415 for bytes sent without any Content-Type', async () => {
    const request = new Request('http://x/', { method: 'POST', body: new TextEncoder().encode('{}') });
    expect(request.headers.get('content-type')).toBeNull();
    expect(await readJsonBody(request, true, { maxBytes: 100, maxDepth: 3 })).toMatchObject({ ok: false, code: 'UNSUPPORTED_MEDIA_TYPE' });
  });
});
