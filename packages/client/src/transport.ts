import { SvcConnectionError, SvcTimeoutError } from './errors.js';
import { HEADERS } from './generated/contract.js';
import { chooseIdempotencyKey, isWriteMethod, wasReplayed } from './idempotency.js';
import { type ClientLog, redactHeaders } from './logging.js';
import type { Pacer } from './pacer.js';
import { isRetryableStatus, type RetryHints, type RetryPolicy, readRetryHints, retryDelay } from './retry.js';
import { type AttemptClock, DeadlineClock, sleep } from './timeout.js';

/** A fetch that takes a Request (what openapi-fetch calls). */
export type FetchLike = (request: Request) => Promise<Response>;

/** Sends one attempt: the Request, and the signal that ends the attempt (timeout or caller). */
export type SendAttempt = (request: Request, signal: AbortSignal) => Promise<Response>;

/**
 * How attempts are sent. With the global fetch, the attempt's signal goes in fetch's init: fetch
 * copies the Request anyway, and a Request made with a signal costs about 15 µs more than one
 * without (on Node 20: the listener, weak reference and finalizer undici sets up per signal), so
 * the signal is never put on a Request of our own. A caller's `fetch` takes only a Request, so it
 * gets one carrying the signal.
 */
export function sendWith(fetch: FetchLike | undefined): SendAttempt {
  if (fetch) return (request, signal) => fetch(new Request(request, { signal }));
  // Resolved per call, not captured here, so that a fetch patched in later (tests, polyfills) is used.
  return (request, signal) => globalThis.fetch(request, { signal });
}

/** What one client's transport is built with. */
export interface TransportSettings {
  apiKey: string;
  send: SendAttempt;
  /** Paces every attempt, retries included; `undefined` when client-side limiting is off. */
  pacer: Pacer | undefined;
  autoIdempotencyKeys: boolean;
  retry: Omit<RetryPolicy, 'maxRetries'>;
  log: ClientLog;
}

/** The options of one call, and what the transport learnt while sending it. */
export interface CallState {
  maxRetries: number;
  timeoutMs: number;
  /** Whether the Request carries an Authorization header whatever happened above the transport (the key rides in openapi-fetch's base headers when no middleware is registered). */
  authorizationOnRequest?: boolean | undefined;
  /** The caller's own signal, if any. */
  callerSignal?: AbortSignal | undefined;
  requestId?: string | undefined;
  idempotencyKey?: string | false | undefined;
  /** This call's own `fetch` option, if any. */
  send?: SendAttempt | undefined;
  /** The key the call was sent with (the same on every attempt). */
  sentIdempotencyKey?: string | undefined;
  /** The clock of the latest attempt: it keeps running while openapi-fetch reads the body. */
  timer?: AttemptClock | undefined;
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
 * which middleware cannot do (openapi-ts#1558). The headers only the wire may see (the key, the
 * idempotency key, the request id) are decided once, before the first attempt.
 *
 * This runs on every call, so the first attempt costs as little as the Fetch API allows: it sends
 * openapi-fetch's own Request, with the wire headers added for the duration of the `fetch` call
 * and removed before the response goes back up, so that middleware never sees the key; the
 * attempt's signal goes beside it (see {@link sendWith}); no log event is built without a logger.
 * A retry sends a new Request, from a copy of the body kept before the first attempt (a body can
 * be read only once).
 */
export function createTransport(settings: TransportSettings) {
  const { log } = settings;
  const deadlines = new DeadlineClock();

  return async function send(request: Request, call: CallState): Promise<Response> {
    const method = request.method;
    const url = request.url;
    const original = request.headers;
    const isWrite = isWriteMethod(method);
    // Each header is looked up once (a Headers lookup validates and lowercases its name), and the
    // list of headers to add exists only when there is one.
    const headerRequestId = original.get(HEADERS.requestId);
    const headerKey = original.get(HEADERS.idempotencyKey);
    let wireHeaders: Array<[string, string]> | undefined;
    // A caller's own Authorization header wins, which lets one client act for several teams.
    if (!call.authorizationOnRequest && !original.has('Authorization'))
      (wireHeaders ??= []).push(['Authorization', `Api-Key ${settings.apiKey}`]);
    if (call.requestId && headerRequestId === null) (wireHeaders ??= []).push([HEADERS.requestId, call.requestId]);
    const idempotencyKey = chooseIdempotencyKey(isWrite, headerKey, call.idempotencyKey, settings.autoIdempotencyKeys);
    if (idempotencyKey && headerKey === null) (wireHeaders ??= []).push([HEADERS.idempotencyKey, idempotencyKey]);
    call.sentIdempotencyKey = idempotencyKey;
    const sentRequestId = headerRequestId ?? call.requestId;

    const { callerSignal } = call;
    const { pacer } = settings;
    const sendAttempt = call.send ?? settings.send;
    // A retry needs the body again, and the first attempt consumes it.
    const spareBody = request.body !== null && call.maxRetries > 0 ? request.clone() : undefined;

    for (let attempt = 1; ; attempt++) {
      const release = pacer && (await pacer.acquire(isWrite ? 'write' : 'read', callerSignal));
      const wire = attempt === 1 ? request : new Request(spareBody?.clone() ?? request);
      const timer = deadlines.start(callerSignal, call.timeoutMs);
      call.timer = timer;
      call.wire = wire;
      if (wireHeaders) for (const [name, value] of wireHeaders) wire.headers.set(name, value);
      if (log.enabled) log.emit({ type: 'request', method, url, attempt, headers: redactHeaders(wire.headers) });
      const started = log.enabled ? Date.now() : 0;

      let response: Response | undefined;
      let failure: Error | undefined;
      try {
        response = await sendAttempt(wire, timer.signal);
      } catch (error) {
        timer.clear();
        // The caller's abort is theirs to handle: rethrow its reason (an AbortError) untouched.
        if (callerSignal?.aborted) throw callerSignal.reason;
        failure = timer.timedOut
          ? new SvcTimeoutError(call.timeoutMs, sentRequestId)
          : new SvcConnectionError(error, sentRequestId);
      } finally {
        release?.();
        // openapi-fetch hands its Request to onResponse and onError middleware: without the key.
        if (wireHeaders && wire === request) for (const [name] of wireHeaders) original.delete(name);
      }
      const durationMs = log.enabled ? Date.now() - started : 0;

      let hints: RetryHints | undefined;
      if (response) {
        if (log.enabled) {
          const requestId = response.headers.get(HEADERS.requestId) ?? undefined;
          log.emit({
            type: 'response',
            method,
            url,
            attempt,
            status: response.status,
            durationMs,
            requestId,
            replayed: wasReplayed(response),
          });
        }
        if (!isRetryableStatus(response.status)) return response;
        hints = await readRetryHints(response);
      } else if (log.enabled) {
        log.emit({ type: 'error', method, url, attempt, durationMs, error: failure?.message ?? 'unknown failure' });
      }

      const delayMs = retryDelay(
        {
          retriesSoFar: attempt - 1,
          isWrite,
          hasIdempotencyKey: Boolean(idempotencyKey),
          status: response?.status,
          hints: hints ?? {},
        },
        { ...settings.retry, maxRetries: call.maxRetries },
      );
      if (delayMs === undefined) {
        if (response) return response;
        throw failure;
      }

      // Abandon this attempt: stop its clock and free its connection before waiting.
      timer.clear();
      await response?.body?.cancel().catch(() => {});
      if (log.enabled) {
        log.emit({
          type: 'retry',
          method,
          url,
          attempt: attempt + 1,
          delayMs,
          reason: response ? `status ${response.status}` : String(failure?.name),
        });
      }
      await sleep(delayMs, callerSignal);
    }
  };
}
