// Client-side rate limiting, so the suite stays polite to a rate-limited server: at most N
// requests of a class per second, where a slot becomes free one second after the *response* of
// the request that used it. Measured that way the budget holds on the server's clock whatever
// the network adds, for fixed windows and sliding ones alike, so the suite itself never provokes
// a 429 (a 429 can still come from other clients of the same key; the client waits those out).

export type RequestClass = 'read' | 'write';

export class RateLimiter {
  private readonly free: Record<RequestClass, number>;
  private readonly waiting: Record<RequestClass, Array<() => void>> = { read: [], write: [] };

  constructor(limits: { readsPerSecond: number; writesPerSecond: number }, private readonly windowMs = 1000) {
    this.free = { read: Math.max(1, Math.floor(limits.readsPerSecond)), write: Math.max(1, Math.floor(limits.writesPerSecond)) };
  }

  /** Waits for a slot; call the returned function when the response has arrived. */
  async acquire(kind: RequestClass): Promise<() => void> {
    if (this.free[kind] > 0) this.free[kind]--;
    else await new Promise<void>((resolve) => this.waiting[kind].push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      setTimeout(() => this.hand(kind), this.windowMs);
    };
  }

  /** A slot came back: give it to the next waiter, or keep it. */
  private hand(kind: RequestClass): void {
    const next = this.waiting[kind].shift();
    if (next) next();
    else this.free[kind]++;
  }
}

/** No limiting at all (--rate off, benchmarks). */
export const unlimited = { acquire: async (_kind: RequestClass) => () => {} };

export type Limiter = Pick<RateLimiter, 'acquire'>;
