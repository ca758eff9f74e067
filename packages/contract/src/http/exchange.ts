// A request as the scenarios describe it, and the exchange the client returns.
import type { Operation } from '@svc/spec-runtime';
import type { TransportFailure } from './bounded-fetch.js';

/** How the request authenticates. */
export type Auth =
  | { kind: 'main' } // the run's key
  | { kind: 'none' } // no Authorization header
  | { kind: 'key'; key: string } // another key (from the config, or a made-up unknown one)
  | { kind: 'header'; value: string }; // an exact Authorization header (malformed ones)

export interface ApiRequest {
  method: string;
  /** Path with parameters already encoded, starting with /v2/api (or any path for routing probes). */
  path: string;
  query?: Record<string, string>;
  /** JSON body (serialised by the client). */
  body?: unknown;
  /** Sent verbatim instead of `body` (malformed JSON, wrong content types). */
  rawBody?: string;
  /** Content-Type of the body; defaults to application/json when there is one. */
  contentType?: string;
  auth?: Auth;
  requestId?: string;
  idempotencyKey?: string;
  /** The body cannot be parsed by any server, so even a write cannot execute (allowed without --allow-writes). */
  unparseable?: boolean;
  /** Skip the client-side rate limiter (the burst check). */
  bypassRateLimit?: boolean;
  /** Return a 429 as it is instead of waiting it out (the burst check wants to see them). */
  noRetry?: boolean;
}

export interface Exchange {
  seq: number;
  request: ApiRequest;
  url: string;
  /** The operation the request addressed, from the contract's route matching (null: none). */
  operation: Operation | null;
  status: number;
  headers: Headers;
  /** The raw response text ('' when none). */
  text: string;
  /** The parsed JSON body; undefined when there was none; the raw text when it is not JSON. */
  body: unknown;
  durationMs: number;
  /** When the request left and its response arrived (performance.now(), ms): the rate windows' order. */
  sentAt?: number;
  receivedAt?: number;
  /** Transport failure (no usable response): the message. status is 0. */
  error?: string;
  /** What the transport failure was: too slow or endless, too large, not valid HTTP, or the network. */
  failure?: TransportFailure;
}

/** The Authorization value a request sends (undefined: none); `apiKey` is the run's own key. */
function authorizationOf(auth: Auth | undefined, apiKey: string): string | undefined {
  const a = auth ?? { kind: 'main' };
  if (a.kind === 'none') return undefined;
  if (a.kind === 'header') return a.value;
  return `Api-Key ${a.kind === 'main' ? apiKey : a.key}`;
}

/** What a request sends besides its method and URL: the headers (Authorization, Content-Type, request id, idempotency key) and the body. */
export function wireOf(
  request: ApiRequest,
  apiKey: string,
  names: { requestIdHeader: string; idempotencyKeyHeader: string },
): { headers: Record<string, string>; body?: string } {
  const headers: Record<string, string> = {};
  const authorization = authorizationOf(request.auth, apiKey);
  if (authorization !== undefined) headers.Authorization = authorization;
  const body = request.rawBody ?? (request.body !== undefined ? JSON.stringify(request.body) : undefined);
  if (body !== undefined) headers['Content-Type'] = request.contentType ?? 'application/json';
  if (request.requestId !== undefined) headers[names.requestIdHeader] = request.requestId;
  if (request.idempotencyKey !== undefined) headers[names.idempotencyKeyHeader] = request.idempotencyKey;
  return body === undefined ? { headers } : { headers, body };
}

/** A response body as the checks see it: undefined when empty, the JSON value, else the raw text. */
export function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function header(exchange: Exchange, name: string): string | undefined {
  return exchange.headers.get(name) ?? undefined;
}

/** error.code of an error body, if any. */
export function errorCode(exchange: Exchange): string | undefined {
  const body = exchange.body as { error?: { code?: unknown } } | undefined;
  return typeof body?.error?.code === 'string' ? body.error.code : undefined;
}

export function errorOf(exchange: Exchange): Record<string, unknown> | undefined {
  const body = exchange.body as { error?: unknown } | undefined;
  return typeof body?.error === 'object' && body.error !== null ? (body.error as Record<string, unknown>) : undefined;
}

export function dataOf(exchange: Exchange): unknown {
  const body = exchange.body as { data?: unknown } | undefined;
  return typeof body === 'object' && body !== null ? body.data : undefined;
}

/**
 * The one resource a lookup answers where its shape is not shown (the thread of an item): `data`
 * itself, or the first entry of a `data` list (the list envelope, empty where there is none).
 */
export function lookedUpOf(exchange: Exchange): Record<string, unknown> | undefined {
  const data = dataOf(exchange);
  const one = Array.isArray(data) ? data[0] : data;
  return typeof one === 'object' && one !== null && !Array.isArray(one) ? (one as Record<string, unknown>) : undefined;
}
