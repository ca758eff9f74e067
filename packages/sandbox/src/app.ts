// The sandbox: a Hono app whose single catch-all handler runs every request through the same
// pipeline, driven by the contract:
//   request id -> rate limit -> route (404/405) -> authentication -> trial plan and scopes ->
//   idempotency (replay, reuse, in progress) -> JSON body -> contract validation -> handler.
// Nothing awaits before the idempotency check, so two identical keyed requests started together
// can never both run. Bad input ends as a documented 4xx; only a bug can reach the 500.
import { Hono } from 'hono';
import type { Contract, Operation } from '@svc/spec-runtime';
import { DEFAULT_BODY_LIMITS, previewValue } from '@svc/spec-runtime';
import { bundledContract } from './bundled-contract.js';
import { createHandlers } from './handlers/index.js';
import { isFailure, type Failure, type HandlerResult } from './handlers/types.js';
import { authenticate, authorize, bearerToken } from './pipeline/auth.js';
import { IdempotencyStore, type IdempotencyTicket } from './pipeline/idempotency.js';
import { readJsonBody } from './pipeline/json-body.js';
import { RateLimiter, type RateLimits } from './pipeline/rate-limiter.js';
import { loadSeedFile } from './seed-file.js';
import type { ApiKeyRecord, SandboxState } from './store/model.js';
import { Store } from './store/store.js';
import { generateRequestId, issuedId } from './support/ids.js';
import { isoTimestamp } from './support/time.js';
import { handleWebhookTrigger } from './webhook-trigger-route.js';
import { WEBHOOK_TRIGGER_PATH } from './webhook-trigger.js';

export interface SandboxOptions {
  /** Defaults to the bundle of @svc/openapi. */
  contract?: Contract;
  /** Defaults to fixtures/seed.json. */
  seed?: SandboxState;
  /** false turns rate limiting off; numbers override the contract's limits. On by default. */
  rateLimit?: false | Partial<RateLimits>;
  /** Serves POST /__sandbox/reset (restores the seed). Off by default. */
  enableReset?: boolean;
  /** Serves POST /__sandbox/webhooks/trigger (sends a webhook delivery to a given URL). Off by default. */
  enableWebhookTrigger?: boolean;
  /** The doc_url of an error, by code (default: the contract's docs URL plus the code). */
  docUrl?: (code: string) => string;
  /** Milliseconds since the epoch; injectable for idempotency expiry and rate-limit windows. */
  clock?: () => number;
  /** Largest accepted request body, in bytes (default 256 KiB). */
  maxBodyBytes?: number;
  /** Deepest accepted JSON nesting of a request body (default 32). */
  maxBodyDepth?: number;
  /** Bytes of stored idempotent responses kept before the least recently used go (default 64 MiB). */
  idempotencyBudgetBytes?: number;
}

export interface Sandbox {
  app: Hono;
  fetch: (request: Request) => Promise<Response>;
  store: Store;
  contract: Contract;
  /** Restores the seed and forgets idempotency keys and rate-limit windows. */
  reset(): void;
  /** Requests answered with INTERNAL_SERVER_ERROR, i.e. bugs; tests assert it stays zero. */
  readonly internalErrors: number;
}

export const RESET_PATH = '/__sandbox/reset';

interface Outcome {
  status: number;
  text: string | null;
}

/** One authenticated, authorised call to a documented operation. */
interface Call {
  request: Request;
  url: URL;
  operation: Operation;
  params: Record<string, string>;
  key: ApiKeyRecord;
  requestId: string;
  clientRequestId: string | undefined;
  idempotencyKey: string | undefined;
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
  if (param === 'prompt') return 'Remove prompt from the body: the prompt is written by the separate set-prompt operation, which replaces the whole section list.';
  return param === undefined ? undefined : `Remove ${param} from the body: unknown fields are refused, never ignored.`;
}

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const contract = options.contract ?? bundledContract();
  const store = new Store(options.seed ?? loadSeedFile());
  const clock = options.clock ?? Date.now;
  const { limits } = contract;
  const limiter = new RateLimiter(
    {
      readsPerSecond: (options.rateLimit || undefined)?.readsPerSecond ?? limits.readRequestsPerSecond,
      writesPerSecond: (options.rateLimit || undefined)?.writesPerSecond ?? limits.writeRequestsPerSecond,
    },
    options.rateLimit !== false,
    clock,
  );
  const idempotency = new IdempotencyStore(limits.idempotencyTtlSeconds, clock, options.idempotencyBudgetBytes);
  const handlers = createHandlers(contract);
  const bodyLimits = { maxBytes: options.maxBodyBytes ?? DEFAULT_BODY_LIMITS.maxBytes, maxDepth: options.maxBodyDepth ?? DEFAULT_BODY_LIMITS.maxDepth };
  let internalErrors = 0;

  function respond(outcome: Outcome, headers: Headers): Response {
    if (outcome.text === null) return new Response(null, { status: outcome.status, headers });
    headers.set('Content-Type', 'application/json');
    // A client's non-ASCII X-Request-Id arrives one byte per character; Node writes a string body
    // in one piece with the headers, encoding both as UTF-8, which would encode those bytes a
    // second time. With a byte body the headers go out as the bytes that came in. (Only then: a
    // string body is the faster path for everything else.)
    const body = isAscii(headers.get('x-request-id') ?? '') ? outcome.text : new TextEncoder().encode(outcome.text);
    return new Response(body, { status: outcome.status, headers });
  }

  function errorOutcome(requestId: string, code: string, detail: Omit<Failure, 'error'> & { retryAfterSeconds?: number }): Outcome {
    const suggestion = detail.suggestion ?? (code === 'UNKNOWN_FIELD' ? unknownFieldSuggestion(detail.param) : undefined);
    const built = contract.buildError(code, {
      requestId,
      message: detail.message,
      ...(detail.param !== undefined ? { param: detail.param } : {}),
      ...(suggestion !== undefined ? { suggestion } : {}),
      ...(detail.errors ? { errors: detail.errors } : {}),
      ...(detail.retryAfterSeconds !== undefined ? { retryAfterSeconds: detail.retryAfterSeconds } : {}),
    });
    if (options.docUrl) built.body.error.doc_url = options.docUrl(code);
    return { status: built.status, text: JSON.stringify(built.body) };
  }

  /** Body, validation and handler: everything after the idempotency check. */
  async function execute(call: Call): Promise<Outcome> {
    const { request, url, operation, params, key, requestId, clientRequestId, idempotencyKey } = call;
    let body: Record<string, unknown> | undefined;
    let bodyValueCount: number | undefined;
    if (operation.requestBody) {
      const read = await readJsonBody(request, operation.requestBody.required, bodyLimits);
      if (!read.ok) return errorOutcome(requestId, read.code, { message: read.message });
      body = read.value;
      bodyValueCount = read.valueCount;
    }
    // Empty X-Request-Id and Idempotency-Key headers count as not sent.
    const headers: Record<string, string> = {};
    if (clientRequestId !== undefined) headers['X-Request-Id'] = clientRequestId;
    if (idempotencyKey !== undefined) headers['Idempotency-Key'] = idempotencyKey;
    const violations = contract.validateRequest(operation, { params, query: url.searchParams, headers, body, bodyValueCount });
    if (violations.length > 0) {
      const choice = contract.errorFor(violations, operation);
      return errorOutcome(requestId, choice.code, { message: choice.message, ...(choice.param !== undefined ? { param: choice.param } : {}), ...(choice.errors ? { errors: choice.errors } : {}) });
    }
    const team = store.team(key.team_id);
    const handler = handlers.get(operation.operationId)!;
    const result: HandlerResult = handler({
      team,
      key,
      params,
      query: url.searchParams,
      body: body ?? {},
      now: () => isoTimestamp(clock()),
      newId: (prefix) => issuedId(team, prefix),
    });
    if (isFailure(result)) return errorOutcome(requestId, result.error, result);
    return { status: result.status, text: result.body === undefined ? null : JSON.stringify(result.body) };
  }

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const method = request.method.toUpperCase();
    const clientRequestId = nonEmpty(request.headers.get('x-request-id'));
    const requestId = clientRequestId ?? generateRequestId();
    const idempotencyKey = nonEmpty(request.headers.get('idempotency-key'));
    const headers = new Headers({ 'X-Request-Id': requestId });
    if (idempotencyKey !== undefined) headers.set('Idempotency-Key', idempotencyKey);
    const fail = (code: string, detail: Omit<Failure, 'error'> & { retryAfterSeconds?: number }) => respond(errorOutcome(requestId, code, detail), headers);
    let ticket: IdempotencyTicket | undefined;
    try {
      const kind = limits.writeMethods.includes(method) ? 'write' : 'read';
      // One budget per key of the seed; every unknown, malformed or missing key shares one, so
      // made-up keys cannot grow the limiter's table.
      const token = bearerToken(request.headers);
      const rate = limiter.consume((token !== undefined && store.findKey(token)?.key) || UNKNOWN_KEY_BUCKET, kind);
      headers.set('X-RateLimit-Limit', String(rate.limit));
      headers.set('X-RateLimit-Remaining', String(rate.remaining));
      headers.set('X-RateLimit-Reset', String(rate.resetSeconds));

      const route = contract.matchRoute(method, url.pathname);
      if ('error' in route) {
        if (route.error === 'METHOD_NOT_ALLOWED') {
          headers.set('Allow', route.allowed.join(', '));
          return fail('METHOD_NOT_ALLOWED', { message: `${method} is not supported on ${clip(url.pathname)}; allowed: ${route.allowed.join(', ')}.` });
        }
        return fail('ENDPOINT_NOT_FOUND', { message: `No endpoint at ${method} ${clip(url.pathname)}.` });
      }
      const { operation, params } = route;
      if (!rate.allowed) {
        return fail('RATE_LIMIT_EXCEEDED', { message: `Rate limit exceeded: ${rate.limit} ${kind} requests per second.`, retryAfterSeconds: Math.max(1, rate.resetSeconds) });
      }
      const key = authenticate(request.headers, store);
      if ('code' in key) return fail(key.code, key);
      const refusal = authorize(operation, key);
      if (refusal) return fail(refusal.code, refusal);

      if (operation.class === 'write' && idempotencyKey !== undefined) {
        const outcome = idempotency.begin(key.key, idempotencyKey, method, url.pathname);
        const shown = previewValue(idempotencyKey);
        if (outcome.kind === 'reuse') return fail('IDEMPOTENCY_KEY_REUSE', { message: `Idempotency-Key ${shown} was already used for a different endpoint or method.`, param: 'Idempotency-Key' });
        if (outcome.kind === 'in-progress') return fail('OTHER_TRANSACTION_IN_PROGRESS', { message: `Another request with Idempotency-Key ${shown} is in progress; wait and retry.`, param: 'Idempotency-Key' });
        if (outcome.kind === 'busy') return fail('OTHER_TRANSACTION_IN_PROGRESS', { message: 'Too many requests with an Idempotency-Key are in progress at once; wait and retry.', param: 'Idempotency-Key' });
        if (outcome.kind === 'replay') {
          headers.set('Idempotency-Replayed', 'true');
          return respond(outcome.response, headers);
        }
        ticket = outcome.ticket;
      }
      const outcome = await execute({ request, url, operation, params, key, requestId, clientRequestId, idempotencyKey });
      ticket?.complete(outcome);
      return respond(outcome, headers);
    } catch (error) {
      ticket?.abandon();
      // A client that went away is not a bug of the sandbox, and there is no one to answer.
      if (request.signal.aborted) return fail('INVALID_REQUEST_BODY', { message: 'The client closed the request before it was complete.' });
      internalErrors++;
      console.error(`[sandbox] ${requestId} ${method} ${url.pathname}:`, error);
      return fail('INTERNAL_SERVER_ERROR', { message: `An unexpected error occurred (request ${requestId}).` });
    }
  }

  const app = new Hono();
  if (options.enableReset) {
    app.post(RESET_PATH, (c) => {
      sandbox.reset();
      return c.json({ data: { reset: true } });
    });
  }
  if (options.enableWebhookTrigger) app.post(WEBHOOK_TRIGGER_PATH, (c) => handleWebhookTrigger(c.req.raw, store));
  app.all('*', (c) => handle(c.req.raw));

  const sandbox: Sandbox = {
    app,
    fetch: async (request) => app.fetch(request),
    store,
    contract,
    reset() {
      store.reset();
      idempotency.reset();
      limiter.reset();
    },
    get internalErrors() {
      return internalErrors;
    },
  };
  return sandbox;
}
