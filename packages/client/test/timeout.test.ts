import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSvcClient, type SvcLogEvent, SvcTimeoutError } from '../src/index.js';
import { type FaultServer, startFaultServer } from './support/fault-server.js';

const apiKey = 'sk_test_timeout_0123456789';
let server: FaultServer;

beforeAll(async () => {
  server = await startFaultServer({ apiKey, conversations: 1 });
});
afterAll(() => server.close());
afterEach(() => {
  vi.useRealTimers();
});

/**
 * Lets a client's time limit run out only once its request is on the server. Only Date is faked:
 * the client's one timer still fires on the real clock, but finds its deadline passed only after
 * the date is moved, which happens here once the server has the request. Without it, a loaded
 * machine can let a short time limit expire before the request reaches the server, which then
 * sees no connection to abandon, and its hang stays queued for the next test's request.
 */
async function expireOnceArrived(requestsBefore: number, ms: number): Promise<void> {
  await server.waitForRequests(requestsBefore + 1);
  vi.setSystemTime(Date.now() + ms);
}

describe('timeouts and aborts', () => {
  it('aborts a request that outlives its timeout, with an SvcTimeoutError', async () => {
    const svc = createSvcClient({ baseUrl: server.url, apiKey, timeoutMs: 150, maxRetries: 0 });
    server.inject('GET', '/v2/api/conversations', { kind: 'hang' });
    const abandonedBefore = server.abandoned;
    const requestsBefore = server.requests.length;
    vi.useFakeTimers({ toFake: ['Date'] });
    const started = performance.now();
    const pending = svc.GET('/v2/api/conversations', { requestId: 'slow-1' }).catch((caught: unknown) => caught);
    await expireOnceArrived(requestsBefore, 150);
    const error = await pending;
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(SvcTimeoutError);
    expect(error).toMatchObject({ timeoutMs: 150, requestId: 'slow-1' });
    // Not before its time (an upper bound would only measure how busy the machine is).
    expect(elapsed).toBeGreaterThanOrEqual(140);
    // The connection was really closed, not left hanging: the server sees its client go (an
    // event, however long a busy machine takes to deliver it; a connection left open hangs here).
    await server.waitForAbandoned(abandonedBefore + 1);
    expect(server.abandoned).toBe(abandonedBefore + 1);
  });

  it('still times out when garbage is collected during the wait', async () => {
    // Node's fetch links abort signals through weak references; a Request the client stopped
    // holding would be collected here and the timeout would never reach the socket.
    const gc = (globalThis as { gc?: () => void }).gc;
    expect(gc, 'vitest runs with --expose-gc').toBeTypeOf('function');
    const svc = createSvcClient({ baseUrl: server.url, apiKey, timeoutMs: 150, maxRetries: 0 });
    server.inject('GET', '/v2/api/conversations', { kind: 'hang' });
    const requestsBefore = server.requests.length;
    vi.useFakeTimers({ toFake: ['Date'] });
    const collecting = setInterval(() => gc?.(), 10);
    try {
      const pending = svc.GET('/v2/api/conversations').catch((caught: unknown) => caught);
      await expireOnceArrived(requestsBefore, 150);
      const outcome = await Promise.race([
        pending,
        // Far past the 150 ms timeout even on a loaded machine: only a lost timeout gets here.
        new Promise((resolve) => setTimeout(() => resolve('still waiting after 30 s'), 30_000)),
      ]);
      expect(outcome).toBeInstanceOf(SvcTimeoutError);
    } finally {
      clearInterval(collecting);
    }
  });

  it('lets one request set its own timeout', async () => {
    const svc = createSvcClient({ baseUrl: server.url, apiKey, timeoutMs: 10_000, maxRetries: 0 });
    server.inject('GET', '/v2/api/conversations', { kind: 'hang' });
    const requestsBefore = server.requests.length;
    vi.useFakeTimers({ toFake: ['Date'] });
    const pending = svc.GET('/v2/api/conversations', { timeoutMs: 100 }).catch((caught: unknown) => caught);
    await expireOnceArrived(requestsBefore, 100);
    const error = await pending;
    // The error names the timer that ended the call: the request's own, not the client's 10 s.
    expect(error).toBeInstanceOf(SvcTimeoutError);
    expect(error).toMatchObject({ timeoutMs: 100 });
  });

  it('retries a timed-out read like any network failure', async () => {
    // The transport is a stub: the first attempt hangs until its timeout aborts it, the retry is
    // answered at once. (Over a real socket a busy machine can make the retry outlive 100 ms too.)
    let attempts = 0;
    const hangThenAnswer = (input: Request): Promise<Response> => {
      attempts++;
      if (attempts > 1)
        return Promise.resolve(
          new Response(
            '{"data":[],"pagination":{"page":1,"size":20,"total_count":0,"total_pages":0,"has_more":false}}',
            { status: 200, headers: { 'Content-Type': 'application/json' } },
          ),
        );
      return new Promise((_, reject) =>
        input.signal.addEventListener('abort', () => reject(input.signal.reason), { once: true }),
      );
    };
    const svc = createSvcClient({
      baseUrl: server.url,
      apiKey,
      timeoutMs: 100,
      maxRetries: 1,
      retryBaseDelayMs: 1,
      fetch: hangThenAnswer,
    });
    const { response } = await svc.GET('/v2/api/conversations');
    expect(response.status).toBe(200);
    expect(attempts).toBe(2);
  });

  it('reports a caller abort as the caller’s own AbortError, not as a timeout, and does not retry it', async () => {
    for (const maxRetries of [0, 2]) {
      const svc = createSvcClient({ baseUrl: server.url, apiKey, timeoutMs: 5_000, maxRetries, retryBaseDelayMs: 1 });
      server.inject('GET', '/v2/api/conversations', { kind: 'hang' });
      const controller = new AbortController();
      const before = server.requests.length;
      const pending = svc
        .GET('/v2/api/conversations', { signal: controller.signal })
        .catch((caught: unknown) => caught);
      // Abort once the request is on the server (an event, not a guess at how long that takes).
      await server.waitForRequests(before + 1);
      controller.abort();
      const error = await pending;
      expect(error).not.toBeInstanceOf(SvcTimeoutError);
      expect(error).toMatchObject({ name: 'AbortError' });
      expect(error).toBe(controller.signal.reason);
      expect(server.requests.length - before).toBe(1);
    }
  });

  it('stops waiting between retries when the caller aborts', async () => {
    // Aborted once the client has logged its retry (it then waits 5 s): an event, not a guess at
    // how long the first attempt takes.
    const retries: SvcLogEvent[] = [];
    let retrying: () => void = () => {};
    const waiting = new Promise<void>((resolve) => (retrying = resolve));
    const onLog = (event: SvcLogEvent) => {
      if (event.type !== 'retry') return;
      retries.push(event);
      retrying();
    };
    const svc = createSvcClient({ baseUrl: server.url, apiKey, onLog });
    server.inject('GET', '/v2/api/conversations', {
      kind: 'respond',
      status: 429,
      body: {
        error: {
          type: 'rate_limit_error',
          code: 'RATE_LIMIT_EXCEEDED',
          message: 'Wait.',
          retryable: true,
          retry_after_seconds: 5,
        },
      },
    });
    const controller = new AbortController();
    const before = server.requests.length;
    const pending = svc.GET('/v2/api/conversations', { signal: controller.signal });
    await waiting;
    expect(retries).toMatchObject([{ attempt: 2, delayMs: 5000, reason: 'status 429' }]);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.requests.length - before).toBe(1);
  });
});
