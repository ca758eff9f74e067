import type { Middleware } from 'openapi-fetch';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSvcClient, SvcError } from '../src/index.js';
import { errorBody, type FaultServer, startFaultServer } from './support/fault-server.js';

const apiKey = 'sk_test_client_0123456789';
let server: FaultServer;

beforeAll(async () => {
  server = await startFaultServer({ apiKey, conversations: 3 });
});
afterAll(() => server.close());
afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

const lastRequest = () => server.requests.at(-1)!;

describe('createSvcClient', () => {
  it('sends the key as Authorization: Api-Key <key>', async () => {
    const svc = createSvcClient({ baseUrl: server.url, apiKey });
    const { data, error } = await svc.GET('/v2/api/conversations');
    expect(error).toBeUndefined();
    expect(data?.data).toHaveLength(3);
    expect(lastRequest().headers.authorization).toBe(`Api-Key ${apiKey}`);
  });

  it('reads the key from SVC_API_KEY when the option is absent', async () => {
    vi.stubEnv('SVC_API_KEY', apiKey);
    const svc = createSvcClient({ baseUrl: server.url });
    const { response } = await svc.GET('/v2/api/conversations');
    expect(response.status).toBe(200);
    expect(lastRequest().headers.authorization).toBe(`Api-Key ${apiKey}`);
  });

  it('refuses to start without a key', () => {
    vi.stubEnv('SVC_API_KEY', '');
    expect(() => createSvcClient({ baseUrl: server.url })).toThrow(/No API key/);
  });

  it('refuses to run in a browser unless dangerouslyAllowBrowser is set', async () => {
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
    expect(() => createSvcClient({ baseUrl: server.url, apiKey })).toThrow(SvcError);
    expect(() => createSvcClient({ baseUrl: server.url, apiKey })).toThrow(/browser/);
    const svc = createSvcClient({ baseUrl: server.url, apiKey, dangerouslyAllowBrowser: true });
    expect((await svc.GET('/v2/api/conversations')).response.status).toBe(200);
  });

  it('does not mistake a server (window without document) for a browser', () => {
    vi.stubGlobal('window', {});
    expect(() => createSvcClient({ baseUrl: server.url, apiKey })).not.toThrow();
  });

  it('sends an E.164 number in a path as %2B on the wire', async () => {
    const svc = createSvcClient({ baseUrl: server.url, apiKey });
    const { data } = await svc.PUT('/v2/api/conversations/{contact_number}/action', {
      params: { path: { contact_number: '+14155550123' } },
      body: { action: 'ARCHIVE' },
    });
    expect(lastRequest().path).toBe('/v2/api/conversations/%2B14155550123/action');
    expect(data).toEqual({ data: { contact_number: '+14155550123', action: 'ARCHIVE' } });
  });

  it('exposes the request id of every result, and sends the caller’s own', async () => {
    const svc = createSvcClient({ baseUrl: server.url, apiKey });
    const generated = await svc.GET('/v2/api/conversations');
    expect(generated.requestId).toMatch(/^req_[A-Za-z0-9]{12}$/);
    expect(generated.requestId).toBe(generated.response.headers.get('X-Request-Id'));

    const byOption = await svc.GET('/v2/api/conversations', { requestId: 'my-trace-1' });
    expect(lastRequest().headers['x-request-id']).toBe('my-trace-1');
    expect(byOption.requestId).toBe('my-trace-1');

    const byHeader = await svc.GET('/v2/api/conversations', { params: { header: { 'X-Request-Id': 'my-trace-2' } } });
    expect(lastRequest().headers['x-request-id']).toBe('my-trace-2');
    expect(byHeader.requestId).toBe('my-trace-2');

    const failed = await svc.GET('/v2/api/threads/{id}', {
      params: { path: { id: 'cth-missing' } },
      requestId: 'my-trace-3',
    });
    expect(failed.error?.error.code).toBe('THREAD_NOT_FOUND');
    expect(failed.requestId).toBe('my-trace-3');
  });

  it('runs middleware once per call, above the retries', async () => {
    const svc = createSvcClient({ baseUrl: server.url, apiKey, retryBaseDelayMs: 1 });
    const seen: Array<{ authorization: string | null; status?: number }> = [];
    const middleware: Middleware = {
      onRequest: ({ request }) => void seen.push({ authorization: request.headers.get('Authorization') }),
      // openapi-fetch hands onResponse the Request it sent: the key is not on it either.
      onResponse: ({ request, response }) =>
        void seen.push({ authorization: request.headers.get('Authorization'), status: response.status }),
    };
    svc.use(middleware);
    const failure = errorBody(500, 'server_error', 'INTERNAL_SERVER_ERROR', 'Boom.');
    server.inject('GET', '/v2/api/conversations', { kind: 'respond', ...failure });
    const before = server.requests.length;
    const { response } = await svc.GET('/v2/api/conversations');
    expect(response.status).toBe(200);
    expect(server.requests.length - before).toBe(2);
    // One onRequest, one onResponse with the final status; the key never reached the middleware.
    expect(seen).toEqual([{ authorization: null }, { authorization: null, status: 200 }]);
    expect(lastRequest().headers.authorization).toBe(`Api-Key ${apiKey}`);
    svc.eject(middleware);
    await svc.GET('/v2/api/conversations');
    expect(seen).toHaveLength(2);
    // Without middleware the key takes the cheaper road (openapi-fetch's base headers): still sent.
    expect(lastRequest().headers.authorization).toBe(`Api-Key ${apiKey}`);
    // Per-request middleware is middleware too: it never sees the key.
    await svc.GET('/v2/api/conversations', { middleware: [middleware] });
    expect(seen.slice(2)).toEqual([{ authorization: null }, { authorization: null, status: 200 }]);
    expect(lastRequest().headers.authorization).toBe(`Api-Key ${apiKey}`);
  });

  it('ejects as openapi-fetch does: a middleware never registered changes nothing', async () => {
    const svc = createSvcClient({ baseUrl: server.url, apiKey });
    const seen: string[] = [];
    const registered: Middleware = { onRequest: () => void seen.push('registered') };
    const stranger: Middleware = { onRequest: () => void seen.push('stranger') };
    svc.use(registered);
    svc.eject(stranger, stranger);
    await svc.GET('/v2/api/conversations');
    expect(seen).toEqual(['registered']);
    // The key still goes beneath the middleware, never through it.
    expect(lastRequest().headers.authorization).toBe(`Api-Key ${apiKey}`);
    svc.eject(registered, registered);
    await svc.GET('/v2/api/conversations');
    expect(seen).toEqual(['registered']);
    expect(lastRequest().headers.authorization).toBe(`Api-Key ${apiKey}`);
  });

  it("lets the caller's own Authorization header win, with or without middleware", async () => {
    const svc = createSvcClient({
      baseUrl: server.url,
      apiKey,
      headers: { Authorization: `Api-Key ${apiKey}`, 'User-Agent': 'svc-test' },
    });
    await svc.GET('/v2/api/conversations', { headers: { Authorization: 'Api-Key other-team' } });
    expect(lastRequest().headers.authorization).toBe('Api-Key other-team');
    expect(lastRequest().headers['user-agent']).toBe('svc-test');
    svc.use({ onRequest: () => undefined });
    await svc.GET('/v2/api/conversations', { headers: { Authorization: 'Api-Key other-team' } });
    expect(lastRequest().headers.authorization).toBe('Api-Key other-team');
  });
});
