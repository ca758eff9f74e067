// Politeness and rate limits: at the documented rates the suite provokes no 429 from a server
// that enforces them; 429s that do come (the suite's limiter off here) are waited out and still
// checked; and the opt-in burst finds a server's limit, or its absence.
import { afterEach, describe, expect, it } from 'vitest';
import { runContract } from '../src/run.js';
import { json, mutatingProxy, sandbox, type Target } from './support/servers.js';

let target: Target | undefined;
afterEach(async () => {
  await target?.close();
  target = undefined;
});

// The burst checks run the sandbox on a frozen clock: every request of a burst then falls in one
// rate-limit window, however long a loaded machine takes to send them (on the real clock, a burst
// spread over several windows meets no 429 at all).
const FROZEN = Date.parse('2026-03-01T10:00:00Z');
const frozenClock = () => FROZEN;

const base = (t: Target) => ({ baseUrl: t.url, apiKey: t.apiKey, config: t.config, quiet: true, print: false });
const rateLimited = (report: Awaited<ReturnType<typeof runContract>>['report']) =>
  report.coverage.rows.filter((r) => r.codes.covered.includes('RATE_LIMIT_EXCEEDED')).map((r) => r.operationId);

describe('rate limits', () => {
  it('at the documented rates, a server that enforces them never answers 429', async () => {
    target = await sandbox({ rateLimit: {} });
    const result = await runContract({ ...base(target), only: ['users', 'tags'] });
    expect(result.report.failures).toEqual([]);
    expect(rateLimited(result.report)).toEqual([]);
    expect(result.report.rate).toEqual({ readsPerSecond: 20, writesPerSecond: 5 });
  });

  it('429s are waited out (retry_after_seconds) and checked like every response; limits other than the documented ones are named', async () => {
    // Limits below the documented ones, so that the unlimited suite meets 429s on any machine;
    // X-RateLimit-Limit then says 6 or 2 where the contract says 20 or 5, and nothing else fails.
    target = await sandbox({ rateLimit: { readsPerSecond: 6, writesPerSecond: 2 } });
    // The key is declared shared: these 429s come at limits below the documented ones, and whether
    // the unpaced run stayed inside the documented budget depends on the machine's speed.
    const result = await runContract({ ...base(target), only: ['users', 'tags'], rate: 'off', sharedKey: true });
    const others = result.report.failures.filter((f) => f.check !== 'response.rate-limit-window');
    expect(others).toEqual([]);
    expect(result.report.failures.length).toBeGreaterThan(0);
    expect(
      result.report.failures.every((f) =>
        /X-RateLimit-Limit (6|2), but the documented (read|write) limit is (20|5)/.test(f.message),
      ),
    ).toBe(true);
    expect(rateLimited(result.report).length).toBeGreaterThan(0);
  });

  it('--burst: a server that limits answers 429 with retry_after_seconds', async () => {
    target = await sandbox({ rateLimit: {}, clock: frozenClock });
    const result = await runContract({ ...base(target), only: ['rate-limit.burst'], burst: true });
    const burst = result.report.operations.flatMap((op) => op.checks).find((c) => c.id === 'rate-limit.burst');
    expect(burst?.status).toBe('passed');
    expect(result.report.failures).toEqual([]);
  });

  it('--burst: a server whose X-RateLimit-Remaining never falls fails rate-limit.burst', async () => {
    target = await sandbox({ rateLimit: {}, clock: frozenClock });
    const frozen = await mutatingProxy(target, {
      response: (r) => {
        const headers = new Headers(r.headers);
        if (r.status < 300) headers.set('x-ratelimit-remaining', headers.get('x-ratelimit-limit') ?? '20');
        return { ...r, headers };
      },
    });
    try {
      const result = await runContract({ ...base(frozen), only: ['rate-limit.burst'], burst: true });
      expect(result.report.failures.map((f) => f.message).join('\n')).toMatch(/X-RateLimit-Remaining does not fall/);
    } finally {
      await frozen.close();
    }
  });

  it('--burst: a server whose 429 answers an id of its own, not the X-Request-Id sent, fails response.request-id', async () => {
    target = await sandbox({ rateLimit: {}, clock: frozenClock });
    const ownIds = await mutatingProxy(target, {
      response: (r) => {
        if (r.status !== 429) return r;
        const headers = new Headers(r.headers);
        headers.set('x-request-id', 'req_000000000000');
        return json({ ...r, headers }, (b) => {
          (b.error as Record<string, unknown>).request_id = 'req_000000000000';
        });
      },
    });
    try {
      const result = await runContract({ ...base(ownIds), only: ['rate-limit.burst'], burst: true });
      const failures = result.report.failures.filter((f) => f.check === 'response.request-id');
      expect(failures.map((f) => f.message).join('\n')).toMatch(
        /429: sent X-Request-Id "[^"]+-burst-\d+" but got "req_000000000000"/,
      );
    } finally {
      await ownIds.close();
    }
  });

  it('--burst: a server that does not limit fails rate-limit.burst', async () => {
    target = await sandbox({ rateLimit: false });
    const result = await runContract({ ...base(target), only: ['rate-limit.burst'], burst: true });
    expect(result.report.failures.map((f) => f.check)).toEqual(['rate-limit.burst']);
  });
});
