// The request kernel shared by the servers of this repository (the sandbox, the mock): a Hono app
// whose catch-all handler runs every request through one pipeline, driven by the contract:
//   request id -> rate limit -> route (404/405) -> 429 -> authentication -> trial plan and scopes
//   -> idempotency (replay, reuse, in progress) -> JSON body -> contract validation -> answer.
// A server plugs in which keys exist (`findKey`) and what a valid call answers (`answer`): the
// sandbox its handlers and store, the mock Prism. Nothing awaits before the idempotency check, so
// two identical keyed requests started together can never both run. Bad input ends as a
// documented 4xx; only a bug can reach the 500.

import {
  type Contract,
  DEFAULT_BODY_LIMITS,
  type ErrorChoice,
  type FieldError,
  type Operation,
  previewValue,
  requestIdFor,
  serverHeaderNames,
} from '@svc/spec-runtime';
import { Hono } from 'hono';
import { authenticate, authorize, type Credentials } from './auth.js';
import { IdempotencyStore, type IdempotencyTicket, type StoredResponse } from './idempotency.js';
import { readJsonBody } from './json-body.js';
import { type KernelRequest, type NodeHandler, NodeRequest, plainTarget, sharedFolder } from './node-request.js';
import { RateLimiter, type RateLimitMode, type RateLimits } from './rate-limiter.js';
import { type CachedAnswer, ReadCache } from './read-cache.js';
import { type Target, targetOf } from './target.js';

/** A documented error the server chose (an unknown id, a state conflict, ...). */
export interface Failure {
  error: string;
  message: string;
  param?: string;
  suggestion?: string;
  errors?: FieldError[];
}

/** What a call answers: a status and a JSON body (none for 204), or a documented error. */
export type Outcome = { status: number; body?: unknown } | Failure;

export function isFailure(outcome: Outcome): outcome is Failure {
  return 'error' in outcome;
}

/** One authenticated, authorised, valid call to a documented operation. */
export interface Call<K extends Credentials> {
  /** The request as a web Request (one that came through serveNode: built on first use, bodiless). */
  request: Request;
  /** The path as WHATWG URL gives it (still percent-encoded). */
  pathname: string;
  query: URLSearchParams;
  operation: Operation;
  /** Path parameters, URL-decoded. */
  params: Record<string, string>;
  /** The JSON body (an object) of operations that take one. */
  body: Record<string, unknown> | undefined;
  key: K;
  requestId: string;
  /** The headers the response will carry (request id, rate limits, ...). */
  responseHeaders: Record<string, string>;
}

export interface KernelOptions<K extends Credentials> {
  contract: Contract;
  /** The key record of a token, or undefined when no such key exists. */
  findKey(token: string): K | undefined;
  /** The answer to a valid call. */
  answer(call: Call<K>): Outcome | Promise<Outcome>;
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
  /** Registers routes of the server's own (served before the API's catch-all). */
  routes?: (app: Hono) => void;
}

export interface Kernel {
  app: Hono;
  /** Answers at once where nothing must wait (see handle), else with a promise. */
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

const UNKNOWN_KEY_BUCKET = '\u0000unknown';

/** A request's own text quoted in a message, cut short: an answer never grows with a hostile URL. */
function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 197)}... (${text.length} characters)` : text;
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

function nonEmpty(value: string | null): string | undefined {
  return value === null || value === '' ? undefined : value;
}

function unknownFieldSuggestion(param: string | undefined): string | undefined {
  if (param === 'status' || param === 'is_default' || param === 'agent.status' || param === 'agent.is_default') {
    return `Remove ${param} from the body: it is read-only here (the receptionist is turned on or off by a separate operation).`;
  }
  if (param === 'prompt')
    return 'Remove prompt from the body: the prompt is written by the separate set-prompt operation, which replaces the whole section list.';
  return param === undefined ? undefined : `Remove ${param} from the body: unknown fields are refused, never ignored.`;
}

/**
 * A Call whose web Request is made on first use (a request from node:http has none). The getter
 * is on the prototype: a getter in an object literal gave every call its own hidden class, and
 * the garbage collector's time per read went up fivefold.
 */
class LazyCall<K extends Credentials> implements Call<K> {
  body: Record<string, unknown> | undefined = undefined;
  constructor(
    private readonly web: () => Request,
    readonly pathname: string,
    readonly query: URLSearchParams,
    readonly operation: Operation,
    readonly params: Record<string, string>,
    readonly key: K,
    readonly requestId: string,
    readonly responseHeaders: Record<string, string>,
  ) {}

  get request(): Request {
    return this.web();
  }
}

/** What handle answers: a Response for fetch, written straight to node:http by serveNode. */
interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array<ArrayBuffer> | null;
}

const toResponse = ({ status, headers, body }: Answer): Response => new Response(body, { status, headers });

function reportToStderr(requestId: string, request: Request, error: unknown): void {
  console.error(`[svc] ${requestId} ${request.method} ${new URL(request.url).pathname}:`, error);
}

export function createKernel<K extends Credentials>(options: KernelOptions<K>): Kernel {
  const { contract, findKey } = options;
  const { limits } = contract;
  const names = serverHeaderNames(contract);
  const clock = options.clock ?? Date.now;
  const limiter = new RateLimiter(
    {
      readsPerSecond: options.rateLimits?.readsPerSecond ?? limits.readRequestsPerSecond,
      writesPerSecond: options.rateLimits?.writesPerSecond ?? limits.writeRequestsPerSecond,
    },
    options.rateLimit ?? 'enforce',
    clock,
  );
  const idempotency =
    options.idempotency === false
      ? undefined
      : new IdempotencyStore(limits.idempotencyTtlSeconds, clock, options.idempotencyBudgetBytes);
  const reads = options.readCache
    ? new ReadCache(typeof options.readCache === 'number' ? options.readCache : undefined)
    : undefined;
  const bodyLimits = {
    maxBytes: options.maxBodyBytes ?? DEFAULT_BODY_LIMITS.maxBytes,
    maxDepth: options.maxBodyDepth ?? DEFAULT_BODY_LIMITS.maxDepth,
  };
  const offloadBodyBytes = options.offloadBodyBytes ?? 16 * 1024;
  const report = options.onInternalError ?? reportToStderr;
  let internalErrors = 0;

  // Response headers are a plain object, not a Headers: Node (and @hono/node-server) take a plain
  // object as it is, where a Headers would be copied into one on every response.
  function respond(outcome: CachedAnswer, headers: Record<string, string>): Answer {
    if (outcome.text === null) return { status: outcome.status, headers, body: null };
    headers['Content-Type'] = 'application/json';
    // A client's non-ASCII X-Request-Id arrives one byte per character; Node writes a string body
    // in one piece with the headers, encoding both as UTF-8, which would encode those bytes a
    // second time. With a byte body the headers go out as the bytes that came in. (Only then: a
    // string body is the faster path for everything else.)
    const body =
      outcome.bytes ??
      (isAscii(headers[names.requestId] ?? '') ? outcome.text : new TextEncoder().encode(outcome.text));
    return { status: outcome.status, headers, body };
  }

  function errorOutcome(requestId: string, failure: Failure & { retryAfterSeconds?: number }): StoredResponse {
    const { error: code, message, param, errors, retryAfterSeconds } = failure;
    const suggestion = failure.suggestion ?? (code === 'UNKNOWN_FIELD' ? unknownFieldSuggestion(param) : undefined);
    // buildError leaves out whatever is undefined (and errors when empty).
    const built = contract.buildError(code, { requestId, message, param, suggestion, errors, retryAfterSeconds });
    if (options.docUrl) built.body.error.doc_url = options.docUrl(code);
    return { status: built.status, text: JSON.stringify(built.body) };
  }

  /** The header parameters the operation documents, as sent (empty values count as not sent). */
  function headerParams(operation: Operation, request: KernelRequest): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const param of operation.parameters) {
      if (param.in !== 'header') continue;
      const value = nonEmpty(request.headers.get(param.name));
      if (value !== undefined) headers[param.name] = value;
    }
    return headers;
  }

  function serialize(outcome: Outcome, requestId: string): StoredResponse {
    if (isFailure(outcome)) return errorOutcome(requestId, outcome);
    return { status: outcome.status, text: outcome.body === undefined ? null : JSON.stringify(outcome.body) };
  }

  /** Validation and answer, once the body (if any) is read. */
  function invalid(requestId: string, choice: ErrorChoice): StoredResponse {
    return errorOutcome(requestId, { ...choice, error: choice.code });
  }

  function answerValid(
    call: Call<K>,
    request: KernelRequest,
    bodyValueCount: number | undefined,
  ): StoredResponse | Promise<StoredResponse> {
    const { query, operation, params, body, requestId } = call;
    const violations = contract.validateRequest(operation, {
      params,
      query,
      headers: headerParams(operation, request),
      body,
      bodyValueCount,
    });
    if (violations.length > 0) return invalid(requestId, contract.errorFor(violations, operation));
    if (reads && operation.class === 'read') {
      const key = ReadCache.keyOf(call.key.key, call.pathname, call.query);
      const known = reads.get(key);
      if (known) return known;
      const outcome = options.answer(call);
      const remember = (resolved: Outcome) => {
        const stored = serialize(resolved, requestId);
        reads.set(key, stored);
        return stored;
      };
      return outcome instanceof Promise ? outcome.then(remember) : remember(outcome);
    }
    const outcome = options.answer(call);
    // A write (whatever its outcome) may have changed what every read answers.
    if (reads && operation.class === 'write') reads.clear();
    return outcome instanceof Promise
      ? outcome.then((resolved) => (reads?.clear(), serialize(resolved, requestId)))
      : serialize(outcome, requestId);
  }

  /** Body, validation and answer: everything after the idempotency check. */
  function execute(call: Call<K>, request: KernelRequest): StoredResponse | Promise<StoredResponse> {
    const { operation, requestId, params, query } = call;
    if (!operation.requestBody) return answerValid(call, request, undefined);
    const offload = {
      contract,
      minBytes: offloadBodyBytes,
      request: () => ({
        operationId: operation.operationId,
        params,
        query: query.toString(),
        headers: headerParams(operation, request),
      }),
    };
    return readJsonBody(request, operation.requestBody.required, bodyLimits, offload).then((read) => {
      if (read.ok) return ((call.body = read.value), answerValid(call, request, read.valueCount));
      if ('invalid' in read) return invalid(requestId, read.invalid);
      // Refused unread (over the cap, or not JSON): the answer closes the connection, so the rest
      // of the upload is never read.
      if (read.unread) call.responseHeaders.Connection = 'close';
      return errorOutcome(requestId, { error: read.code, message: read.message });
    });
  }

  // Synchronous until something must wait (a body to read, an answer that awaits): a read whose
  // answer is synchronous is written at once, without the bookkeeping of a promise. `web` gives
  // the request as a web Request, for the answer (Call.request) and reports that ask for one.
  function handle(request: KernelRequest, { pathname, query }: Target, web: () => Request): Answer | Promise<Answer> {
    const method = request.method.toUpperCase();
    const requestId = requestIdFor(request.headers.get(names.requestId));
    const idempotencyKey = nonEmpty(request.headers.get(names.idempotencyKey));
    const headers: Record<string, string> = { [names.requestId]: requestId };
    if (idempotencyKey !== undefined) headers[names.idempotencyKey] = idempotencyKey;
    const fail = (failure: Failure & { retryAfterSeconds?: number }) =>
      respond(errorOutcome(requestId, failure), headers);
    let ticket: IdempotencyTicket | undefined;
    const crash = (error: unknown): Answer => {
      ticket?.abandon();
      // A client that went away is not a bug of the server, and there is no one to answer.
      if (request.signal.aborted)
        return fail({
          error: 'INVALID_REQUEST_BODY',
          message: 'The client closed the request before it was complete.',
        });
      internalErrors++;
      report(requestId, web(), error);
      return fail({ error: 'INTERNAL_SERVER_ERROR', message: `An unexpected error occurred (request ${requestId}).` });
    };
    try {
      const kind = limits.writeMethods.includes(method) ? 'write' : 'read';
      // One budget per known key; every unknown, malformed or missing key shares one, so made-up
      // keys cannot grow the limiter's table.
      const found = authenticate(request.headers.get('authorization'), findKey);
      const rate = limiter.consume('code' in found ? UNKNOWN_KEY_BUCKET : found.key, kind);
      headers[names.rateLimitLimit] = String(rate.limit);
      headers[names.rateLimitRemaining] = String(rate.remaining);
      headers[names.rateLimitReset] = String(rate.resetSeconds);

      const route = contract.matchRoute(method, pathname);
      if ('error' in route) {
        if (route.error === 'METHOD_NOT_ALLOWED') {
          headers.Allow = route.allowed.join(', ');
          return fail({
            error: 'METHOD_NOT_ALLOWED',
            message: `${method} is not supported on ${clip(pathname)}; allowed: ${route.allowed.join(', ')}.`,
          });
        }
        return fail({ error: 'ENDPOINT_NOT_FOUND', message: `No endpoint at ${method} ${clip(pathname)}.` });
      }
      const { operation, params } = route;
      if (!rate.allowed) {
        return fail({
          error: 'RATE_LIMIT_EXCEEDED',
          message: `Rate limit exceeded: ${rate.limit} ${kind} requests per second.`,
          retryAfterSeconds: Math.max(1, rate.resetSeconds),
        });
      }
      if ('code' in found) return fail({ ...found, error: found.code });
      const refusal = authorize(operation, found);
      if (refusal) return fail({ ...refusal, error: refusal.code });

      if (idempotency && operation.class === 'write' && idempotencyKey !== undefined) {
        const begun = idempotency.begin(found.key, idempotencyKey, method, pathname);
        if (begun.kind === 'replay') {
          headers[names.idempotencyReplayed] = 'true';
          return respond(begun.response, headers);
        }
        const param = names.idempotencyKey;
        if (begun.kind === 'reuse')
          return fail({
            error: 'IDEMPOTENCY_KEY_REUSE',
            message: `${param} ${previewValue(idempotencyKey)} was already used for a different endpoint or method.`,
            param,
          });
        if (begun.kind === 'in-progress')
          return fail({
            error: 'OTHER_TRANSACTION_IN_PROGRESS',
            message: `Another request with ${param} ${previewValue(idempotencyKey)} is in progress; wait and retry.`,
            param,
          });
        if (begun.kind === 'busy')
          return fail({
            error: 'OTHER_TRANSACTION_IN_PROGRESS',
            message: `Too many requests with an ${param} are in progress at once; wait and retry.`,
            param,
          });
        ticket = begun.ticket;
      }
      const call = new LazyCall(web, pathname, query, operation, params, found, requestId, headers);
      const outcome = execute(call, request);
      // A write completes on the next turn at the earliest, so a duplicate sent with it finds its
      // key in flight (409 OTHER_TRANSACTION_IN_PROGRESS) whether or not it had a body to wait for.
      if (outcome instanceof Promise || operation.class === 'write') {
        return Promise.resolve(outcome).then(
          (resolved) => (ticket?.complete(resolved), respond(resolved, headers)),
          crash,
        );
      }
      return respond(outcome, headers);
    } catch (error) {
      return crash(error);
    }
  }

  // The server's own routes (fixed paths) and HEAD (answered as GET without the body) go
  // through Hono; every other request goes straight to the pipeline, without Hono's routing and
  // context object per request.
  const app = new Hono();
  options.routes?.(app);
  const ownPaths = new Set(app.routes.map((route) => route.path));
  const answerWeb = (request: Request, target = targetOf(request.url)): Response | Promise<Response> => {
    const answer = handle(request, target, () => request);
    return answer instanceof Promise ? answer.then(toResponse) : toResponse(answer);
  };
  app.all('*', (c) => answerWeb(c.req.raw));
  const apiFolder = sharedFolder(contract.operations.map((operation) => operation.path));

  return {
    app,
    fetch(request) {
      const target = targetOf(request.url);
      return request.method === 'HEAD' || ownPaths.has(target.pathname)
        ? app.fetch(request)
        : answerWeb(request, target);
    },
    serveNode(incoming, outgoing) {
      const url = plainTarget(incoming, apiFolder);
      const target = url === undefined ? undefined : targetOf(`http://h${url}`);
      if (target === undefined || incoming.method === 'HEAD' || ownPaths.has(target.pathname)) return false;
      const request = new NodeRequest(incoming);
      const write = ({ status, headers, body }: Answer) => {
        if (body !== null)
          headers['Content-Length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
        outgoing.writeHead(status, headers).end(body);
      };
      // A failure to write (a bug) must not take the process down: that connection alone ends.
      const fail = (error: unknown) => (report('-', request.toRequest(), error), outgoing.destroy());
      try {
        const answer = handle(request, target, () => request.toRequest());
        if (answer instanceof Promise) answer.then(write).catch(fail);
        else write(answer);
      } catch (error) {
        fail(error);
      }
      return true;
    },
    contract,
    rateLimiter: limiter,
    reset() {
      reads?.clear();
      idempotency?.reset();
      limiter.reset();
    },
    get internalErrors() {
      return internalErrors;
    },
  };
}
