// End-to-end: the published client against the real sandbox server, over a socket, with the
// sandbox's own rate limits and idempotency store switched on. Nothing here is mocked.
import { type RunningSandbox, startSandboxServer } from '@svc/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSvcClient, SvcApiError, unwrap } from '../src/index.js';

const DEMO_KEY = 'sbx_demo_full_access'; // a sandbox demo key, committed on purpose

let server: RunningSandbox;
beforeAll(async () => {
  server = await startSandboxServer({ port: 0 });
});
afterAll(() => server.close());

const client = (options: Partial<Parameters<typeof createSvcClient>[0]> = {}) =>
  createSvcClient({ baseUrl: server.url, apiKey: DEMO_KEY, ...options });

describe('the client against the sandbox', () => {
  it('creates a thread, reads it back, and sees a keyed retry replayed instead of executed', async () => {
    const svc = client();
    const body = {
      entity_type: 'CALL' as const,
      entity_id: 'cll-6Mn3bV8q',
      content: 'Call back @[Dana Reyes](usr-4TgB81cd)',
    };
    const created = await svc.POST('/v2/api/threads', { body, idempotencyKey: 'e2e-thread-1' });
    expect(created.error).toBeUndefined();
    expect(created.replayed).toBe(false);
    const thread = created.data!.data;
    expect(thread.comment_count).toBe(1);

    const again = await svc.POST('/v2/api/threads', { body, idempotencyKey: 'e2e-thread-1' });
    expect(again.replayed).toBe(true);
    expect(again.data!.data.id).toBe(thread.id);

    const read = unwrap(await svc.GET('/v2/api/threads/{id}', { params: { path: { id: thread.id } } }));
    expect(read.data.comments.map((c) => c.content)).toEqual([body.content]);
  });

  it('returns the typed, documented error of a second thread on the same item', async () => {
    const svc = client();
    const body = { entity_type: 'CALL' as const, entity_id: 'cll-6Mn3bV8q', content: 'A second opinion' };
    const result = await svc.POST('/v2/api/threads', { body });
    expect(result.response.status).toBe(409);
    expect(result.error?.error.code).toBe('THREAD_ALREADY_EXISTS');
    expect(result.requestId).toBe(result.error?.error.request_id);
    expect(() => unwrap(result)).toThrow(SvcApiError);
  });

  it('throws SvcApiError with the request id the caller chose when asked to', async () => {
    const svc = client({ throwOnError: true });
    const failure = await svc
      .GET('/v2/api/conversations/notes/{id}', {
        params: { path: { id: 'not-doesnotexist' } },
        requestId: 'e2e-trace-42',
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SvcApiError);
    expect(failure).toMatchObject({
      status: 404,
      code: 'NOTE_NOT_FOUND',
      type: 'not_found_error',
      requestId: 'e2e-trace-42',
    });
  });

  it('sends E.164 path numbers as %2B and the sandbox finds the conversation', async () => {
    const seen: string[] = [];
    const svc = client({
      fetch: (request) => {
        seen.push(request.url);
        return fetch(request);
      },
    });
    const result = await svc.PUT('/v2/api/conversations/{contact_number}/action', {
      params: { path: { contact_number: '+14155550123' } },
      body: { action: 'READ' },
    });
    expect(result.response.status).toBe(200);
    expect(seen[0]).toContain('/v2/api/conversations/%2B14155550123/action');
  });

  it('visits every conversation exactly once across pages', async () => {
    const svc = client();
    const ids: string[] = [];
    for await (const entry of svc.paginate('/v2/api/conversations', { params: { query: { size: 2 } } })) {
      ids.push(entry.contact_number);
    }
    const first = unwrap(await svc.GET('/v2/api/conversations', { params: { query: { size: 100 } } }));
    expect(ids.length).toBe(first.pagination.total_count);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('holds a burst of reads to the documented rate, so the rate-limited sandbox never answers 429', async () => {
    const svc = client();
    const statuses = await Promise.all(
      Array.from({ length: 45 }, () => svc.GET('/v2/api/tags').then((r) => r.response.status)),
    );
    expect(statuses.filter((status) => status === 429)).toEqual([]);
    expect(statuses.every((status) => status === 200)).toBe(true);
  });
});
