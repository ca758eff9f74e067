import {
  bundledContract,
  corsHeadersFor,
  corsPolicyOf,
  isLoopbackOrigin,
  PREFLIGHT_MAX_AGE_SECONDS,
  preflightAnswer,
} from '@svc/server-kernel';
import { serverHeaderNames } from '@svc/spec-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandboxServer } from '../src/server.js';

const contract = bundledContract();
const policy = corsPolicyOf(contract);
const names = serverHeaderNames(contract);
const listOf = (header: string | null | undefined) => (header ?? '').split(',').map((name) => name.trim());

/** Every header name a documented response carries, walked from the bundle. */
function documentedResponseHeaders(): Set<string> {
  const found = new Set<string>();
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    const headers = (node as { headers?: unknown }).headers;
    if (typeof headers === 'object' && headers !== null && !Array.isArray(headers))
      for (const name of Object.keys(headers)) found.add(name);
    for (const value of Object.values(node)) visit(value);
  };
  const bundle = contract.bundle as { paths?: unknown; components?: { responses?: unknown } };
  visit(bundle.paths);
  visit(bundle.components?.responses);
  return found;
}

describe('isLoopbackOrigin', () => {
  it.each([
    'http://127.0.0.1:4012',
    'http://localhost:4012',
    'http://[::1]:4012',
    'http://localhost',
    'http://127.0.0.1:65535',
  ])('takes %s', (origin) => expect(isLoopbackOrigin(origin)).toBe(true));

  it.each([
    null,
    undefined,
    '',
    'null',
    '*',
    'https://localhost:4012', // not http
    'http://example.com',
    'http://localhost.example.com:4012',
    'http://127.0.0.2:4012',
    'http://127.0.0.1.nip.io',
    'http://localhost:4012/', // not as a browser writes an origin
    'http://LOCALHOST:4012',
    'http://user@localhost:4012',
    'http://localhost:4012/path',
    'http://[::1]:4012:1',
    `http://localhost:${'9'.repeat(10_000)}`,
  ])('refuses %s', (origin) => expect(isLoopbackOrigin(origin)).toBe(false));
});

describe('the policy, read from the bundle', () => {
  it("allows the headers a console sends: the key's, the JSON body's, Idempotency-Key and X-Request-Id", () => {
    expect(listOf(policy.allowHeaders)).toEqual(
      expect.arrayContaining(['Authorization', 'Content-Type', names.idempotencyKey, names.requestId]),
    );
  });

  it('exposes every response header the contract documents, and only those', () => {
    expect(new Set(listOf(policy.exposeHeaders))).toEqual(documentedResponseHeaders());
  });

  it("allows every method of the API's operations, and HEAD", () => {
    const methods = new Set(contract.operations.map((operation) => operation.method));
    expect(new Set(listOf(policy.allowMethods))).toEqual(new Set([...methods, 'HEAD']));
    expect(contract.operations.every((operation) => operation.path.startsWith(policy.apiFolder))).toBe(true);
    expect(policy.apiFolder).toMatch(/^\/.+\/$/);
  });
});

describe('corsHeadersFor and preflightAnswer', () => {
  const path = `${policy.apiFolder}anything`;
  const preflight = { method: 'OPTIONS', pathname: path, origin: 'http://localhost:4012', requestMethod: 'POST' };

  it('answers a loopback preflight with the origin itself, never *', () => {
    const answer = preflightAnswer(policy, preflight)!;
    expect(answer.status).toBe(204);
    expect(answer.headers['Access-Control-Allow-Origin']).toBe('http://localhost:4012');
    expect(answer.headers['Access-Control-Max-Age']).toBe(String(PREFLIGHT_MAX_AGE_SECONDS));
    expect(listOf(answer.headers.Vary)).toContain('Origin');
  });

  it('leaves a plain OPTIONS, a foreign origin and a path outside the API to the kernel', () => {
    expect(preflightAnswer(policy, { ...preflight, requestMethod: null })).toBeUndefined();
    expect(preflightAnswer(policy, { ...preflight, origin: 'http://evil.example' })).toBeUndefined();
    expect(preflightAnswer(policy, { ...preflight, pathname: '/__sandbox/reset' })).toBeUndefined();
    expect(preflightAnswer(policy, { ...preflight, method: 'GET' })).toBeUndefined();
  });

  it('adds headers to answers for a loopback origin under the API folder only', () => {
    expect(corsHeadersFor(policy, { ...preflight, method: 'GET' })).toMatchObject({
      'Access-Control-Allow-Origin': 'http://localhost:4012',
      'Access-Control-Expose-Headers': policy.exposeHeaders,
    });
    expect(corsHeadersFor(policy, { ...preflight, origin: 'http://evil.example' })).toBeUndefined();
    expect(corsHeadersFor(policy, { ...preflight, pathname: '/docs/' })).toBeUndefined();
  });
});

describe('a running sandbox', () => {
  let running: RunningSandbox;
  const key = contract.bundle.servers as { 'x-svc-demo-api-key'?: string }[];
  const auth = { Authorization: `Api-Key ${key[0]!['x-svc-demo-api-key']}` };
  const listPath = contract.operations.find(
    (operation) => operation.method === 'GET' && !operation.path.includes('{'),
  )!.path;
  const url = (path: string) => `${running.url}${path}`;

  beforeAll(async () => {
    running = await startSandboxServer({ port: 0 });
  });
  afterAll(() => running?.close());

  it('answers a preflight from a loopback page, without counting it against the rate limit', async () => {
    const response = await fetch(url(listPath), {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://127.0.0.1:4012',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization,content-type,idempotency-key',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('Access-Control-Allow-Origin')).toBe('http://127.0.0.1:4012');
    expect(listOf(response.headers.get('Access-Control-Allow-Methods'))).toContain('POST');
    expect(response.headers.get(names.rateLimitRemaining)).toBeNull();
    const after = await fetch(url(listPath), { headers: auth });
    expect(Number(after.headers.get(names.rateLimitRemaining))).toBe(
      Number(after.headers.get(names.rateLimitLimit)) - 1,
    );
  });

  // The first target is plain (node:http's way in); `|` is not, so the second takes the web Request's way.
  it.each([listPath, `${listPath}?q=|`])('lets a loopback page read the answer and its headers (%s)', async (path) => {
    const response = await fetch(url(path), { headers: { ...auth, Origin: 'http://[::1]:3000' } });
    expect(response.headers.get('Access-Control-Allow-Origin')).toBe('http://[::1]:3000');
    expect(listOf(response.headers.get('Access-Control-Expose-Headers'))).toContain(names.requestId);
    expect(response.headers.get(names.requestId)).toMatch(/^req_/);
  });

  it.each([listPath, `${listPath}?q=|`])(
    'refuses a foreign origin: no CORS header on any answer (%s)',
    async (path) => {
      const foreign = { Origin: 'http://evil.example' };
      const preflight = await fetch(url(path), {
        method: 'OPTIONS',
        headers: { ...foreign, 'Access-Control-Request-Method': 'GET' },
      });
      expect(preflight.status).toBe(405);
      const get = await fetch(url(path), { headers: { ...auth, ...foreign } });
      for (const response of [preflight, get])
        expect([...response.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
    },
  );

  it('keeps the documented 405 METHOD_NOT_ALLOWED with Allow for an OPTIONS that is no preflight', async () => {
    const response = await fetch(url(listPath), { method: 'OPTIONS', headers: { Origin: 'http://localhost:4012' } });
    expect(response.status).toBe(405);
    expect(response.headers.get('Allow')).toContain('GET');
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('METHOD_NOT_ALLOWED');
  });
});
