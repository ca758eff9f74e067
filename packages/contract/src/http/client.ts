// The one way the suite talks to the server. Every request goes through here, which is what lets
// the suite promise four things: nothing is written without --allow-writes (the guard below),
// the server's rate limits are respected (the limiter, and 429s waited out), every response
// is recorded and checked (the recorder), and no server can hang the run or exhaust its memory
// (bounded-fetch: a time limit on each whole exchange, a cap on each body, malformed HTTP named).

import type { Pacer, RequestClass } from '@svc/api-client/pacer';
import type { Operation } from '@svc/spec-runtime';
import type { Spec } from '../spec.js';
import { WritesDisabledError } from '../stops.js';
import { boundedFetch, DEFAULT_MAX_RESPONSE_BYTES, TransportError } from './bounded-fetch.js';
import { type ApiRequest, type Exchange, parseBody, wireOf } from './exchange.js';
import { waitOut429 } from './wait-out.js';

export { WritesDisabledError } from '../stops.js';

export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  allowWrites: boolean;
  /** Time limit of each exchange as a whole: connecting, headers and the whole body. */
  timeoutMs: number;
  /** Largest response body read (default DEFAULT_MAX_RESPONSE_BYTES, 10 MiB); a larger one is a failed exchange. */
  maxResponseBytes?: number;
  /** Longest time one request may spend waiting out 429s, in all; past it the 429 goes to the scenario. */
  maxRetryWaitSeconds: number;
  spec: Spec;
  limiter: Pacer;
  /** Where every completed exchange goes to be kept and checked (the run's Recorder). */
  recorder: {
    /** A request leaves (the run's own budget counts it from here). */
    sending(seq: number, request: ApiRequest, sentAt: number): void;
    record(exchange: Exchange): void;
  };
  /** Called before each write that changes data (the session's undo ledger reads what it will change). */
  beforeWrite?: (request: ApiRequest) => Promise<void>;
}

/** After this many transport failures in a row the server is taken as unreachable. */
const UNREACHABLE_AFTER = 3;

export class ApiClient {
  private seq = 0;
  /** Consecutive transport failures, and the last one: an unreachable server fails fast. */
  private transportFailures = 0;
  private lastTransportError = '';

  constructor(private readonly options: ClientOptions) {}

  /** The operation a request addresses, by the contract's own route matching. */
  operationOf(request: Pick<ApiRequest, 'method' | 'path'>): Operation | null {
    const match = this.options.spec.contract.matchRoute(request.method, request.path.split('?')[0] as string);
    return 'operation' in match ? match.operation : null;
  }

  /** A write that could change data: a write method on an operation that is not side-effect free. */
  changesData(request: ApiRequest): boolean {
    return !request.unparseable && this.options.spec.changesData(request.method, request.path);
  }

  async send(request: ApiRequest): Promise<Exchange> {
    if (this.changesData(request)) {
      if (!this.options.allowWrites) throw new WritesDisabledError(request);
      await this.options.beforeWrite?.(request);
    }
    const exchange = await this.once(request);
    if (exchange.status !== 429 || request.noRetry) return exchange;
    // The 429 itself was recorded and checked; it is waited out within one deadline (wait-out.ts).
    return waitOut429(exchange, () => this.once(request), {
      deadlineSeconds: this.options.maxRetryWaitSeconds,
      resetHeader: this.options.spec.rateLimitHeaders.reset,
    });
  }

  private async once(request: ApiRequest): Promise<Exchange> {
    const { spec } = this.options;
    const seq = ++this.seq;
    const operation = this.operationOf(request);
    const query =
      request.query && Object.keys(request.query).length > 0 ? `?${new URLSearchParams(request.query).toString()}` : '';
    const url = `${this.options.baseUrl.replace(/\/+$/, '')}${request.path}${query}`;
    const { headers: sent, body } = wireOf(request, this.options.apiKey, spec);
    const headers = new Headers({ Accept: 'application/json', ...sent });

    const kind: RequestClass = spec.contract.limits.writeMethods.includes(request.method.toUpperCase())
      ? 'write'
      : 'read';
    const started = performance.now();
    let exchange: Exchange;
    if (this.transportFailures >= UNREACHABLE_AFTER) {
      // Every request is still recorded (as a transport failure), but none waits for a timeout again.
      exchange = unanswered(
        { seq, request, url, operation },
        0,
        new TransportError(
          'network',
          `not sent: the server did not answer ${UNREACHABLE_AFTER} requests in a row (${this.lastTransportError})`,
        ),
      );
      this.options.recorder.record(exchange);
      return exchange;
    }
    const release = request.bypassRateLimit ? () => {} : await this.options.limiter.acquire(kind);
    const sentAt = performance.now();
    this.options.recorder.sending(seq, request, sentAt);
    const bounds = {
      timeoutMs: this.options.timeoutMs,
      maxBytes: this.options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    };
    try {
      const response = await boundedFetch(
        url,
        { method: request.method, headers, ...(body !== undefined ? { body } : {}) },
        bounds,
      );
      exchange = {
        seq,
        request,
        url,
        operation,
        status: response.status,
        headers: response.headers,
        text: response.text,
        body: parseBody(response.text),
        durationMs: Math.round(performance.now() - started),
        sentAt,
        receivedAt: performance.now(),
      };
      this.transportFailures = 0;
    } catch (error) {
      const failure = error instanceof TransportError ? error : new TransportError('network', String(error));
      exchange = unanswered({ seq, request, url, operation }, Math.round(performance.now() - started), failure);
      // A server that answers too much or malformed HTTP is reachable; only silence counts here.
      if (failure.kind === 'network' || failure.kind === 'timeout') {
        this.transportFailures++;
        this.lastTransportError = failure.message;
      } else {
        this.transportFailures = 0;
      }
    } finally {
      release();
    }
    this.options.recorder.record(exchange);
    return exchange;
  }
}

/** An exchange that got no answer: recorded as a transport failure of its kind. */
function unanswered(
  sent: Pick<Exchange, 'seq' | 'request' | 'url' | 'operation'>,
  durationMs: number,
  failure: TransportError,
): Exchange {
  const nothing = { status: 0, headers: new Headers(), text: '', body: undefined };
  return { ...sent, ...nothing, durationMs, error: failure.message, failure: failure.kind };
}
