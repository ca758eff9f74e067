import { CONTRACT_RATE_LIMITS, WRITE_METHODS } from './generated/contract.js';

/** Client-side rate limits, per request class. The defaults are the contract's (`info['x-svc-limits']`). */
export interface SvcRateLimitOptions {
  /** GET requests per second (default: the contract's read limit). */
  readsPerSecond?: number | undefined;
  /** POST, PUT, PATCH and DELETE requests per second (default: the contract's write limit). */
  writesPerSecond?: number | undefined;
}

/** Hands out permission to send one request; the returned function gives the token back. */
export interface RateLimiter {
  acquire(signal?: AbortSignal): Promise<() => void>;
}

/**
 * A token bucket of `perSecond` tokens whose spent tokens come back one window (one second)
 * after the request that spent them got its answer.
 *
 * Why not the textbook bucket that refills continuously: it lets a full bucket plus a second of
 * refill through in the same second (up to twice the limit), so a burst after a quiet spell
 * earns a 429. Returning each token a full window after the *response* also covers what the
 * client cannot see: the server counts arrivals, and a request arrives before its response, so
 * however the network delays or bunches requests, no one-second span on the server ever holds
 * more than `perSecond` of them. A burst of up to `perSecond` still goes out at once.
 */
/**
 * Added to every window. Timers fire on the event loop's cached, millisecond-truncated clock, so
 * a 1000 ms timeout can end a fraction of a millisecond early by the server's clock, which puts
 * one request too many into a strict one-second window (seen on Node 26). 25 ms costs 2.5%.
 */
export const WINDOW_MARGIN_MS = 25;

export function createRateLimiter(perSecond: number): RateLimiter {
  if (!(perSecond > 0)) throw new RangeError(`A rate limit must be positive, got ${perSecond}`);
  // Fractional rates (0.5/s) become one token over a longer window.
  const capacity = Math.max(1, Math.floor(perSecond));
  const windowMs = (capacity / perSecond) * 1000 + WINDOW_MARGIN_MS;
  let available = capacity;
  const waiting: Array<() => void> = [];

  const giveBack = () =>
    setTimeout(() => {
      const next = waiting.shift();
      if (next) next();
      else available++;
    }, windowMs);

  const grant = () => {
    let released = false;
    return () => {
      if (!released) {
        released = true;
        giveBack();
      }
    };
  };

  return {
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      if (available > 0) {
        available--;
        return Promise.resolve(grant());
      }
      return new Promise((resolve, reject) => {
        const onAbort = () => {
          waiting.splice(waiting.indexOf(take), 1);
          reject(signal?.reason);
        };
        const take = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(grant());
        };
        waiting.push(take);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
}

/** The two buckets of one client: reads and writes never wait for each other. */
export interface RateLimiters {
  forMethod(method: string): RateLimiter | undefined;
}

/** Builds a client's buckets; `false` turns client-side limiting off. */
export function createRateLimiters(options: SvcRateLimitOptions | false | undefined): RateLimiters {
  if (options === false) return { forMethod: () => undefined };
  const reads = createRateLimiter(options?.readsPerSecond ?? CONTRACT_RATE_LIMITS.readsPerSecond);
  const writes = createRateLimiter(options?.writesPerSecond ?? CONTRACT_RATE_LIMITS.writesPerSecond);
  // The contract counts POST, PUT, PATCH and DELETE as writes; everything else (GET) as a read.
  return { forMethod: (method) => (WRITE_METHODS.includes(method) ? writes : reads) };
}
