import type { paths } from '@svc/api-types';
import createClient from 'openapi-fetch';
import type { HeadersOptions, Middleware } from 'openapi-fetch';
import { SvcApiError, SvcError, SvcTimeoutError } from './errors.js';
import { type SvcLogEvent, type SvcLogger, createLog } from './logging.js';
import { type ListCall, paginateItems, paginatePages } from './pagination.js';
import { type SvcRateLimitOptions, createRateLimiters } from './rate-limit.js';
import { withMeta } from './result.js';
import { type CallState, type FetchLike, createTransport } from './transport.js';
import type {
  InitArgument,
  SvcListItem,
  SvcListPath,
  SvcMethod,
  SvcPage,
  SvcPaginateOptions,
  SvcRequestOptions,
} from './types.js';

/** Options of {@link createSvcClient}. */
export interface SvcClientOptions {
  /** The service's address, e.g. `https://api.example.com` (the contract names none; paths start with `/v2/api`). */
  baseUrl: string;
  /** The API key, sent as `Authorization: Api-Key <key>`. Default: the `SVC_API_KEY` environment variable. */
  apiKey?: string;
  /** Retries after a 429, a 5xx or a network failure (default 2). Writes are retried only with an Idempotency-Key. */
  maxRetries?: number;
  /** First step of the exponential backoff, in milliseconds (default 500). */
  retryBaseDelayMs?: number;
  /** Longest wait between attempts, in milliseconds (default 60 000); a 429 asking for longer is returned, not retried. */
  maxRetryDelayMs?: number;
  /** Time limit of each attempt, in milliseconds (default 30 000; 0 for none). */
  timeoutMs?: number;
  /** Client-side rate limits (default: the contract's, 20 reads and 5 writes per second); `false` turns them off. */
  rateLimit?: SvcRateLimitOptions | false;
  /** Give every POST, PUT, PATCH and DELETE a fresh `Idempotency-Key` unless it has one (default true). */
  autoIdempotencyKeys?: boolean;
  /** Throw {@link SvcApiError} instead of returning `{ error }`; results then always carry `data` (default false). */
  throwOnError?: boolean;
  /** Headers sent with every request (e.g. `User-Agent`). */
  headers?: HeadersOptions;
  /** A console-like logger for request, response, retry and error events (`console` works). The key is always redacted. */
  logger?: SvcLogger;
  /** Called with every log event (the key is always redacted). */
  onLog?: (event: SvcLogEvent) => void;
  /** The fetch to send requests with (default: the global `fetch`). */
  fetch?: FetchLike;
  /**
   * API keys must not be exposed in client-side code, so the client refuses to run in a browser.
   * Set this only if you understand that anyone who can open the page can read the key.
   */
  dangerouslyAllowBrowser?: boolean;
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
  paginate<Path extends SvcListPath>(url: Path, ...init: InitArgument<SvcPaginateOptions<Path>>): AsyncGenerator<SvcListItem<Path>, void, undefined>;
  /** Every page of a list operation (each a successful result with its request id); `maxPages` caps them. */
  pages<Path extends SvcListPath>(url: Path, ...init: InitArgument<SvcPaginateOptions<Path>>): AsyncGenerator<SvcPage<Path>, void, undefined>;
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
  return environment?.['SVC_API_KEY'] || undefined;
}

/**
 * Creates a client of the Team Communications Service API.
 *
 * @example
 * const svc = createSvcClient({ baseUrl: 'https://api.example.com' }); // key from SVC_API_KEY
 * const { data, error, requestId } = await svc.GET('/v2/api/threads/{id}', { params: { path: { id: 'cth-1' } } });
 */
export function createSvcClient(options: SvcClientOptions & { throwOnError: true }): SvcClient<true>;
export function createSvcClient(options: SvcClientOptions & { throwOnError?: false }): SvcClient<false>;
export function createSvcClient(options: SvcClientOptions): SvcClient<boolean>;
export function createSvcClient(options: SvcClientOptions): SvcClient<boolean> {
  if (isBrowser() && !options.dangerouslyAllowBrowser) {
    throw new SvcError(
      'createSvcClient refuses to run in a browser: API keys must not be exposed in client-side code. ' +
        'Call the API from your server, or pass dangerouslyAllowBrowser: true if you accept that anyone can read the key.',
    );
  }
  const apiKey = options.apiKey || apiKeyFromEnvironment();
  if (!apiKey) throw new SvcError('No API key: pass apiKey or set the SVC_API_KEY environment variable.');

  const maxRetries = options.maxRetries ?? DEFAULTS.maxRetries;
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const transport = createTransport({
    apiKey,
    // Resolved per call, not captured here, so that a fetch patched in later (tests, polyfills) is used.
    fetch: options.fetch ?? ((request) => globalThis.fetch(request)),
    limiters: createRateLimiters(options.rateLimit),
    autoIdempotencyKeys: options.autoIdempotencyKeys ?? true,
    retry: {
      baseDelayMs: options.retryBaseDelayMs ?? DEFAULTS.retryBaseDelayMs,
      maxDelayMs: options.maxRetryDelayMs ?? DEFAULTS.maxRetryDelayMs,
    },
    log: createLog(options.logger, options.onLog, apiKey),
  });

  const inner = createClient<paths>({ baseUrl: options.baseUrl, headers: options.headers });
  // The public methods carry the typing (SvcMethod); underneath, one untyped door into openapi-fetch.
  const send = inner.request as unknown as (
    method: string,
    url: string,
    init: Record<string, unknown>,
  ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

  const callApi: ListCall = async (url, init) => {
    const { method = 'GET', maxRetries: retries, timeoutMs: timeout, requestId, idempotencyKey, fetch, ...fetchInit } = init as Record<string, unknown> &
      SvcRequestOptions & { method?: string; fetch?: FetchLike };
    const call: CallState = { maxRetries: retries ?? maxRetries, timeoutMs: timeout ?? timeoutMs, requestId, idempotencyKey, fetch };
    try {
      const result = await send(method, url, {
        ...fetchInit,
        // The retrying transport is the `fetch` openapi-fetch calls after its middleware chain
        // (middleware cannot re-send a request). It is passed per call, through openapi-fetch's
        // per-request `fetch` option, because it needs this call's options and state.
        fetch: (wire: Request) => transport(wire, call),
      });
      return withMeta(result, requestId, call.sentIdempotencyKey, apiKey);
    } catch (error) {
      // The clock may run out while openapi-fetch reads the body: report that as the timeout it is.
      if (call.timer?.timedOut && !(error instanceof SvcError)) throw new SvcTimeoutError(call.timeoutMs, requestId);
      throw error;
    } finally {
      call.timer?.clear();
    }
  };

  const method =
    (name: string) =>
    async (url: string, init: Record<string, unknown> = {}) => {
      const result = await callApi(url, { ...init, method: name });
      if (options.throwOnError && !result.response.ok) {
        throw SvcApiError.fromResponse(result.response, result.error, result.requestId);
      }
      return result;
    };

  const client = {
    GET: method('GET'),
    POST: method('POST'),
    PUT: method('PUT'),
    PATCH: method('PATCH'),
    DELETE: method('DELETE'),
    paginate: (url: string, init?: Record<string, unknown>) => paginateItems(callApi, url, init),
    pages: (url: string, init?: Record<string, unknown>) => paginatePages(callApi, url, init),
    use: (...middleware: Middleware[]) => inner.use(...middleware),
    eject: (...middleware: Middleware[]) => inner.eject(...middleware),
  };
  return client as unknown as SvcClient<boolean>;
}
