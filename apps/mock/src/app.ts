// The mock: every request runs through one pipeline, in the order the real service answers:
//   request id and rate-limit headers -> route (404 ENDPOINT_NOT_FOUND / 405 METHOD_NOT_ALLOWED)
//   -> authentication and scopes -> JSON body (415 / INVALID_REQUEST_BODY) -> Prefer -> Prism.
// Prism validates the request and picks the documented example; its violations are translated
// into the documented error (prism-violations.ts + spec-runtime's errorFor/buildError), so no
// Prism problem+json, no 422 and no 5xx ever reaches a client for bad input.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import type { Contract, Operation, Violation } from '@svc/spec-runtime';
import { isRetryable } from '@svc/spec-runtime';
import { KeyChecker } from './auth.js';
import { BUNDLE_PATH, bundledContract } from './contract.js';
import { DEFAULT_MAX_BODY_BYTES, readJsonBody } from './json-body.js';
import type { MockKey } from './keys-file.js';
import { indexExamples, parsePrefer, resolvePreferences, type ExampleIndex } from './prefer.js';
import { createPrismEngine, type PrismEngine } from './prism-engine.js';
import { translateViolations } from './prism-violations.js';
import { RateLimitCounter } from './rate-limit-headers.js';
import { headerText, requestIdFor } from '@svc/spec-runtime';
import { isObject } from './schema-nodes.js';

export interface MockOptions {
  /** Defaults to the bundle of @svc/openapi. */
  contract?: Contract;
  /** Path of the same bundle for Prism (it loads and dereferences the file itself). */
  bundlePath?: string;
  /** Known keys and their scopes; without them any well-formed key has every scope. */
  keys?: readonly MockKey[];
  /** Generate responses from the schemas rather than serve the examples (Prefer: dynamic=... overrides). */
  dynamic?: boolean;
  /** Milliseconds since the epoch, for the rate-limit windows. */
  clock?: () => number;
  /** Largest accepted request body, in bytes (default 256 KiB). */
  maxBodyBytes?: number;
  /** Where internal failures are reported (default: stderr). */
  onInternalError?: (requestId: string, error: unknown) => void;
}

export interface Mock {
  contract: Contract;
  /** A node:http request listener. */
  handle(request: IncomingMessage, response: ServerResponse): void;
  /** Requests answered 500 INTERNAL_SERVER_ERROR, i.e. bugs; the tests assert it stays zero. */
  readonly internalErrors: number;
}

/** Generated responses tried before falling back to the documented example. */
const DYNAMIC_ATTEMPTS = 10;

interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * The request target as a URL of this server. Only the path and query count: a target such as
 * `//evil.example/v2/api/users` is a path (which names no endpoint), never a host and a path,
 * which is what `new URL(target, base)` would make of it.
 */
export function requestUrl(target: string | undefined): URL {
  const path = target === undefined || target === '' ? '/' : target.startsWith('/') ? target : `/${target}`;
  return new URL(`http://mock.invalid${path}`);
}

/** A fixed-size bucket name for the rate-limit counts, whatever the length of the header. */
function rateBucket(authorization: string | undefined): string {
  return authorization === undefined ? 'anonymous' : createHash('sha256').update(authorization).digest('base64');
}

/** A request's own text quoted in a message, cut short: an answer never grows with a hostile URL. */
function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 197)}... (${text.length} characters)` : text;
}

/** Header values as spec-runtime reads them (a repeated header joined, as HTTP allows). */
function requestHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    const text = single(value);
    // Empty X-Request-Id and Idempotency-Key count as not sent (as in the sandbox).
    if (text === undefined || ((name === 'x-request-id' || name === 'idempotency-key') && text === '')) continue;
    headers[name] = text;
  }
  return headers;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

function queryOf(params: URLSearchParams): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    query[key] = values.length === 1 ? (values[0] as string) : values;
  }
  return query;
}

export async function createMock(options: MockOptions = {}): Promise<Mock> {
  const contract = options.contract ?? bundledContract();
  const prism: PrismEngine = await createPrismEngine(options.bundlePath ?? BUNDLE_PATH);
  const examples: ExampleIndex = indexExamples(contract);
  const keys = new KeyChecker(options.keys);
  const rates = RateLimitCounter.fromContract(contract, options.clock);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const report = options.onInternalError ?? ((id, error) => process.stderr.write(`[svc-mock] ${id}: ${(error as Error)?.stack ?? String(error)}\n`));
  let internalErrors = 0;

  function apiError(requestId: string, code: string, detail: { message: string; param?: string; suggestion?: string; errors?: Array<{ field: string; code: string; message: string }> }): Answer {
    const built = contract.buildError(code, {
      requestId,
      message: detail.message,
      ...(detail.param !== undefined ? { param: detail.param } : {}),
      ...(detail.suggestion !== undefined ? { suggestion: detail.suggestion } : {}),
      ...(detail.errors ? { errors: detail.errors } : {}),
    });
    return { status: built.status, body: built.body };
  }

  /** A served example or generated body: error bodies get this request's id (and a coherent retryable). */
  function served(requestId: string, status: number, body: unknown): Answer {
    if (!isObject(body) || !isObject(body.error)) return { status, body };
    const error: Record<string, unknown> = { ...body.error, request_id: headerText(requestId) };
    const entry = typeof error.code === 'string' ? contract.catalogue.get(error.code) : undefined;
    // Generated (dynamic) bodies draw retryable at random; the catalogue knows the answer.
    if (entry) error.retryable = isRetryable(entry);
    return { status, body: { ...body, error } };
  }

  async function answer(request: IncomingMessage, url: URL, method: string, requestId: string, headers: Record<string, string>): Promise<Answer> {
    const route = contract.matchRoute(method, url.pathname);
    if ('error' in route) {
      if (route.error === 'METHOD_NOT_ALLOWED') {
        headers.Allow = route.allowed.join(', ');
        return apiError(requestId, 'METHOD_NOT_ALLOWED', { message: `${method} is not supported on ${clip(url.pathname)}; allowed: ${route.allowed.join(', ')}.` });
      }
      return apiError(requestId, 'ENDPOINT_NOT_FOUND', { message: `No endpoint at ${method} ${clip(url.pathname)}.` });
    }
    const { operation, params } = route;

    const refusal = keys.check(single(request.headers.authorization), operation);
    if (refusal) return apiError(requestId, refusal.code, refusal);

    let body: Record<string, unknown> | undefined;
    let bodyValueCount: number | undefined;
    if (operation.requestBody) {
      const read = await readJsonBody(request, operation.requestBody.required, maxBodyBytes);
      if (!read.ok) return apiError(requestId, read.code, { message: read.message });
      body = read.value;
      bodyValueCount = read.valueCount;
    } else {
      request.resume();
    }

    // The request is validated by spec-runtime first, as the sandbox does: it stops at the
    // violation that decides the code for a large body, where Prism's own validation collects
    // every error (30 000 batch ids cost seconds). Prism still checks what passes.
    const violations = contract.validateRequest(operation, { params, query: url.searchParams, headers: requestHeaders(request), body, bodyValueCount });
    if (violations.length > 0) return validationError(requestId, operation, violations);

    const preferences = parsePrefer(single(request.headers.prefer));
    const choice = preferences.ok ? resolvePreferences(operation, examples, preferences.value, options.dynamic ?? false) : preferences;
    if (!choice.ok) return mockUsageError(requestId, operation, choice.message);

    const prismHeaders = requestHeaders(request);
    const prismRequest = { method, path: url.pathname, query: queryOf(url.searchParams), headers: prismHeaders, ...(body !== undefined ? { body } : {}) };
    let outcome = await prism.request(prismRequest, choice.value);

    // json-schema-faker does not honour every construct of the contract (oneOf branches that only
    // add `required`, as in the receptionist's prompt, get `sections: true`), so
    // a generated response is checked like any other and generated again when it does not
    // conform; after a few misses (or with a seed, which repeats itself) the example is served.
    for (let attempt = 1; choice.value.dynamic && outcome.kind === 'response'; attempt++) {
      const candidate = served(requestId, outcome.status, outcome.body);
      if (contract.validateResponse(operation, candidate.status, headers, candidate.body).length === 0) break;
      const again = attempt < DYNAMIC_ATTEMPTS && choice.value.seed === undefined;
      outcome = await prism.request(prismRequest, again ? choice.value : { ...choice.value, dynamic: false });
      if (!again) break;
    }

    if (outcome.kind === 'invalid') {
      return validationError(requestId, operation, translateViolations(contract, operation, outcome.diagnostics, { params, query: url.searchParams, headers: prismHeaders, body }));
    }
    if (outcome.kind === 'failure') {
      throw new Error(`Prism could not answer ${operation.operationId} (${outcome.status ?? '?'} ${outcome.title}): ${outcome.detail}`);
    }
    return served(requestId, outcome.status, outcome.body);
  }

  function validationError(requestId: string, operation: Operation, violations: Violation[]): Answer {
    const chosen = contract.errorFor(violations, operation);
    return apiError(requestId, chosen.code, { message: chosen.message, ...(chosen.param !== undefined ? { param: chosen.param } : {}), ...(chosen.errors ? { errors: chosen.errors } : {}) });
  }

  /** A Prefer header the operation cannot satisfy: the mock's caller erred, not the API's client. */
  function mockUsageError(requestId: string, operation: Operation, message: string): Answer {
    return apiError(requestId, 'INVALID_REQUEST', {
      message,
      param: 'Prefer',
      suggestion: `Ask for a documented status and example of ${operation.operationId}, or send no Prefer header.`,
    });
  }

  function write(response: ServerResponse, answer: Answer, headers: Record<string, string>): void {
    const all = { ...headers, ...answer.headers };
    if (answer.body === undefined) {
      response.writeHead(answer.status, all);
      response.end();
      return;
    }
    // Bytes, not a string: Node writes a string body in one piece with the headers, encoding both
    // as UTF-8, which would encode a client's non-ASCII X-Request-Id (one byte per character) twice.
    const bytes = Buffer.from(JSON.stringify(answer.body));
    response.writeHead(answer.status, { ...all, 'Content-Type': 'application/json', 'Content-Length': String(bytes.length) });
    response.end(bytes);
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const method = (request.method ?? 'GET').toUpperCase();
    const url = requestUrl(request.url);
    const requestId = requestIdFor(single(request.headers['x-request-id']));
    const headers: Record<string, string> = { 'X-Request-Id': requestId };
    const idempotencyKey = nonEmpty(single(request.headers['idempotency-key']));
    if (idempotencyKey !== undefined) headers['Idempotency-Key'] = idempotencyKey;
    const kind = contract.limits.writeMethods.includes(method) ? 'write' : 'read';
    const rate = rates.count(rateBucket(single(request.headers.authorization)), kind);
    headers['X-RateLimit-Limit'] = String(rate.limit);
    headers['X-RateLimit-Remaining'] = String(rate.remaining);
    headers['X-RateLimit-Reset'] = String(rate.reset);
    let result: Answer;
    try {
      result = await answer(request, url, method, requestId, headers);
    } catch (error) {
      // A client that hung up mid-body is not a bug of the mock, and there is no one to answer.
      if (request.destroyed && !request.complete) return;
      internalErrors++;
      report(requestId, error);
      result = apiError(requestId, 'INTERNAL_SERVER_ERROR', { message: `An unexpected error occurred in the mock (request ${requestId}).` });
    }
    if (!response.headersSent) write(response, result, headers);
  }

  return {
    contract,
    handle: (request, response) => void handle(request, response),
    get internalErrors() {
      return internalErrors;
    },
  };
}
