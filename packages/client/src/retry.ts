import { HEADERS } from './generated/contract.js';

/** How a client retries. */
export interface RetryPolicy {
  /** Retries after the first attempt (so `maxRetries + 1` attempts at most). */
  maxRetries: number;
  /** The first backoff step; each retry doubles it (before jitter). */
  baseDelayMs: number;
  /** No wait is ever longer than this. A server asking for more is not retried (see {@link retryDelay}). */
  maxDelayMs: number;
}

/** What the client learnt from a 429 or 5xx response that bears on retrying. */
export interface RetryHints {
  /** `error.retryable` of the body, when present. */
  retryable?: boolean;
  /** `error.retry_after_seconds` of the body, when a number. */
  retryAfterSeconds?: number;
  /** `X-RateLimit-Reset`, read as seconds to wait (see {@link readRetryHints}). */
  resetSeconds?: number;
}

/** One finished attempt, as far as the retry decision is concerned. */
export interface AttemptOutcome {
  /** Retries already made before this attempt: 0 after the first attempt. */
  retriesSoFar: number;
  /** A write is only retried when it carries an Idempotency-Key. */
  isWrite: boolean;
  hasIdempotencyKey: boolean;
  /** The HTTP status, or `undefined` when no response arrived (network failure or timeout). */
  status: number | undefined;
  hints: RetryHints;
}

/** Whether a status is one the client may retry: 429 and every 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/**
 * How long to wait before retrying, or `undefined` not to retry.
 *
 * - Never past `maxRetries`, never a write without an Idempotency-Key (it might run twice), never
 *   an error whose body says `retryable: false`, never a status other than 429 or 5xx.
 * - A 429 waits what the server asks: `retry_after_seconds`, else `X-RateLimit-Reset`. When that
 *   is longer than `maxDelayMs` the client gives up at once and returns the 429 (with
 *   `retryAfterSeconds`) instead of retrying early into another 429 or blocking for an hour.
 * - Everything else backs off exponentially with full jitter: a uniform wait in
 *   `[0, min(maxDelayMs, baseDelayMs * 2^retriesSoFar))`, which spreads clients that failed together.
 */
export function retryDelay(
  outcome: AttemptOutcome,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number | undefined {
  if (outcome.retriesSoFar >= policy.maxRetries) return undefined;
  if (outcome.isWrite && !outcome.hasIdempotencyKey) return undefined;
  const { status, hints } = outcome;
  if (status !== undefined && !isRetryableStatus(status)) return undefined;
  if (hints.retryable === false) return undefined;
  if (status === 429) {
    const askedSeconds = hints.retryAfterSeconds ?? hints.resetSeconds;
    if (askedSeconds !== undefined) {
      const askedMs = askedSeconds * 1000;
      return askedMs <= policy.maxDelayMs ? askedMs : undefined;
    }
  }
  return Math.floor(random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** outcome.retriesSoFar));
}

/**
 * Reads the retry hints of a 429 or 5xx response from a clone, leaving the original body for
 * openapi-fetch to parse.
 *
 * `X-RateLimit-Reset`: the contract leaves its unit unspecified (seconds until the reset, or a
 * Unix time). The client reads it as seconds to wait, the reading under which a small number
 * makes sense; were it an epoch time, the wait would exceed `maxDelayMs` and the client would
 * simply not retry, which is safe.
 */
export async function readRetryHints(response: Response): Promise<RetryHints> {
  const hints: RetryHints = {};
  const reset = Number(response.headers.get(HEADERS.rateLimitReset) ?? Number.NaN);
  if (Number.isFinite(reset) && reset >= 0) hints.resetSeconds = reset;
  try {
    const body: unknown = JSON.parse(await response.clone().text());
    const error = (body as { error?: { retryable?: unknown; retry_after_seconds?: unknown } } | null)?.error;
    if (typeof error?.retryable === 'boolean') hints.retryable = error.retryable;
    if (typeof error?.retry_after_seconds === 'number' && error.retry_after_seconds >= 0) {
      hints.retryAfterSeconds = error.retry_after_seconds;
    }
  } catch {
    // Not JSON (a gateway's page, say) or the body could not be read: decide on the status alone.
  }
  return hints;
}
