import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSvcClient, type SvcLogEvent } from '../src/index.js';
import { errorBody, type FaultServer, startFaultServer } from './support/fault-server.js';

const apiKey = 'sk_test_retry_0123456789';
let server: FaultServer;

beforeAll(async () => {
  server = await startFaultServer({ apiKey, conversations: 2 });
});
afterAll(() => server.close());

const serverError = () => ({
  kind: 'respond' as const,
  ...errorBody(500, 'server_error', 'INTERNAL_SERVER_ERROR', 'Unexpected failure.'),
});
const thread = { content: 'Follow up', entity_type: 'CALL' as const, entity_id: 'cll-1' };

/** Sends one call and returns what reached the server for it. */
async function observe<T>(send: () => Promise<T>) {
  const before = server.requests.length;
  const result = await send();
  return { result, requests: server.requests.slice(before) };
}

describe('retries', () => {
  it('waits retry_after_seconds after a 429, then succeeds', async () => {
    const events: SvcLogEvent[] = [];
    const svc = createSvcClient({ baseUrl: server.url, apiKey, onLog: (event) => events.push(event) });
    server.inject('GET', '/v2/api/conversations', {
      kind: 'respond',
      ...errorBody(429, 'rate_limit_error', 'RATE_LIMIT_EXCEEDED', 'Slow down.', { retry_after_seconds: 1 }),
      headers: { 'X-RateLimit-Reset': '5' },
    });
    const { result, requests } = await observe(() => svc.GET('/v2/api/conversations'));
    expect(result.response.status).toBe(200);
    expect(requests).toHaveLength(2);
    // The body's retry_after_seconds (1 s) wins over X-RateLimit-Reset (5 s): the client planned
    // a 1 s wait and really waited it (a lower bound only: a busy machine may wait longer).
    expect(events.filter((event) => event.type === 'retry')).toMatchObject([{ delayMs: 1000, reason: 'status 429' }]);
    expect(requests[1]!.at - requests[0]!.at).toBeGreaterThanOrEqual(990);
  });

  it('falls back to X-RateLimit-Reset, read as seconds to wait, when the body has no retry_after_seconds', async () => {
    const events: SvcLogEvent[] = [];
    const svc = createSvcClient({ baseUrl: server.url, apiKey, onLog: (event) => events.push(event) });
    server.inject('GET', '/v2/api/conversations', {
      kind: 'respond',
      ...errorBody(429, 'rate_limit_error', 'RATE_LIMIT_EXCEEDED', 'Slow down.'),
      headers: { 'X-RateLimit-Reset': '0.3' },
    });
    const { requests } = await observe(() => svc.GET('/v2/api/conversations'));
    expect(requests).toHaveLength(2);
    expect(events.filter((event) => event.type === 'retry')).toMatchObject([{ delayMs: 300, reason: 'status 429' }]);
    expect(requests[1]!.at - requests[0]!.at).toBeGreaterThanOrEqual(290);
  });

  it('returns a 429 at once when the server asks for a wait longer than the cap', async () => {
    const events: SvcLogEvent[] = [];
    const svc = createSvcClient({
      baseUrl: server.url,
      apiKey,
      maxRetryDelayMs: 5_000,
      onLog: (event) => events.push(event),
    });
    server.inject('GET', '/v2/api/conversations', {
      kind: 'respond',
      ...errorBody(429, 'rate_limit_error', 'RATE_LIMIT_EXCEEDED', 'Daily limit.', { retry_after_seconds: 3600 }),
    });
    const { result, requests } = await observe(() => svc.GET('/v2/api/conversations'));
    // At once: no wait was planned at all (rather than a wall-clock bound a busy machine can break).
    expect(events.filter((event) => event.type === 'retry')).toEqual([]);
    expect(requests).toHaveLength(1);
    expect(result.error?.error.retry_after_seconds).toBe(3600);
  });

  it('retries a retryable 500 with backoff until it succeeds', async () => {
    const svc = createSvcClient({ baseUrl: server.url, apiKey, retryBaseDelayMs: 20 });
    server.inject('GET', '/v2/api/conversations', serverError(), serverError());
    const { result, requests } = await observe(() => svc.GET('/v2/api/conversations'));
    expect(result.response.status).toBe(200);
    expect(requests).toHaveLength(3);
  });

  it('gives up after maxRetries and returns the last error', async () => {
    const svc = createSvcClient({ baseUrl: server.url, apiKey, retryBaseDelayMs: 1, maxRetries: 2 });
    server.inject('GET', '/v2/api/conversations', serverError(), serverError(), serverError(), serverError());
    const { result, requests } = await observe(() => svc.GET('/v2/api/conversations'));
    expect(result.response.status).toBe(500);
    expect(result.error?.error.code).toBe('INTERNAL_SERVER_ERROR');
    expect(requests).toHaveLength(3);
    // Leave the queue empty for the next tests.
    await svc.GET('/v2/api/conversations');
  });

  it('lets one request override the client’s retries', async () => {
    const svc = createSvcClient({ baseUrl: server.url, apiKey, retryBaseDelayMs: 1, maxRetries: 0 });
    server.inject('GET', '/v2/api/conversations', serverError(), serverError(), serverError());
    const more = await observe(() => svc.GET('/v2/api/conversations', { maxRetries: 3 }));
    expect(more.result.response.status).toBe(200);
    expect(more.requests).toHaveLength(4);

    const eager = createSvcClient({ baseUrl: server.url, apiKey, retryBaseDelayMs: 1, maxRetries: 5 });
    server.inject('GET', '/v2/api/conversations', serverError());
    const none = await observe(() => eager.GET('/v2/api/conversations', { maxRetries: 0 }));
    expect(none.result.response.status).toBe(500);
    expect(none.requests).toHaveLength(1);
  });

  it('never retries an error whose body says retryable: false, even a 5xx', async () => {
    const svc = createSvcClient({ baseUrl: server.url, apiKey, retryBaseDelayMs: 1 });
    const notRetryable = errorBody(503, 'server_error', 'INTERNAL_SERVER_ERROR', 'Do not retry.', { retryable: false });
    server.inject('GET', '/v2/api/conversations', { kind: 'respond', ...notRetryable });
    const { result, requests } = await observe(() => svc.GET('/v2/api/conversations'));
    expect(result.response.status).toBe(503);
    expect(requests).toHaveLength(1);
  });

  it('never retries a 400 (retryable: false)', async () => {
    const svc = createSvcClient({ baseUrl: server.url, apiKey, retryBaseDelayMs: 1 });
    const invalid = errorBody(400, 'validation_error', 'INVALID_PAGE_SIZE', 'size must be 1 to 100.', {
      param: 'size',
    });
    server.inject('GET', '/v2/api/conversations', { kind: 'respond', ...invalid });
    const { result, requests } = await observe(() =>
      svc.GET('/v2/api/conversations', { params: { query: { size: 500 } } }),
    );
    expect(result.error?.error).toMatchObject({ code: 'INVALID_PAGE_SIZE', retryable: false });
    expect(requests).toHaveLength(1);
  });

  it('never retries a write without an Idempotency-Key (automatic keys off)', async () => {
    const svc = createSvcClient({ baseUrl: server.url, apiKey, retryBaseDelayMs: 1, autoIdempotencyKeys: false });
    server.inject('POST', '/v2/api/threads', serverError());
    const { result, requests } = await observe(() => svc.POST('/v2/api/threads', { body: thread }));
    expect(result.response.status).toBe(500);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.headers['idempotency-key']).toBeUndefined();
  });

  it('does retry the same write when it carries a key', async () => {
    const svc = createSvcClient({ baseUrl: server.url, apiKey, retryBaseDelayMs: 1, autoIdempotencyKeys: false });
    server.inject('POST', '/v2/api/threads', serverError());
    const { result, requests } = await observe(() =>
      svc.POST('/v2/api/threads', { body: thread, idempotencyKey: 'write-with-key' }),
    );
    expect(result.response.status).toBe(201);
    expect(requests.map((request) => request.headers['idempotency-key'])).toEqual(['write-with-key', 'write-with-key']);
  });

  it('retries a read after a dropped connection', async () => {
    const svc = createSvcClient({ baseUrl: server.url, apiKey, retryBaseDelayMs: 1 });
    server.inject('GET', '/v2/api/conversations', { kind: 'drop-after-commit' });
    const { result, requests } = await observe(() => svc.GET('/v2/api/conversations'));
    expect(result.response.status).toBe(200);
    expect(requests).toHaveLength(2);
  });
});
