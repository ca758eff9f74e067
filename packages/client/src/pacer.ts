/**
 * `@svc/api-client/pacer`: the token pacer of every client of the API (this client and the
 * contract tests), on its own entry so that its users do not load the client.
 *
 * @packageDocumentation
 */
import type { TimerHandle } from './timeout.js';

/** The contract limits reads and writes separately; each class has its own tokens. */
export type RequestClass = 'read' | 'write';

/** Requests per second per class (the contract's are in `info['x-svc-limits']`). */
export interface PacerLimits {
  readsPerSecond: number;
  writesPerSecond: number;
}

/** Gives the token back: call it once the response has arrived (or the attempt failed). Later calls do nothing. */
export type Release = () => void;

/** Hands out permission to send one request of a class. */
export interface Pacer {
  /** Waits for a token of `kind`; an abort of `signal` ends the wait with the signal's reason. */
  acquire(kind: RequestClass, signal?: AbortSignal): Promise<Release>;
}

/**
 * Added to every window. Timers fire on the event loop's cached, millisecond-truncated clock, so
 * a 1000 ms timeout can end a fraction of a millisecond early by the server's clock, which puts
 * one request too many into a strict one-second window (seen on Node 26). 25 ms costs 2.5%.
 */
export const WINDOW_MARGIN_MS = 25;

/**
 * Paces requests to `limits`: per class, a bucket of `perSecond` tokens whose spent tokens come
 * back one window (one second and {@link WINDOW_MARGIN_MS}) after the request that spent them got
 * its answer.
 *
 * Why not the textbook bucket that refills continuously: it lets a full bucket plus a second of
 * refill through in the same second (up to twice the limit), so a burst after a quiet spell
 * earns a 429. Returning each token a full window after the *response* also covers what the
 * caller cannot see: the server counts arrivals, and a request arrives before its response, so
 * however the network delays or bunches requests, no one-second span on the server ever holds
 * more than `perSecond` of them, for fixed and sliding windows alike: the pacer itself never
 * provokes a 429. A burst of up to `perSecond` still goes out at once; reads and writes never
 * wait for each other.
 */
export function createPacer(limits: PacerLimits): Pacer {
  const buckets = { read: createBucket(limits.readsPerSecond), write: createBucket(limits.writesPerSecond) };
  return { acquire: (kind, signal) => buckets[kind](signal) };
}

/** A pacer that never waits (limiting turned off, benchmarks). */
export const unpaced: Pacer = {
  acquire: (_kind, signal) => (signal?.aborted ? Promise.reject(signal.reason) : Promise.resolve(() => {})),
};

function createBucket(perSecond: number): (signal?: AbortSignal) => Promise<Release> {
  if (!(perSecond > 0)) throw new RangeError(`A rate limit must be positive, got ${perSecond}`);
  // Fractional rates (0.5/s) become one token over a longer window.
  const capacity = Math.max(1, Math.floor(perSecond));
  const windowMs = (capacity / perSecond) * 1000 + WINDOW_MARGIN_MS;
  let available = capacity;
  const waiting: Array<() => void> = [];
  // Tokens on their way back matter only to a request that waits for one: until one waits, their
  // timers must not keep the process alive (a script would linger a window at its exit).
  const returning = new Set<TimerHandle>();

  const giveBack = () => {
    const timer: TimerHandle = setTimeout(() => {
      returning.delete(timer);
      const next = waiting.shift();
      if (next) next();
      else available++;
    }, windowMs);
    returning.add(timer);
    if (waiting.length === 0) timer.unref?.();
  };

  const grant = (): Release => {
    let released = false;
    return () => {
      if (!released) {
        released = true;
        giveBack();
      }
    };
  };

  return (signal) => {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (available > 0) {
      available--;
      return Promise.resolve(grant());
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const index = waiting.indexOf(take);
        if (index >= 0) waiting.splice(index, 1);
        reject(signal?.reason);
      };
      const take = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve(grant());
      };
      waiting.push(take);
      for (const timer of returning) timer.ref?.();
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  };
}
