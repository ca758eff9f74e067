import type { paths } from '@svc/api-types';
import type { HeadersOptions, Middleware } from 'openapi-fetch';
import createClient from 'openapi-fetch';
import { SvcApiError, SvcError, SvcTimeoutError } from './errors.js';
import { createLog, type SvcLogEvent, type SvcLogger } from './logging.js';
import { type ListCall, paginateItems, paginatePages } from './pagination.js';
import { pacerFor, type SvcRateLimitOptions } from './rate-limit.js';
import { withMeta } from './result.js';
import { type CallState, createTransport, type FetchLike, sendWith } from './transport.js';
import type {
  InitArgument,
  SvcListItem,
  SvcListPath,
  SvcMethod,
  SvcPage,
  SvcPaginateOptions,
  SvcRequestOptions,
} from './types.js';

/**
 * Options of {@link createSvcClient}. Every optional option also accepts `undefined`, which means
 * the default, so `apiKey: process.env.SVC_API_KEY` type-checks under `exactOptionalPropertyTypes`.
 */
export interface SvcClientOptions {
  /** The service's address, e.g. `https://api.example.com` (the contract names none; paths start with `/v2/api`). */
  baseUrl: string;
  /** The API key, sent as `Authorization: Api-Key <key>`. Default: the `SVC_API_KEY` environment variable. */
  apiKey?: string | undefined;
  /** Retries after a 429, a 5xx or a network failure (default 2). Writes are retried only with an Idempotency-Key. */
  maxRetries?: number | undefined;
  /** First step of the exponential backoff, in milliseconds (default 500). */
  retryBaseDelayMs?: number | undefined;
  /** Longest wait between attempts, in milliseconds (default 60 000); a 429 asking for longer is returned, not retried. */
  maxRetryDelayMs?: number | undefined;
  /** Time limit of each attempt, in milliseconds (default 30 000; 0 for none). */
  timeoutMs?: number | undefined;
  /** Client-side rate limits (default: the contract's, 20 reads and 5 writes per second); `false` turns them off. */
  rateLimit?: SvcRateLimitOptions | false | undefined;
  /** Give every POST, PUT, PATCH and DELETE a fresh `Idempotency-Key` unless it has one (default true). */
  autoIdempotencyKeys?: boolean | undefined;
  /** Throw {@link SvcApiError} instead of returning `{ error }`; results then always carry `data` (default false). */
  throwOnError?: boolean | undefined;
  /** Headers sent with every request (e.g. `User-Agent`). */
  headers?: HeadersOptions | undefined;
  /** A console-like logger for request, response, retry and error events (`console` works). The key is always redacted. */
  logger?: SvcLogger | undefined;
  /** Called with every log event (the key is always redacted). */
  onLog?: ((event: SvcLogEvent) => void) | undefined;
  /** The fetch to send requests with (default: the global `fetch`). */
  fetch?: FetchLike | undefined;
  /**
   * API keys must not be exposed in client-side code, so the client refuses to run in a browser.
   * Set this only if you understand that anyone who can open the page can read the key.
   */
  dangerouslyAllowBrowser?: boolean | undefined;
}

/** The typed client: one method per HTTP method, results typed per operation from the contract. */
export interface SvcClient<ThrowOnError extends boolean = false> {
  GET: SvcMethod<'get', ThrowOnError>;
  POST: SvcMethod<'post', ThrowOnError>;
  PUT: SvcMethod<'put', ThrowOnError>;
  PATCH: SvcMethod<'patch', ThrowOnError>;
  DELETE: SvcMethod<'delete', ThrowOnError>;
  /**
   * Every item of a list operation, across pages (following `has_more`); throws SvcApiError on an
   * error page. `maxItems` caps the number of items.
   *
   * @example
   * for await (const conversation of svc.paginate('/v2/api/conversations', { params: { query: { size: 100 } } })) { … }
   */
  paginate<Path extends SvcListPath>(
    url: Path,
    ...init: InitArgument<SvcPaginateOptions<Path>>
  ): AsyncGenerator<SvcListItem<Path>, void, undefined>;
  /** Every page of a list operation (each a successful result with its request id); `maxPages` caps them. */
  pages<Path extends SvcListPath>(
    url: Path,
    ...init: InitArgument<SvcPaginateOptions<Path>>
  ): AsyncGenerator<SvcPage<Path>, void, undefined>;
  /** Registers openapi-fetch middleware; it runs once per call, above the retries. */
  use(...middleware: Middleware[]): void;
  /** Removes middleware registered with {@link SvcClient.use}. */
  eject(...middleware: Middleware[]): void;
}

const DEFAULTS = { maxRetries: 2, retryBaseDelayMs: 500, maxRetryDelayMs: 60_000, timeoutMs: 30_000 };

function isBrowser(): boolean {
  return typeof window !== 'undefined' && typeof document !== 'undefined';
}

function apiKeyFromEnvironment(): string | undefined {
  // Web-standard code: `process` exists on Node, Bun and Deno, not in workers or browsers.
  const environment = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return environment?.SVC_API_KEY || undefined;
}

/** The client's headers as openapi-fetch base headers, plus the key unless they carry an Authorization of their own. */
function withKey(headers: HeadersOptions | undefined, apiKey: string): Record<string, string> {
  const base: Record<string, string> = {};
  const add = (name: string, value: unknown) => {
    // openapi-fetch's rule: null and undefined unset a header; arrays are repeated values.
    if (value !== null && value !== undefined)
      base[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  };
  if (headers instanceof Headers)
    headers.forEach((value, name) => {
      add(name, value);
    });
  else if (Array.isArray(headers)) for (const [name, value] of headers) add(name, value);
  else if (headers) for (const [name, value] of Object.entries(headers)) add(name, value);
  base.authorization ??= `Api-Key ${apiKey}`;
  return base;
}

/** The key of the client, refused in a browser unless the caller accepts the risk. */
function clientApiKey(options: SvcClientOptions): string {
  if (isBrowser() && !options.dangerouslyAllowBrowser) {
    throw new SvcError(
      'createSvcClient refuses to run in a browser: API keys must not be exposed in client-side code. ' +
        'Call the API from your server, or pass dangerouslyAllowBrowser: true if you accept that anyone can read the key.',
    );
  }
  const apiKey = options.apiKey || apiKeyFromEnvironment();
  if (!apiKey) throw new SvcError('No API key: pass apiKey or set the SVC_API_KEY environment variable.');
  return apiKey;
}

function transportFor(options: SvcClientOptions, apiKey: string) {
  return createTransport({
    apiKey,
    send: sendWith(options.fetch),
    pacer: pacerFor(options.rateLimit),
    autoIdempotencyKeys: options.autoIdempotencyKeys ?? true,
    retry: {
      baseDelayMs: options.retryBaseDelayMs ?? DEFAULTS.retryBaseDelayMs,
      maxDelayMs: options.maxRetryDelayMs ?? DEFAULTS.maxRetryDelayMs,
    },
    log: createLog(options.logger, options.onLog, apiKey),
  });
}

// The public methods carry the typing (SvcMethod); underneath, one untyped door into openapi-fetch.
type Send = (
  method: string,
  url: string,
  init: Record<string, unknown>,
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/** What every call of one client shares. */
interface Caller {
  apiKey: string;
  maxRetries: number;
  timeoutMs: number;
  transport: ReturnType<typeof createTransport>;
  /** openapi-fetch's door, with the middleware registered on the client or without any. */
  send(viaMiddleware: boolean): Send;
  /** Whether middleware is registered on the client. */
  hasMiddleware(): boolean;
}

/** The state of one call, from its per-request options (the rest goes to openapi-fetch). */
function callStateOf(
  caller: Caller,
  init: SvcRequestOptions & { fetch?: FetchLike | undefined },
  fetchInit: Record<string, unknown>,
) {
  const viaMiddleware = caller.hasMiddleware() || Boolean((fetchInit.middleware as unknown[] | undefined)?.length);
  const call: CallState = {
    maxRetries: init.maxRetries ?? caller.maxRetries,
    timeoutMs: init.timeoutMs ?? caller.timeoutMs,
    authorizationOnRequest: !viaMiddleware,
    callerSignal: (fetchInit.signal as AbortSignal | null | undefined) ?? undefined,
    requestId: init.requestId,
    idempotencyKey: init.idempotencyKey,
    send: init.fetch ? sendWith(init.fetch) : undefined,
  };
  return { call, viaMiddleware };
}

/** Runs a call to its end under its clock, which stops then; a timeout while the body is read is reported as one. */
async function onCallClock<T>(call: CallState, requestId: string | undefined, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    // The clock may run out while openapi-fetch reads the body: report that as the timeout it is.
    if (call.timer?.timedOut && !(error instanceof SvcError)) throw new SvcTimeoutError(call.timeoutMs, requestId);
    throw error;
  } finally {
    call.timer?.clear();
  }
}

async function callApi(
  caller: Caller,
  method: string,
  url: string,
  init: Record<string, unknown>,
  throwOnError: boolean,
) {
  const { maxRetries, timeoutMs, requestId, idempotencyKey, fetch, ...fetchInit } = init as Record<string, unknown> &
    SvcRequestOptions & { fetch?: FetchLike };
  const { call, viaMiddleware } = callStateOf(
    caller,
    { maxRetries, timeoutMs, requestId, idempotencyKey, fetch },
    fetchInit,
  );
  // The retrying transport is the `fetch` openapi-fetch calls after its middleware chain
  // (middleware cannot re-send a request). It is passed per call, through openapi-fetch's
  // per-request `fetch` option, because it needs this call's options and state.
  fetchInit.fetch = (wire: Request) => caller.transport(wire, call);
  const result = await onCallClock(call, requestId, async () =>
    withMeta(
      await caller.send(viaMiddleware)(method, url, fetchInit),
      requestId,
      call.sentIdempotencyKey,
      caller.apiKey,
    ),
  );
  if (throwOnError && !result.response.ok)
    throw SvcApiError.fromResponse(result.response, result.error, result.requestId);
  return result;
}

/**
 * Creates a client of the Team Communications Service API.
 *
 * @example
 * const svc = createSvcClient({ baseUrl: 'https://api.example.com' }); // key from SVC_API_KEY
 * const { data, error, requestId } = await svc.GET('/v2/api/threads/{id}', { params: { path: { id: 'cth-1' } } });
 */
export function createSvcClient(options: SvcClientOptions & { throwOnError: true }): SvcClient<true>;
export function createSvcClient(options: SvcClientOptions & { throwOnError?: false | undefined }): SvcClient<false>;
export function createSvcClient(options: SvcClientOptions): SvcClient<boolean>;
export function createSvcClient(options: SvcClientOptions): SvcClient<boolean> {
  const apiKey = clientApiKey(options);
  const transport = transportFor(options, apiKey);
  // Two openapi-fetch clients over the same transport. Middleware must never see the key, so when
  // middleware is registered the transport adds the Authorization header beneath it; without any,
  // nothing can see the Request, and the key rides in openapi-fetch's base headers, which is
  // cheaper than changing a built Request (a caller's own Authorization header still wins).
  const withMiddleware = createClient<paths>({
    baseUrl: options.baseUrl,
    ...(options.headers ? { headers: options.headers } : {}),
  });
  const withoutMiddleware = createClient<paths>({
    baseUrl: options.baseUrl,
    headers: withKey(options.headers, apiKey),
  });
  // openapi-fetch's list, mirrored: ejecting what was never registered changes nothing in either.
  const registeredMiddleware: Middleware[] = [];
  const sendWithMiddleware = withMiddleware.request as unknown as Send;
  const sendWithoutMiddleware = withoutMiddleware.request as unknown as Send;
  const caller: Caller = {
    apiKey,
    maxRetries: options.maxRetries ?? DEFAULTS.maxRetries,
    timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
    transport,
    send: (viaMiddleware) => (viaMiddleware ? sendWithMiddleware : sendWithoutMiddleware),
    hasMiddleware: () => registeredMiddleware.length > 0,
  };

  const listCall: ListCall = (url, init) => callApi(caller, 'GET', url, init, false);
  const throwOnError = options.throwOnError === true;
  const method =
    (name: string) =>
    (url: string, init: Record<string, unknown> = {}) =>
      callApi(caller, name, url, init, throwOnError);

  const client = {
    GET: method('GET'),
    POST: method('POST'),
    PUT: method('PUT'),
    PATCH: method('PATCH'),
    DELETE: method('DELETE'),
    paginate: (url: string, init?: Record<string, unknown>) => paginateItems(listCall, url, init),
    pages: (url: string, init?: Record<string, unknown>) => paginatePages(listCall, url, init),
    use: (...middleware: Middleware[]) => {
      withMiddleware.use(...middleware);
      for (const m of middleware) if (m) registeredMiddleware.push(m);
    },
    eject: (...middleware: Middleware[]) => {
      withMiddleware.eject(...middleware);
      for (const m of middleware) {
        const at = registeredMiddleware.indexOf(m);
        if (at !== -1) registeredMiddleware.splice(at, 1);
      }
    },
  };
  return client as unknown as SvcClient<boolean>;
}
