// The mock: the shared request kernel (@svc/server-kernel: route, authentication and scopes, JSON
// body, validation to the documented code, errors, request ids, rate-limit headers) with Prism
// plugged in for what a valid request answers: Prefer picks a documented response, Prism serves
// its example or generates one. Prism's own request validation is off: a request reaches it only
// once the kernel found it valid, so no Prism problem+json, no 422 and no 5xx ever reaches a
// client for bad input.
import { parse } from 'node:querystring';
import { type Call, type Credentials, createKernel, type Outcome } from '@svc/server-kernel';
import { type Contract, headerText, isRetryable } from '@svc/spec-runtime';
import { BUNDLE_PATH, bundledContract } from './contract.js';
import type { MockKey } from './keys-file.js';
import { type ExampleIndex, indexExamples, parsePrefer, resolvePreferences } from './prefer.js';
import { createPrismEngine, type PrismEngine, type PrismRequest } from './prism-engine.js';

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
  /** Largest accepted request body, in bytes (default 64 KiB). */
  maxBodyBytes?: number;
  /** Where internal failures are reported (default: stderr). */
  onInternalError?: (requestId: string, error: unknown) => void;
}

export interface Mock {
  contract: Contract;
  /** The web-standard handler (served by startMockServer). */
  fetch: (request: Request) => Promise<Response>;
  /** Requests answered 500 INTERNAL_SERVER_ERROR, i.e. bugs; the tests assert it stays zero. */
  readonly internalErrors: number;
}

/** Generated responses tried before falling back to the documented example. */
const DYNAMIC_ATTEMPTS = 10;

/** What answering with Prism needs: the contract, Prism, the examples by code, the default of Prefer: dynamic. */
interface PrismAnswering {
  contract: Contract;
  prism: PrismEngine;
  examples: ExampleIndex;
  dynamic: boolean;
}

/** A served example or generated body: error bodies get this request's id (and a coherent retryable). */
function served(
  contract: Contract,
  requestId: string,
  status: number,
  body: unknown,
): { status: number; body: unknown } {
  const found = (body as { error?: unknown } | null | undefined)?.error;
  if (typeof found !== 'object' || found === null) return { status, body };
  const error: Record<string, unknown> = { ...found, request_id: headerText(requestId) };
  const entry = typeof error.code === 'string' ? contract.catalogue.get(error.code) : undefined;
  // Generated (dynamic) bodies draw retryable at random; the catalogue knows the answer.
  if (entry) error.retryable = isRetryable(entry);
  return { status, body: { ...(body as object), error } };
}

/** The call as Prism reads it: its query with one value as a string, a repeated name's values as an array. */
function prismRequestOf({ request, pathname, query, operation, body }: Call<Credentials>): PrismRequest {
  return {
    method: operation.method,
    path: pathname,
    // maxKeys 0: no cap on the number of names.
    query: parse(query.toString(), '&', '=', { maxKeys: 0 }) as PrismRequest['query'],
    headers: Object.fromEntries(request.headers),
    ...(body !== undefined ? { body } : {}),
  };
}

async function answerWithPrism(ctx: PrismAnswering, call: Call<Credentials>): Promise<Outcome> {
  const { contract, prism } = ctx;
  const { request, operation, requestId, responseHeaders } = call;
  const preferences = parsePrefer(request.headers.get('prefer') ?? undefined);
  const choice = preferences.ok
    ? resolvePreferences(operation, ctx.examples, preferences.value, ctx.dynamic)
    : preferences;
  // A Prefer header the operation cannot satisfy: the mock's caller erred, not the API's client.
  if (!choice.ok) {
    return {
      error: 'INVALID_REQUEST',
      message: choice.message,
      param: 'Prefer',
      suggestion: `Ask for a documented status and example of ${operation.operationId}, or send no Prefer header.`,
    };
  }
  const prismRequest = prismRequestOf(call);
  let outcome = await prism.request(prismRequest, choice.value);
  // json-schema-faker does not honour every construct of the contract (oneOf branches that only
  // add `required`, as in the receptionist's prompt, get `sections: true`), so a generated
  // response is checked like any other and generated again when it does not conform; after a
  // few misses (or with a seed, which repeats itself) the example is served.
  for (let attempt = 1; choice.value.dynamic && outcome.kind === 'response'; attempt++) {
    const candidate = served(contract, requestId, outcome.status, outcome.body);
    if (contract.validateResponse(operation, candidate.status, responseHeaders, candidate.body).length === 0) break;
    const again = attempt < DYNAMIC_ATTEMPTS && choice.value.seed === undefined;
    outcome = await prism.request(prismRequest, again ? choice.value : { ...choice.value, dynamic: false });
    if (!again) break;
  }
  if (outcome.kind === 'failure') {
    throw new Error(
      `Prism could not answer ${operation.operationId} (${outcome.status ?? '?'} ${outcome.title}): ${outcome.detail}`,
    );
  }
  return served(contract, requestId, outcome.status, outcome.body);
}

export async function createMock(options: MockOptions = {}): Promise<Mock> {
  const contract = options.contract ?? bundledContract();
  const prism: PrismEngine = await createPrismEngine(options.bundlePath ?? BUNDLE_PATH);
  const answering = { contract, prism, examples: indexExamples(contract), dynamic: options.dynamic ?? false };
  const known = options.keys ? new Map(options.keys.map((k) => [k.key, k])) : undefined;
  const everyScope = Object.keys(contract.scopes);
  // Without a keys file any well-formed key is accepted with every scope.
  const findKey = (token: string): Credentials | undefined =>
    known ? known.get(token) : { key: token, scopes: everyScope };

  const kernel = createKernel({
    contract,
    findKey,
    answer: (call) => answerWithPrism(answering, call),
    // The mock never refuses for the budget (429 is reachable with Prefer: code=429), but the
    // headers move as the real service's do; it stores nothing, so idempotency is only echoed.
    rateLimit: 'report',
    idempotency: false,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
    ...(options.onInternalError
      ? {
          onInternalError: (requestId: string, _request: Request, error: unknown) =>
            options.onInternalError!(requestId, error),
        }
      : {}),
  });
  return {
    contract,
    fetch: async (request) => kernel.fetch(request),
    get internalErrors() {
      return kernel.internalErrors;
    },
  };
}
