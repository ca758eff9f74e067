// X-RateLimit-* on every response. The mock never refuses a request for going over the budget
// (429 is reachable with `Prefer: code=429`), but it counts per key and class in one-second
// windows so that the headers move the way the real service's do.
import type { Contract } from '@svc/spec-runtime';

export interface RateLimitHeaders {
  limit: number;
  remaining: number;
  /** Seconds until the current window ends. */
  reset: number;
}

export class RateLimitCounter {
  private readonly windows = new Map<string, { start: number; used: number }>();

  constructor(
    private readonly limits: { read: number; write: number },
    private readonly clock: () => number = Date.now,
  ) {}

  static fromContract(contract: Contract, clock?: () => number): RateLimitCounter {
    return new RateLimitCounter({ read: contract.limits.readRequestsPerSecond, write: contract.limits.writeRequestsPerSecond }, clock);
  }

  /** Counts one request of `kind` for `key` and returns the headers to send. */
  count(key: string, kind: 'read' | 'write'): RateLimitHeaders {
    const now = this.clock();
    const start = Math.floor(now / 1000) * 1000;
    const id = `${kind} ${key}`;
    let window = this.windows.get(id);
    if (!window || window.start !== start) {
      // At most one entry per key and class; past 10 000 keys (random keys from a fuzzer) the
      // table is simply forgotten, which only resets the counts shown.
      if (this.windows.size >= 10_000) this.windows.clear();
      window = { start, used: 0 };
      this.windows.set(id, window);
    }
    window.used++;
    const limit = this.limits[kind];
    return { limit, remaining: Math.max(0, limit - window.used), reset: Math.max(0, Math.ceil((start + 1000 - now) / 1000)) };
  }
}
