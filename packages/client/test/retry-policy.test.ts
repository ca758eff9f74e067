import { describe, expect, it } from 'vitest';
import { type AttemptOutcome, type RetryPolicy, readRetryHints, retryDelay } from '../src/retry.js';

const policy: RetryPolicy = { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 1_000 };
const outcome = (overrides: Partial<AttemptOutcome>): AttemptOutcome => ({
  retriesSoFar: 0,
  isWrite: false,
  hasIdempotencyKey: false,
  status: 500,
  hints: {},
  ...overrides,
});

describe('retryDelay', () => {
  it('backs off exponentially with full jitter, capped', () => {
    expect(retryDelay(outcome({ retriesSoFar: 0 }), policy, () => 0.999)).toBe(99);
    expect(retryDelay(outcome({ retriesSoFar: 2 }), policy, () => 0.999)).toBe(399);
    expect(retryDelay(outcome({ retriesSoFar: 2 }), policy, () => 0)).toBe(0);
    expect(retryDelay(outcome({ retriesSoFar: 2 }), { ...policy, maxRetries: 10, maxDelayMs: 250 }, () => 0.999)).toBe(
      249,
    );
  });

  it('retries network failures (no status), 429 and 5xx only', () => {
    expect(retryDelay(outcome({ status: undefined }), policy, () => 0.5)).toBe(50);
    expect(retryDelay(outcome({ status: 503 }), policy, () => 0.5)).toBe(50);
    expect(retryDelay(outcome({ status: 429 }), policy, () => 0.5)).toBe(50);
    for (const status of [400, 401, 403, 404, 409, 415])
      expect(retryDelay(outcome({ status }), policy)).toBeUndefined();
  });

  it('stops at maxRetries', () => {
    expect(retryDelay(outcome({ retriesSoFar: 2 }), policy, () => 0.999)).toBe(399);
    expect(retryDelay(outcome({ retriesSoFar: 3 }), policy)).toBeUndefined();
  });

  it('never retries retryable: false or a write without a key', () => {
    expect(retryDelay(outcome({ hints: { retryable: false } }), policy)).toBeUndefined();
    expect(retryDelay(outcome({ isWrite: true }), policy)).toBeUndefined();
    expect(retryDelay(outcome({ isWrite: true, status: undefined }), policy)).toBeUndefined();
    expect(retryDelay(outcome({ isWrite: true, hasIdempotencyKey: true }), policy, () => 0)).toBe(0);
  });

  it('waits what a 429 asks, preferring retry_after_seconds to X-RateLimit-Reset, and gives up past the cap', () => {
    expect(retryDelay(outcome({ status: 429, hints: { retryAfterSeconds: 0.5, resetSeconds: 0.9 } }), policy)).toBe(
      500,
    );
    expect(retryDelay(outcome({ status: 429, hints: { resetSeconds: 0.9 } }), policy)).toBe(900);
    expect(retryDelay(outcome({ status: 429, hints: { retryAfterSeconds: 2 } }), policy)).toBeUndefined();
    // An epoch-looking reset is far past any cap: not retried rather than waited for.
    expect(retryDelay(outcome({ status: 429, hints: { resetSeconds: 1_767_000_000 } }), policy)).toBeUndefined();
  });
});

describe('readRetryHints', () => {
  it('reads the body from a clone, leaving it for the caller', async () => {
    const response = new Response(JSON.stringify({ error: { retryable: true, retry_after_seconds: 3 } }), {
      status: 429,
      headers: { 'X-RateLimit-Reset': '7' },
    });
    expect(await readRetryHints(response)).toEqual({ retryable: true, retryAfterSeconds: 3, resetSeconds: 7 });
    expect(await response.json()).toEqual({ error: { retryable: true, retry_after_seconds: 3 } });
  });

  it('ignores a body that is not JSON', async () => {
    expect(await readRetryHints(new Response('<html>', { status: 502 }))).toEqual({});
  });
});
