import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSvcClient, SvcConnectionError } from '../src/index.js';
import { errorBody, type FaultServer, startFaultServer } from './support/fault-server.js';

const apiKey = 'sk_test_idempotency_0123456789';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
let server: FaultServer;

beforeAll(async () => {
  server = await startFaultServer({ apiKey });
});
afterAll(() => server.close());

const thread = { content: 'Call back', entity_type: 'CALL' as const, entity_id: 'cll-7' };
const since = (count: number) => server.requests.slice(count);

describe('idempotency', () => {
  it('gives every write a fresh UUID key, and reads none', async () => {
    const svc = createSvcClient({ baseUrl: server.url, apiKey });
    const before = server.requests.length;
    const first = await svc.POST('/v2/api/threads', { body: thread });
    const second = await svc.POST('/v2/api/threads', { body: thread });
    await svc.GET('/v2/api/crm/attributes');
    const [a, b, read] = since(before);
    expect(a!.headers['idempotency-key']).toMatch(UUID);
    expect(b!.headers['idempotency-key']).toMatch(UUID);
    expect(a!.headers['idempotency-key']).not.toBe(b!.headers['idempotency-key']);
    expect(read!.headers['idempotency-key']).toBeUndefined();
    expect(first.idempotencyKey).toBe(a!.headers['idempotency-key']);
    expect(second.idempotencyKey).toBe(b!.headers['idempotency-key']);
    expect(first.replayed).toBe(false);
  });

  it('keeps the caller’s key, given as an option or as the header', async () => {
    const svc = createSvcClient({ baseUrl: server.url, apiKey });
    const before = server.requests.length;
    await svc.POST('/v2/api/threads', { body: thread, idempotencyKey: 'caller-option-key' });
    await svc.POST('/v2/api/threads', { body: thread, params: { header: { 'Idempotency-Key': 'caller-header-key' } } });
    expect(since(before).map((request) => request.headers['idempotency-key'])).toEqual([
      'caller-option-key',
      'caller-header-key',
    ]);
  });

  it('retries a write whose connection dropped after the commit with the same key; the server applies it once', async () => {
    const svc = createSvcClient({ baseUrl: server.url, apiKey, retryBaseDelayMs: 1 });
    server.inject('POST', '/v2/api/threads', { kind: 'drop-after-commit' });
    const before = server.requests.length;
    const appliedBefore = server.appliedWrites.length;
    const result = await svc.POST('/v2/api/threads', { body: thread });

    const attempts = since(before);
    expect(attempts).toHaveLength(2);
    expect(attempts[0]!.headers['idempotency-key']).toMatch(UUID);
    expect(attempts[1]!.headers['idempotency-key']).toBe(attempts[0]!.headers['idempotency-key']);
    expect(server.appliedWrites.length - appliedBefore).toBe(1);
    expect(result.response.status).toBe(201);
    expect(result.replayed).toBe(true);
    expect(result.idempotencyKey).toBe(attempts[0]!.headers['idempotency-key']);
    // The replay is the stored response of the one execution: the thread it created.
    expect(result.data?.data.id).toBe(`cth-${server.appliedWrites.length}`);
  });

  it('reuses the key on every retry of a failed write', async () => {
    const svc = createSvcClient({ baseUrl: server.url, apiKey, retryBaseDelayMs: 1 });
    const failure = {
      kind: 'respond' as const,
      ...errorBody(502, 'server_error', 'INTERNAL_SERVER_ERROR', 'Bad gateway.'),
    };
    server.inject('POST', '/v2/api/threads', failure, failure);
    const before = server.requests.length;
    const result = await svc.POST('/v2/api/threads', { body: thread });
    const keys = since(before).map((request) => request.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(result.response.status).toBe(201);
    expect(result.replayed).toBe(false);
  });

  it('does not retry a dropped write sent without a key, and reports the connection failure', async () => {
    const svc = createSvcClient({ baseUrl: server.url, apiKey, retryBaseDelayMs: 1 });
    server.inject('POST', '/v2/api/threads', { kind: 'drop-after-commit' });
    const before = server.requests.length;
    await expect(svc.POST('/v2/api/threads', { body: thread, idempotencyKey: false })).rejects.toBeInstanceOf(
      SvcConnectionError,
    );
    expect(since(before)).toHaveLength(1);
  });
});
