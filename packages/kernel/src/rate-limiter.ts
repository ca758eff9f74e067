// Per-key rate limits in fixed one-second windows, one budget for reads and one for writes (the
// numbers come from the contract's info.x-svc-limits unless configured otherwise). Every response
// reports the budget in X-RateLimit-*. Three modes:
// - enforce: past the budget a request is refused (the sandbox);
// - report: requests are counted and the headers move as the real service's do, but nothing is
//   refused (the mock: 429 is reachable there with `Prefer: code=429`);
// - off: the headers report the whole budget, which never runs out.
export interface RateLimits {
  readsPerSecond: number;
  writesPerSecond: number;
}

export type RateLimitMode = 'enforce' | 'report' | 'off';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the current window resets (X-RateLimit-Reset). */
  resetSeconds: number;
}

const WINDOW_MS = 1000;
// Any part of a one-second window left, rounded up to whole seconds, is one second.
const RESET_SECONDS = 1;
// Windows of past seconds are swept when the map has doubled since the last sweep, so many
// distinct keys (or garbage tokens) cost O(1) per request on average and memory stays bounded.
const FIRST_SWEEP_AT = 10_000;

export class RateLimiter {
  private windows = new Map<string, { start: number; count: number }>();
  private sweepAt = FIRST_SWEEP_AT;

  constructor(
    private readonly limits: RateLimits,
    private readonly mode: RateLimitMode,
    private readonly clock: () => number,
  ) {}

  consume(bucket: string, kind: 'read' | 'write'): RateDecision {
    const limit = kind === 'write' ? this.limits.writesPerSecond : this.limits.readsPerSecond;
    if (this.mode === 'off') return { allowed: true, limit, remaining: limit, resetSeconds: RESET_SECONDS };
    const start = Math.floor(this.clock() / WINDOW_MS) * WINDOW_MS;
    const id = `${kind}\u0000${bucket}`;
    let window = this.windows.get(id);
    if (!window || window.start !== start) {
      if (this.windows.size >= this.sweepAt) this.sweep(start);
      window = { start, count: 0 };
      this.windows.set(id, window);
    }
    if (window.count >= limit)
      return { allowed: this.mode === 'report', limit, remaining: 0, resetSeconds: RESET_SECONDS };
    window.count++;
    return { allowed: true, limit, remaining: limit - window.count, resetSeconds: RESET_SECONDS };
  }

  reset(): void {
    this.windows.clear();
    this.sweepAt = FIRST_SWEEP_AT;
  }

  private sweep(currentStart: number): void {
    for (const [id, window] of this.windows) if (window.start < currentStart) this.windows.delete(id);
    this.sweepAt = Math.max(FIRST_SWEEP_AT, this.windows.size * 2);
  }
}
