import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSvcClient } from '../src/index.js';
import { WINDOW_MARGIN_MS } from '../src/pacer.js';
import { type FaultServer, startFaultServer } from './support/fault-server.js';

const apiKey = 'sk_test_rate_0123456789';
const limit = 50;
let server: FaultServer;

beforeAll(async () => {
  server = await startFaultServer({
    apiKey,
    conversations: 1,
    rateLimit: { readsPerSecond: limit, writesPerSecond: limit },
  });
});
afterAll(() => server.close());

/** The most arrivals the server saw in any one-second span. */
function busiestSecond(times: number[]): number {
  let most = 0;
  for (let start = 0, end = 0; end < times.length; end++) {
    while ((times[end] ?? 0) - (times[start] ?? 0) >= 1000) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

async function burst(svc: ReturnType<typeof createSvcClient>, calls: number) {
  const before = server.requests.length;
  const limitedBefore = server.rateLimited;
  const started = performance.now();
  const results = await Promise.all(Array.from({ length: calls }, () => svc.GET('/v2/api/conversations')));
  return {
    elapsedMs: performance.now() - started,
    statuses: results.map((result) => result.response.status),
    rateLimited: server.rateLimited - limitedBefore,
    arrivals: server.requests.slice(before).map((request) => request.at),
  };
}

describe('client-side rate limiting', () => {
  it('holds a 100-call burst to the configured rate without a single 429', async () => {
    const svc = createSvcClient({ baseUrl: server.url, apiKey, maxRetries: 0, rateLimit: { readsPerSecond: limit } });
    const outcome = await burst(svc, 100);
    expect(outcome.rateLimited).toBe(0);
    expect(outcome.statuses.every((status) => status === 200)).toBe(true);
    expect(outcome.arrivals).toHaveLength(100);
    expect(busiestSecond(outcome.arrivals)).toBeLessThanOrEqual(limit);
    // 100 calls at 50 per second cannot finish in much less than a second.
    expect(outcome.elapsedMs).toBeGreaterThanOrEqual(980);
  });

  it('is what prevents the 429s: the same burst without it is refused (control)', async () => {
    // The control's server has a frozen clock: every arrival falls in one window whatever the
    // machine's speed, so exactly the burst's excess over the limit is refused.
    const frozen = await startFaultServer({
      apiKey,
      conversations: 1,
      rateLimit: { readsPerSecond: limit, writesPerSecond: limit },
      rateLimitClock: () => 0,
    });
    try {
      const svc = createSvcClient({ baseUrl: frozen.url, apiKey, maxRetries: 0, rateLimit: false });
      const results = await Promise.all(Array.from({ length: 100 }, () => svc.GET('/v2/api/conversations')));
      expect(frozen.rateLimited).toBe(100 - limit);
      expect(results.filter((result) => result.response.status === 429)).toHaveLength(100 - limit);
    } finally {
      await frozen.close();
    }
  });
});

describe("the client's pacing", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps reads and writes in separate buckets', async () => {
    vi.useFakeTimers();
    const svc = createSvcClient({
      baseUrl: 'http://127.0.0.1:9',
      apiKey,
      rateLimit: { readsPerSecond: 1, writesPerSecond: 1 },
      fetch: async () => new Response('{"data":[]}', { status: 200, headers: { 'Content-Type': 'application/json' } }),
    });
    await svc.GET('/v2/api/conversations');
    // The read bucket is now empty for a second, yet a write goes straight through.
    let wrote = false;
    void svc
      .POST('/v2/api/threads', { body: { content: 'x', entity_type: 'CALL', entity_id: 'cll-1' } })
      .then(() => (wrote = true));
    let read = false;
    void svc.GET('/v2/api/conversations').then(() => (read = true));
    await vi.advanceTimersByTimeAsync(10);
    expect(wrote).toBe(true);
    expect(read).toBe(false);
    await vi.advanceTimersByTimeAsync(1000 + WINDOW_MARGIN_MS);
    expect(read).toBe(true);
  });
});
