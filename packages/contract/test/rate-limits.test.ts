// Politeness and rate limits: at the documented rates the suite provokes no 429 from a server
// that enforces them; 429s that do come (the suite's limiter off here) are waited out and still
// checked; and the opt-in burst (of reads, and with --allow-writes of writes) finds a server's
// limit, or its absence.
import { afterEach, describe, expect, it } from 'vitest';
import { runContract } from '../src/run.js';
import { json, type Mutation, mutatingProxy, sandbox, type Target } from './support/servers.js';

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

/**
 * For the write burst: frozen until the sandbox has refused a write (the burst in one window), then
 * running from there, so that the writes after it (the run's own put-backs) find the window gone
 * once the run has waited out the 429, as on a real clock.
 */
function thawedAfterRefusal(): { clock: () => number; mutation: Mutation } {
  let since: number | undefined;
  return {
    clock: () => (since === undefined ? FROZEN : FROZEN + Date.now() - since),
    mutation: {
      response: (r) => {
        if (r.status === 429) since ??= Date.now();
        return r;
      },
    },
  };
}

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

  it('--burst --allow-writes: a server that limits writes answers 429 with retry_after_seconds', async () => {
    const { clock, mutation } = thawedAfterRefusal();
    target = await sandbox({ rateLimit: {}, clock });
    const thawing = await mutatingProxy(target, mutation);
    try {
      const only = ['rate-limit.write-burst'];
      const result = await runContract({ ...base(thawing), only, burst: true, allowWrites: true });
      const burst = result.report.operations.flatMap((op) => op.checks).find((c) => c.id === only[0]);
      expect(burst?.status).toBe('passed');
      expect(burst?.details.join(' ')).toMatch(/^\d+ of 15 answered 429$/);
      expect(result.report.failures).toEqual([]);
    } finally {
      await thawing.close();
    }
  });

  it('--burst --allow-writes: a server whose write 429 says retryable false fails response.retryable', async () => {
    const { clock, mutation } = thawedAfterRefusal();
    target = await sandbox({ rateLimit: {}, clock });
    const writesNotRetryable = await mutatingProxy(target, {
      response: (r, q) =>
        r.status === 429 && q.method !== 'GET'
          ? json(mutation.response?.(r, q) ?? r, (b) => {
              (b.error as Record<string, unknown>).retryable = false;
            })
          : r,
    });
    try {
      const only = ['rate-limit.write-burst'];
      const result = await runContract({ ...base(writesNotRetryable), only, burst: true, allowWrites: true });
      const failures = result.report.failures.filter((f) => f.check === 'response.retryable');
      expect(failures.map((f) => f.message).join('\n')).toMatch(/a rate-limit error must be retryable \(got false\)/);
    } finally {
      await writesNotRetryable.close();
    }
  });

  it('--burst: a server that does not limit fails rate-limit.burst', async () => {
    target = await sandbox({ rateLimit: false });
    const result = await runContract({ ...base(target), only: ['rate-limit.burst'], burst: true });
    expect(result.report.failures.map((f) => f.check)).toEqual(['rate-limit.burst']);
  });
});
