// What every response carries: X-Request-Id (generated or echoed, equal to error.request_id),
// X-RateLimit-* by read/write class from the contract's limits, and the Idempotency-Key echoed.
// Also the Prefer header: choosing responses, and the mock's own answer to a Prefer it cannot serve.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledContract } from '../src/index.js';
import { Harness, KEY } from './support/harness.js';

const contract = bundledContract();
let harness: Harness;
beforeAll(async () => {
  harness = await Harness.start();
});
afterAll(() => harness.close());

describe('request ids', () => {
  it('generates req_ + 12 alphanumerics, different for each request', async () => {
    const a = await harness.send('GET', '/v2/api/tags');
    const b = await harness.send('GET', '/v2/api/tags');
    expect(a.headers.get('x-request-id')).toMatch(/^req_[A-Za-z0-9]{12}$/);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });

  it('echoes the client X-Request-Id, in the header and in every kind of error body', async () => {
    const headers = { 'X-Request-Id': 'client-chosen-id-42' };
    for (const [method, path, options] of [
      ['GET', '/v2/api/tags', {}],
      ['GET', '/v2/api/nope', {}],
      ['DELETE', '/v2/api/tags', {}],
      ['GET', '/v2/api/tags', { key: null }],
      ['GET', '/v2/api/threads/x', {}],
      ['GET', '/v2/api/threads/cth-1', { headers: { ...headers, Prefer: 'code=429' } }],
    ] as const) {
      const sent = await harness.send(method, path, { headers, ...options });
      expect(sent.headers.get('x-request-id')).toBe('client-chosen-id-42');
      if (sent.status >= 400) expect(sent.body.error.request_id).toBe('client-chosen-id-42');
    }
  });

  it('rewrites the request_id of an error example served through Prefer', async () => {
    const sent = await harness.send('GET', '/v2/api/threads/cth-5Lm1zX7e', { headers: { Prefer: 'code=404' } });
    expect(sent.body.error.request_id).toBe(sent.headers.get('x-request-id'));
    expect(sent.body.error.request_id).not.toBe('req_ThreadNotFou');
  });
});

describe('rate-limit headers', () => {
  it('state the read and write budgets of the contract on successes and errors alike', async () => {
    const read = await harness.send('GET', '/v2/api/tags', { key: 'rate-read' });
    expect(read.headers.get('x-ratelimit-limit')).toBe(String(contract.limits.readRequestsPerSecond));
    const write = await harness.send('DELETE', '/v2/api/summary_templates/7d3f0c2a9b41', { key: 'rate-write' });
    expect(write.headers.get('x-ratelimit-limit')).toBe(String(contract.limits.writeRequestsPerSecond));
    const error = await harness.send('GET', '/v2/api/nope', { key: 'rate-error' });
    expect(error.headers.get('x-ratelimit-limit')).toBe('20');
  });

  it('count down within a window but never refuse (429 only on request)', async () => {
    const remaining: number[] = [];
    for (let i = 0; i < 30; i++) {
      const sent = await harness.send('GET', '/v2/api/tags', { key: 'rate-burst' });
      expect(sent.status).toBe(200);
      remaining.push(Number(sent.headers.get('x-ratelimit-remaining')));
    }
    expect(Math.min(...remaining)).toBeLessThan(19);
    const limited = await harness.send('GET', '/v2/api/tags', { headers: { Prefer: 'code=429' } });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
  });
});

describe('idempotency keys', () => {
  it('are echoed on successes and errors, and an empty one counts as absent', async () => {
    const headers = { 'Idempotency-Key': '7c0e4f0e-2b8a-4f7e-9a59-1f7d3c2b9e10' };
    const ok = await harness.send('DELETE', '/v2/api/summary_templates/7d3f0c2a9b41', { headers });
    expect(ok.status).toBe(204);
    const invalid = await harness.send('POST', '/v2/api/conversations/items/cll-9Jd3kW2p/tags', { headers, body: {} });
    expect(invalid.body.error.code).toBe('TAGS_REQUIRED');
    const unauthorised = await harness.send('POST', '/v2/api/threads', { headers, key: null, body: {} });
    expect(unauthorised.status).toBe(401);
    const empty = await harness.send('DELETE', '/v2/api/summary_templates/7d3f0c2a9b41', {
      headers: { 'Idempotency-Key': '' },
    });
    expect(empty.status).toBe(204);
    expect(empty.headers.get('idempotency-key')).toBeNull();
    // The mock stores nothing: a repeated key is executed again, never replayed.
    expect(ok.headers.get('idempotency-replayed')).toBeNull();
  });
});

describe('Prefer', () => {
  it('code= alone serves the first example of that status', async () => {
    const sent = await harness.send('GET', '/v2/api/threads/cth-5Lm1zX7e', { headers: { Prefer: 'code=401' } });
    expect([sent.status, sent.body.error.code]).toEqual([401, 'UNAUTHORIZED']);
  });

  it('example= alone finds the response that holds it', async () => {
    const sent = await harness.send('GET', '/v2/api/threads/cth-5Lm1zX7e', {
      headers: { Prefer: 'example=API_KEY_TRIAL_NOT_ALLOWED' },
    });
    expect([sent.status, sent.body.error.code]).toEqual([403, 'API_KEY_TRIAL_NOT_ALLOWED']);
  });

  it('accepts quoted values, semicolons and unknown preferences', async () => {
    const sent = await harness.send('GET', '/v2/api/threads/cth-5Lm1zX7e', {
      headers: { Prefer: 'respond-async; code="404", wait=10' },
    });
    expect(sent.status).toBe(404);
  });

  it('validation comes first: an invalid request is answered as such whatever Prefer asks', async () => {
    const sent = await harness.send('GET', '/v2/api/conversations?size=0', { headers: { Prefer: 'code=200' } });
    expect(sent.body.error.code).toBe('INVALID_PAGE_SIZE');
  });

  it.each([
    ['code=418', /code=418 is not documented for getThread; documented: 200/],
    ['code=422', /code=422 is not documented/],
    ['code=abc', /three-digit/],
    ['code=404, example=NOPE', /404 response of getThread has no example named NOPE; documented: THREAD_NOT_FOUND/],
    ['example=NOPE', /No response of getThread has an example named NOPE/],
    ['dynamic=maybe', /true or false/],
    ['code=4 04', /malformed/],
  ])(
    'a Prefer the operation cannot satisfy (%s) is a 400 INVALID_REQUEST naming Prefer, never Prism problem+json',
    async (prefer, message) => {
      // Not an API response (getThread documents no 400): the caller of the mock made the mistake.
      const sent = await harness.send('GET', '/v2/api/threads/cth-5Lm1zX7e', {
        headers: { Prefer: prefer },
        notApiResponse: true,
      });
      expect(sent.status).toBe(400);
      expect(sent.body.error).toMatchObject({ code: 'INVALID_REQUEST', param: 'Prefer', type: 'validation_error' });
      expect(sent.body.error.message).toMatch(message);
    },
  );

  it('dynamic=true with a seed is repeatable', async () => {
    const headers = { Prefer: 'dynamic=true, seed=42' };
    const a = await harness.send('GET', '/v2/api/users', { headers });
    const b = await harness.send('GET', '/v2/api/users', { headers });
    expect(a.body).toEqual(b.body);
  });
});

describe('responses', () => {
  it('a 204 has no body and no content type', async () => {
    const sent = await harness.send('DELETE', '/v2/api/summary_templates/7d3f0c2a9b41');
    expect(sent.status).toBe(204);
    expect(sent.text).toBe('');
  });

  it('Accept is ignored: the API only speaks JSON', async () => {
    const sent = await harness.send('GET', '/v2/api/tags', { headers: { Accept: 'text/html' } });
    expect(sent.status).toBe(200);
    expect(sent.headers.get('content-type')).toBe('application/json');
  });

  it('a phone number with a literal + in the path works like %2B', async () => {
    const sent = await harness.send('GET', '/v2/api/numbers/+14155550123/agent');
    expect(sent.status).toBe(200);
  });
});

describe('HEAD', () => {
  // Left out: Date, the connection's own headers (the client's pool decides those) and the budget
  // left, which each request spends.
  const apart = new Set(['date', 'connection', 'keep-alive', 'x-ratelimit-remaining']);
  /** Status and headers of one request, its X-Request-Id fixed. */
  async function statusAndHeaders(method: string, path: string): Promise<[number, [string, string][]]> {
    const response = await fetch(`${harness.running.url}${path}`, {
      method,
      headers: { Authorization: `Api-Key ${KEY}`, 'X-Request-Id': 'req_headhead0001' },
    });
    await response.arrayBuffer();
    return [response.status, [...response.headers].filter(([name]) => !apart.has(name))];
  }

  it.each([
    ['a known path', '/v2/api/tags'],
    ['an unknown path under the API', '/v2/api/nowhere'],
    ['an unknown path outside it', '/elsewhere'],
    ['a path without GET', '/v2/api/conversations/%2B14155550123/action'],
  ])('answers exactly the status and headers of GET on %s', async (_, path) => {
    const get = await statusAndHeaders('GET', path);
    expect(get[1].find(([name]) => name === 'content-length')?.[1]).toMatch(/^[1-9]/);
    expect(await statusAndHeaders('HEAD', path)).toEqual(get);
  });
});
