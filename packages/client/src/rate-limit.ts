import { CONTRACT_RATE_LIMITS } from './generated/contract.js';
import { createPacer, type Pacer } from './pacer.js';

/** Client-side rate limits, per request class. The defaults are the contract's (`info['x-svc-limits']`). */
export interface SvcRateLimitOptions {
  /** GET requests per second (default: the contract's read limit). */
  readsPerSecond?: number | undefined;
  /** POST, PUT, PATCH and DELETE requests per second (default: the contract's write limit). */
  writesPerSecond?: number | undefined;
}

/** The client's pacer (see `@svc/api-client/pacer`); `undefined` when client-side limiting is off. */
export function pacerFor(options: SvcRateLimitOptions | false | undefined): Pacer | undefined {
  if (options === false) return undefined;
  return createPacer({
    readsPerSecond: options?.readsPerSecond ?? CONTRACT_RATE_LIMITS.readsPerSecond,
    writesPerSecond: options?.writesPerSecond ?? CONTRACT_RATE_LIMITS.writesPerSecond,
  });
}
