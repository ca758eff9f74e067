import { boundErrorBody } from './error-body.js';
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
  const deadlines = new DeadlineClock();

  return async function send(request: Request, call: CallState): Promise<Response> {
    const wire = wireOf(request, call, settings);
    call.sentIdempotencyKey = wire.idempotencyKey;
    // A retry needs the body again, and the first attempt consumes it.
    const spareBody = request.body !== null && call.maxRetries > 0 ? request.clone() : undefined;

    for (let attempt = 1; ; attempt++) {
      const sent = await sendAttempt(settings, deadlines, call, wire, attempt, spareBody);
      const { response, failure } = sent;
      let hints: RetryHints | undefined;
      if (response) {
        if (!isRetryableStatus(response.status)) return response;
        hints = await readRetryHints(response);
      }
      const delayMs = retryDelay(
        {
          retriesSoFar: attempt - 1,
          isWrite: wire.isWrite,
          hasIdempotencyKey: Boolean(wire.idempotencyKey),
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
      sent.timer.clear();
      await response?.body?.cancel().catch(() => {});
      if (settings.log.enabled) {
        const reason = response ? `status ${response.status}` : String(failure?.name);
        settings.log.emit({ type: 'retry', method: wire.method, url: wire.url, attempt: attempt + 1, delayMs, reason });
      }
      await sleep(delayMs, call.callerSignal);
    }
  };
}

/** What every attempt of one call sends alike. */
interface Wire {
  request: Request;
  method: string;
  url: string;
  isWrite: boolean;
  /** The headers only the wire may see, added for each attempt (undefined: none to add). */
  headers: Array<[string, string]> | undefined;
  idempotencyKey: string | undefined;
  /** The request id the service is asked to use, if any (for the errors' messages). */
  sentRequestId: string | undefined;
}

function withHeader(list: Array<[string, string]> | undefined, name: string, value: string): Array<[string, string]> {
  const headers = list ?? [];
  headers.push([name, value]);
  return headers;
}

/** The headers only the wire may see (the key, the idempotency key, the request id), decided once per call. */
function wireOf(request: Request, call: CallState, settings: TransportSettings): Wire {
  const original = request.headers;
  const isWrite = isWriteMethod(request.method);
  // Each header is looked up once (a Headers lookup validates and lowercases its name), and the
  // list of headers to add exists only when there is one.
  const headerRequestId = original.get(HEADERS.requestId);
  const headerKey = original.get(HEADERS.idempotencyKey);
  let headers: Array<[string, string]> | undefined;
  // A caller's own Authorization header wins, which lets one client act for several teams.
  if (!call.authorizationOnRequest && !original.has('Authorization'))
    headers = withHeader(headers, 'Authorization', `Api-Key ${settings.apiKey}`);
  if (call.requestId && headerRequestId === null) headers = withHeader(headers, HEADERS.requestId, call.requestId);
  const idempotencyKey = chooseIdempotencyKey(isWrite, headerKey, call.idempotencyKey, settings.autoIdempotencyKeys);
  if (idempotencyKey && headerKey === null) headers = withHeader(headers, HEADERS.idempotencyKey, idempotencyKey);
  return {
    request,
    method: request.method,
    url: request.url,
    isWrite,
    headers,
    idempotencyKey,
    sentRequestId: headerRequestId ?? call.requestId,
  };
}

/** One attempt's end: a response, or the failure to get one (a timeout or the connection's). */
interface Sent {
  response?: Response;
  failure?: Error;
  timer: AttemptClock;
}

/** Sends one attempt, paced and under its own clock; a caller's abort is rethrown as it is. */
async function sendAttempt(
  settings: TransportSettings,
  deadlines: DeadlineClock,
  call: CallState,
  wire: Wire,
  attempt: number,
  spareBody: Request | undefined,
): Promise<Sent> {
  const { log, pacer } = settings;
  const { callerSignal } = call;
  const release = pacer && (await pacer.acquire(wire.isWrite ? 'write' : 'read', callerSignal));
  const request = attempt === 1 ? wire.request : new Request(spareBody?.clone() ?? wire.request);
  const timer = deadlines.start(callerSignal, call.timeoutMs);
  call.timer = timer;
  call.wire = request;
  if (wire.headers) for (const [name, value] of wire.headers) request.headers.set(name, value);
  if (log.enabled)
    log.emit({ type: 'request', method: wire.method, url: wire.url, attempt, headers: redactHeaders(request.headers) });
  const started = log.enabled ? Date.now() : 0;
  let sent: Sent;
  try {
    // An error's body is read here, within its bound and the attempt's clock (see error-body.ts).
    sent = { response: await boundErrorBody(await (call.send ?? settings.send)(request, timer.signal)), timer };
  } catch (error) {
    timer.clear();
    // The caller's abort is theirs to handle: rethrow its reason (an AbortError) untouched.
    if (callerSignal?.aborted) throw callerSignal.reason;
    const failure = timer.timedOut
      ? new SvcTimeoutError(call.timeoutMs, wire.sentRequestId)
      : new SvcConnectionError(error, wire.sentRequestId);
    sent = { failure, timer };
  } finally {
    release?.();
    // openapi-fetch hands its Request to onResponse and onError middleware: without the key.
    if (wire.headers && request === wire.request) for (const [name] of wire.headers) request.headers.delete(name);
  }
  if (log.enabled) logAttempt(log, wire, attempt, sent, Date.now() - started);
  return sent;
}

function logAttempt(log: ClientLog, wire: Wire, attempt: number, sent: Sent, durationMs: number): void {
  const { method, url } = wire;
  const { response, failure } = sent;
  if (response) {
    const requestId = response.headers.get(HEADERS.requestId) ?? undefined;
    const replayed = wasReplayed(response);
    log.emit({ type: 'response', method, url, attempt, status: response.status, durationMs, requestId, replayed });
  } else {
    log.emit({ type: 'error', method, url, attempt, durationMs, error: failure?.message ?? 'unknown failure' });
  }
}
