import { SvcConnectionError, SvcTimeoutError } from './errors.js';
import { chooseIdempotencyKey, isWriteMethod, wasReplayed } from './idempotency.js';
import { type EmitLog, redactHeaders } from './logging.js';
import type { RateLimiters } from './rate-limit.js';
import { type RetryHints, type RetryPolicy, isRetryableStatus, readRetryHints, retryDelay } from './retry.js';
import { type AttemptTimer, sleep, startAttemptTimer } from './timeout.js';

/** A fetch that takes a Request (what openapi-fetch calls). */
export type FetchLike = (request: Request) => Promise<Response>;

/** What one client's transport is built with. */
export interface TransportSettings {
  apiKey: string;
  fetch: FetchLike;
  limiters: RateLimiters;
  autoIdempotencyKeys: boolean;
  retry: Omit<RetryPolicy, 'maxRetries'>;
  log: EmitLog;
}

/** The options of one call, and what the transport learnt while sending it. */
export interface CallState {
  maxRetries: number;
  timeoutMs: number;
  requestId?: string | undefined;
  idempotencyKey?: string | false | undefined;
  fetch?: FetchLike | undefined;
  /** The key the call was sent with (the same on every attempt). */
  sentIdempotencyKey?: string | undefined;
  /** The clock of the latest attempt: it keeps running while openapi-fetch reads the body. */
  timer?: AttemptTimer | undefined;
  /**
   * The Request of the latest attempt, held until the call ends. Node's fetch (undici) links a
   * Request's abort signal to the one it copies through weak references: were this Request
   * collected while the response is awaited or read, neither a timeout nor a caller abort would
   * reach the socket any more (seen in practice under GC pressure).
   */
  wire?: Request | undefined;
}

/**
 * The custom `fetch` under openapi-fetch's middleware: everything that concerns the wire.
 *
 * It runs once per call, after the middleware chain, and may send the request several times,
 * which middleware cannot do (openapi-ts#1558): the Request is completed (auth, idempotency key,
 * request id) and frozen as a template *before* the first attempt, and each attempt sends a
 * fresh clone of it, since a body can be read only once.
 */
export function createTransport(settings: TransportSettings) {
  const { log } = settings;

  return async function send(request: Request, call: CallState): Promise<Response> {
    const method = request.method;
    const url = request.url;
    const headers = new Headers(request.headers);
    // Below the middleware, so no middleware (nor anything it logs) ever sees the key. A caller's
    // own Authorization header wins, which lets one client act for several teams.
    if (!headers.has('Authorization')) headers.set('Authorization', `Api-Key ${settings.apiKey}`);
    if (call.requestId && !headers.has('X-Request-Id')) headers.set('X-Request-Id', call.requestId);
    const idempotencyKey = chooseIdempotencyKey(method, headers.get('Idempotency-Key'), call.idempotencyKey, settings.autoIdempotencyKeys);
    if (idempotencyKey) headers.set('Idempotency-Key', idempotencyKey);
    call.sentIdempotencyKey = idempotencyKey;
    const sentRequestId = headers.get('X-Request-Id') ?? undefined;

    const template = new Request(request, { headers });
    const callerSignal = request.signal;
    const limiter = settings.limiters.forMethod(method);
    const baseFetch = call.fetch ?? settings.fetch;
    const policy: RetryPolicy = { ...settings.retry, maxRetries: call.maxRetries };

    for (let attempt = 0; ; attempt++) {
      const release = await limiter?.acquire(callerSignal);
      const timer = startAttemptTimer(callerSignal, call.timeoutMs);
      call.timer = timer;
      log({ type: 'request', method, url, attempt, headers: redactHeaders(headers) });
      const started = Date.now();

      let response: Response | undefined;
      let failure: Error | undefined;
      try {
        call.wire = new Request(template.clone(), { signal: timer.signal });
        response = await baseFetch(call.wire);
      } catch (error) {
        timer.clear();
        // The caller's abort is theirs to handle: rethrow its reason (an AbortError) untouched.
        if (callerSignal.aborted) throw callerSignal.reason;
        failure = timer.timedOut ? new SvcTimeoutError(call.timeoutMs, sentRequestId) : new SvcConnectionError(error, sentRequestId);
      } finally {
        release?.();
      }
      const durationMs = Date.now() - started;

      let hints: RetryHints = {};
      if (response) {
        const requestId = response.headers.get('X-Request-Id') ?? undefined;
        log({ type: 'response', method, url, attempt, status: response.status, durationMs, requestId, replayed: wasReplayed(response) });
        if (!isRetryableStatus(response.status)) return response;
        hints = await readRetryHints(response);
      } else {
        log({ type: 'error', method, url, attempt, durationMs, error: failure?.message ?? 'unknown failure' });
      }

      const delayMs = retryDelay(
        { attempt, isWrite: isWriteMethod(method), hasIdempotencyKey: Boolean(idempotencyKey), status: response?.status, hints },
        policy,
      );
      if (delayMs === undefined) {
        if (response) return response;
        throw failure;
      }

      // Abandon this attempt: stop its clock and free its connection before waiting.
      timer.clear();
      await response?.body?.cancel().catch(() => {});
      log({ type: 'retry', method, url, attempt: attempt + 1, delayMs, reason: response ? `status ${response.status}` : String(failure?.name) });
      await sleep(delayMs, callerSignal);
    }
  };
}
