// A 429 waited out: the same request sent again after as long as the server asks, as many times
// as it takes, within one deadline per request (the session's maxRetryWaitSeconds, 60 s unless
// told). Several jobs sharing one key meet 429s again and again; a fixed count of retries failed
// them for the server's ordinary answer, a deadline does not.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Exchange } from './exchange.js';

export interface WaitOutOptions {
  /** The longest this request may spend waiting on 429s, in all. */
  deadlineSeconds: number;
  /** The name of the header counting the seconds to the window's reset (X-RateLimit-Reset). */
  resetHeader: string;
  /** Injected in tests. */
  now?: () => number;
  pause?: (ms: number) => Promise<unknown>;
}

/** Seconds of a Retry-After header: delta-seconds or an HTTP date (RFC 9110 10.2.3). */
function retryAfterHeader(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d{1,9}$/.test(trimmed)) return Number(trimmed);
  const at = trimmed.length <= 64 ? Date.parse(trimmed) : Number.NaN;
  return Number.isFinite(at) ? Math.max(0, (at - now) / 1000) : undefined;
}

/** How long a 429 asks to wait: retry_after_seconds, else Retry-After, else the window's reset, else a second. */
export function retryAfterSeconds(exchange: Exchange, resetHeader: string, now = Date.now()): number {
  const error = (exchange.body as { error?: { retry_after_seconds?: unknown } } | undefined)?.error;
  const stated = error?.retry_after_seconds;
  if (typeof stated === 'number' && Number.isFinite(stated) && stated >= 0) return stated;
  const header = retryAfterHeader(exchange.headers.get('retry-after'), now);
  if (header !== undefined) return header;
  const resetValue = exchange.headers.get(resetHeader);
  const reset = resetValue === null || resetValue.trim() === '' ? Number.NaN : Number(resetValue);
  return Number.isFinite(reset) && reset >= 0 && reset < 3600 ? reset : 1;
}

/**
 * Sends `again` after each 429 for as long as the server asks, until an answer that is not a 429
 * or until the next wait would pass the deadline; then returns the last answer (every one of them
 * was recorded and checked by the client).
 */
export async function waitOut429(
  first: Exchange,
  again: () => Promise<Exchange>,
  options: WaitOutOptions,
): Promise<Exchange> {
  const now = options.now ?? Date.now;
  const pause = options.pause ?? sleep;
  const deadline = now() + options.deadlineSeconds * 1000;
  let exchange = first;
  while (exchange.status === 429) {
    // A floor, so that a server answering 0 is not asked again in a tight loop.
    const waitMs = Math.max(retryAfterSeconds(exchange, options.resetHeader, now()), 0.05) * 1000;
    if (now() + waitMs > deadline) break;
    await pause(waitMs);
    exchange = await again();
  }
  return exchange;
}
