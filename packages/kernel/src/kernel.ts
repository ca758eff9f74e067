// The request kernel shared by the servers of this repository (the sandbox, the mock): the
// pipeline of named steps (pipeline.ts, one module per step in steps/) behind two adapters
// (adapters.ts: fetch, and node:http without a web Request), driven by the contract. A server
// plugs in which keys exist (`findKey`) and what a valid call answers (`answer`): the sandbox its
// handlers and store, the mock Prism; its own fixed routes (reset, a trigger) go through a
// pipeline of the same steps (own-routes.ts), its web routes (the sandbox's /docs) to their own
// handler (web-routes.ts). One routing for both ways in: own path, web route, else the API.
// Bad input ends as a documented 4xx; only a bug can reach the 500.
import { type Contract, DEFAULT_BODY_LIMITS, serverHeaderNames } from '@svc/spec-runtime';
import { fetchAdapter, nodeAdapter } from './adapters.js';
import type { Credentials } from './auth.js';
import type { Call, Outcome } from './call.js';
import { errorAnswers, type SuggestionFor } from './error-answer.js';
import type { Exchange } from './exchange.js';
import { IdempotencyStore } from './idempotency.js';
import { corsPolicyOf } from './loopback-cors.js';
import type { Maybe } from './maybe.js';
import { type NodeHandler, sharedFolder } from './node-request.js';
import { type OwnRoute, ownRouteSteps } from './own-routes.js';
import { type Answer, createPipeline } from './pipeline.js';
import { RateLimiter, type RateLimitMode, type RateLimits } from './rate-limiter.js';
import { ReadCache } from './read-cache.js';
import type { Services } from './services.js';
import { answersPath } from './steps/own-route.js';
import { targetOf } from './target.js';
import { type WebRoute, webRouteFor } from './web-routes.js';

export type { Call, Failure, Outcome } from './call.js';
export { isFailure } from './call.js';

export interface KernelOptions<K extends Credentials> {
  contract: Contract;
  /** The key record of a token, or undefined when no such key exists. */
  findKey(token: string): K | undefined;
  /** The answer to a valid call. */
  answer(call: Call<K>): Maybe<Outcome>;
  /** enforce (default), report (count but never refuse) or off; numbers override the contract's. */
  rateLimit?: RateLimitMode;
  rateLimits?: Partial<RateLimits>;
  /**
   * Keeps successful answers of reads until the next write (off by default): only for a server
   * whose reads depend on nothing but its state, the key and the URL, and whose state changes only
   * through writes answered synchronously (the sandbox). A number is the byte budget.
   */
  readCache?: boolean | number;
  /** Stores and replays keyed writes (on by default); false leaves Idempotency-Key to the answer. */
  idempotency?: boolean;
  /** Bytes of stored idempotent responses kept before the least recently used go (default 64 MiB). */
  idempotencyBudgetBytes?: number;
  /** The doc_url of an error, by code (default: the contract's docs URL plus the code). */
  docUrl?: (code: string) => string;
  /** The server's own suggestion for an error the kernel found (e.g. an UNKNOWN_FIELD it knows more about). */
  suggestionFor?: SuggestionFor;
  /** Milliseconds since the epoch; drives idempotency expiry and rate-limit windows. */
  clock?: () => number;
  /** Largest accepted request body, in bytes (default 64 KiB). */
  maxBodyBytes?: number;
  /** Deepest accepted JSON nesting of a request body (default 32). */
  maxBodyDepth?: number;
  /** Bodies of at least this many bytes are parsed and validated in a worker thread (default 16 KiB; Infinity: never). */
  offloadBodyBytes?: number;
  /** Where internal failures (bugs) are reported (default: stderr). */
  onInternalError?: (requestId: string, request: Request, error: unknown) => void;
  /** The server's own routes (fixed paths outside the contract), answered by the kernel's steps (own-routes.ts). */
  ownRoutes?: readonly OwnRoute<K>[];
  /** The origin the server listens on, once it does: its own routes that act answer to it only (same-origin step). */
  origin?: () => string | undefined;
  /** Folders of paths answered by a handler of the server's own with web Responses (the sandbox's /docs). */
  webRoutes?: readonly WebRoute[];
  /** CORS for pages of loopback origins on the API (the CORS step; off by default). */
  loopbackCors?: boolean;
  /** Told of every answer, API and own routes alike, as it leaves the pipeline (the sandbox's request log). */
  onAnswer?: (x: Exchange<K>, answer: Answer) => void;
}

export interface Kernel {
  /** Answers at once where nothing must wait, else with a promise. */
  fetch: (request: Request) => Response | Promise<Response>;
  /** The same answers over node:http without a web Request where that changes nothing (see listen). */
  serveNode: NodeHandler;
  contract: Contract;
  /** The one rate limiter, so that a server's own routes that act (the sandbox's webhook trigger) count against it too. */
  readonly rateLimiter: RateLimiter;
  /** Forgets idempotency keys and rate-limit windows. */
  reset(): void;
  /** Requests answered with INTERNAL_SERVER_ERROR, i.e. bugs; tests assert it stays zero. */
  readonly internalErrors: number;
}

function reportToStderr(requestId: string, request: Request, error: unknown): void {
  console.error(`[svc] ${requestId} ${request.method} ${new URL(request.url).pathname}:`, error);
}

/** What the steps share, made from the options. */
export function kernelServices<K extends Credentials>(options: KernelOptions<K>): Services<K> {
  const { contract } = options;
  const { limits } = contract;
  const clock = options.clock ?? Date.now;
  const rates = {
    readsPerSecond: options.rateLimits?.readsPerSecond ?? limits.readRequestsPerSecond,
    writesPerSecond: options.rateLimits?.writesPerSecond ?? limits.writeRequestsPerSecond,
  };
  const { readCache } = options;
  return {
    contract,
    names: serverHeaderNames(contract),
    answer: options.answer,
    limiter: new RateLimiter(rates, options.rateLimit ?? 'enforce', clock),
    idempotency:
      options.idempotency === false
        ? undefined
        : new IdempotencyStore(limits.idempotencyTtlSeconds, clock, options.idempotencyBudgetBytes),
    reads: readCache ? new ReadCache(typeof readCache === 'number' ? readCache : undefined) : undefined,
    bodyLimits: {
      maxBytes: options.maxBodyBytes ?? DEFAULT_BODY_LIMITS.maxBytes,
      maxDepth: options.maxBodyDepth ?? DEFAULT_BODY_LIMITS.maxDepth,
    },
    offloadBodyBytes: options.offloadBodyBytes ?? 16 * 1024,
    cors: options.loopbackCors ? corsPolicyOf(contract) : undefined,
    ...errorAnswers(contract, options.docUrl, options.suggestionFor),
  };
}

export function createKernel<K extends Credentials>(options: KernelOptions<K>): Kernel {
  const { contract, findKey } = options;
  const services = kernelServices(options);
  const report = options.onInternalError ?? reportToStderr;
  let internalErrors = 0;
  const { onAnswer } = options;
  const pipeline = createPipeline<K>({
    services,
    onAnswer,
    onCrash: (x, error) => {
      internalErrors++;
      report(x.requestId, x.request, error);
    },
  });

  const ownRoutes = options.ownRoutes ?? [];
  const ownPaths = new Set(ownRoutes.map((route) => route.path));
  const isOwn = (pathname: string): boolean =>
    ownPaths.has(pathname) || ownRoutes.some((route) => answersPath(route, pathname));
  const webRoutes = options.webRoutes ?? [];
  const origin = options.origin ?? (() => undefined);
  const answerOwn = fetchAdapter(
    createPipeline<K>({
      services,
      steps: ownRouteSteps(services, ownRoutes, origin),
      onAnswer,
      onCrash: (x, error) => {
        internalErrors++;
        report(x.requestId, x.request, error);
      },
    }),
    findKey,
  );
  const answerWeb = fetchAdapter(pipeline, findKey);
  return {
    fetch(request) {
      const target = targetOf(request.url);
      if (isOwn(target.pathname)) return answerOwn(request, target);
      const web = webRoutes.length === 0 ? undefined : webRouteFor(webRoutes, target.pathname);
      return web ? web.serve(request) : answerWeb(request, target);
    },
    serveNode: nodeAdapter(pipeline, {
      findKey,
      apiFolder: sharedFolder(contract.operations.map((operation) => operation.path)),
      leftToFetch: (pathname) =>
        isOwn(pathname) || (webRoutes.length > 0 && webRouteFor(webRoutes, pathname) !== undefined),
      onWriteError: (request, error) => report('-', request, error),
    }),
    contract,
    rateLimiter: services.limiter,
    reset() {
      services.reads?.clear();
      services.idempotency?.reset();
      services.limiter.reset();
    },
    get internalErrors() {
      return internalErrors;
    },
  };
}
