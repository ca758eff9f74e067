// The checks every response goes through, whatever the scenario that provoked it. spec-runtime's
// checkResponse does most of the work (status documented, headers, body schema, error code listed
// for the operation and status, type, retryable, request_id = X-Request-Id); this adds what it
// does not know: no 5xx, Content-Type present where a body is documented, the headers required on
// every response even where the status is undocumented, the form of a generated request id, the
// echo of a sent X-Request-Id and Idempotency-Key, and retry_after_seconds on rate limits.
import type { Operation, ResponseProblem, ResponseProblemKind } from '@svc/spec-runtime';
import { type Exchange, errorOf, header } from '../http/exchange.js';
import type { CheckOutcome } from '../model.js';
import type { Spec } from '../spec.js';
import { responseVerdict } from '../verdict.js';
import { API_WIDE, type CheckId } from './catalogue.js';
import { errorFieldProblems, paginationProblems, rateLimitProblems } from './consistency.js';
import { errorDetailProblems } from './error-details.js';
import { mentionProblems } from './mentions.js';

const isList = (body: unknown): boolean => typeof body === 'object' && body !== null && 'pagination' in body;

const CHECK_OF_KIND: Record<Exclude<ResponseProblemKind, 'header'>, CheckId> = {
  status: 'response.status-documented',
  'content-type': 'response.content-type',
  body: 'response.schema',
  'error-code': 'response.error-code',
  'error-type': 'response.error-type',
  retryable: 'response.retryable',
  'request-id': 'response.request-id',
};

function kindToCheck(spec: Spec, problem: ResponseProblem): CheckId {
  if (problem.kind !== 'header') return CHECK_OF_KIND[problem.kind];
  const name = (problem.header ?? '').toLowerCase();
  if (name === spec.requestIdHeader.toLowerCase()) return 'response.request-id';
  if (spec.universalHeaders.some((h) => h.name.toLowerCase() === name)) return 'response.rate-limit-headers';
  if (name === spec.idempotencyKeyHeader.toLowerCase()) return 'response.idempotency-key-echo';
  return 'response.headers';
}

/**
 * The operation whose listed answers a response must be among: the one addressed or, for a method
 * a documented path does not have, an operation of that path (each lists the 405 it answers).
 */
function answeringOperation(spec: Spec, exchange: Exchange): Operation | null {
  if (exchange.operation) return exchange.operation;
  const path = exchange.request.path.split('?')[0] as string;
  const match = spec.contract.matchRoute(exchange.request.method, path);
  if (!('allowed' in match) || match.allowed[0] === undefined) return null;
  const sibling = spec.contract.matchRoute(match.allowed[0], path);
  return 'operation' in sibling ? sibling.operation : null;
}

/** `stateless`: the server is a mock (profile mock) that cannot echo what was asked. */
export function responseOutcomes(spec: Spec, exchange: Exchange, stateless = false): CheckOutcome[] {
  const operationId = exchange.operation?.operationId ?? API_WIDE;
  const failures = new Map<CheckId, string[]>();
  const fail = (check: CheckId, message: string) => failures.set(check, [...(failures.get(check) ?? []), message]);
  const applicable = new Set<CheckId>([
    'response.no-5xx',
    'response.status-documented',
    'response.schema',
    'response.headers',
    'response.rate-limit-headers',
    'response.request-id',
  ]);
  const where = `${exchange.request.method} ${exchange.request.path} → ${exchange.status}`;

  if (exchange.error !== undefined) {
    return [responseVerdict('response.transport', operationId, exchange.seq, [`${where}: ${exchange.error}`])];
  }
  if (exchange.status >= 500) fail('response.no-5xx', `${where}: a server error`);

  const headers = exchange.headers;
  const body = exchange.text === '' ? undefined : exchange.body;
  for (const problem of spec.contract.checkResponse(answeringOperation(spec, exchange), exchange.status, headers, body))
    fail(kindToCheck(spec, problem), problem.message);

  // A body where JSON is documented must say so (spec-runtime only checks a Content-Type that is present).
  if (body !== undefined) {
    applicable.add('response.content-type');
    const type = header(exchange, 'content-type');
    if (type === undefined) fail('response.content-type', `${where}: a body without Content-Type`);
  }

  // Headers the contract requires on every response: also on statuses the operation does not document.
  for (const h of spec.universalHeaders) {
    if (h.name.toLowerCase() === spec.requestIdHeader.toLowerCase()) continue;
    const value = header(exchange, h.name);
    const already = failures.get('response.rate-limit-headers')?.some((m) => m.includes(h.name)) ?? false;
    if (already) continue;
    if (value === undefined) fail('response.rate-limit-headers', `${where}: ${h.name} is missing`);
    else if (h.numeric && !/^\s*\d+(\.\d+)?\s*$/.test(value))
      fail('response.rate-limit-headers', `${where}: ${h.name}=${JSON.stringify(value)} is not numeric`);
  }

  // Request ids: generated ones have the documented form; a sent one comes back unchanged.
  const requestId = header(exchange, spec.requestIdHeader);
  const sent = exchange.request.requestId;
  const error = errorOf(exchange);
  if (requestId === undefined) {
    if (!failures.get('response.request-id')?.length)
      fail('response.request-id', `${where}: no ${spec.requestIdHeader} header`);
  } else if (sent === undefined && !spec.requestIdPattern.test(requestId)) {
    fail(
      'response.request-id',
      `${where}: ${spec.requestIdHeader} ${JSON.stringify(requestId)} does not match ${spec.requestIdPattern.source}`,
    );
  } else if (sent !== undefined && requestId !== sent) {
    fail(
      'response.request-id',
      `${where}: sent ${spec.requestIdHeader} ${JSON.stringify(sent)} but got ${JSON.stringify(requestId)}`,
    );
  }
  if (
    error &&
    sent === undefined &&
    typeof error.request_id === 'string' &&
    !spec.requestIdPattern.test(error.request_id)
  ) {
    fail(
      'response.request-id',
      `${where}: error.request_id ${JSON.stringify(error.request_id)} does not match ${spec.requestIdPattern.source}`,
    );
  }

  if (exchange.status >= 400 && error) {
    applicable.add('response.error-code').add('response.error-type').add('response.retryable');
    const entry = typeof error.code === 'string' ? spec.contract.catalogue.get(error.code) : undefined;
    if (entry?.type === 'rate_limit_error' || exchange.status === 429) {
      if (error.retryable !== true)
        fail(
          'response.retryable',
          `${where}: a rate-limit error must be retryable (got ${JSON.stringify(error.retryable)})`,
        );
      const after = error.retry_after_seconds;
      if (!(typeof after === 'number' && Number.isInteger(after) && after >= 0))
        fail(
          'response.retryable',
          `${where}: a rate-limit error must carry retry_after_seconds (got ${JSON.stringify(after)})`,
        );
    }
  }

  for (const problem of rateLimitProblems(spec, exchange))
    if (!failures.has('response.rate-limit-headers')) fail('response.rate-limit-headers', `${where}: ${problem}`);
  if (exchange.status >= 200 && exchange.status < 300 && isList(exchange.body)) {
    applicable.add('response.pagination');
    for (const problem of paginationProblems(exchange, stateless)) fail('response.pagination', `${where}: ${problem}`);
  }
  if (error) {
    applicable.add('response.error-fields');
    for (const problem of errorFieldProblems(spec, exchange)) fail('response.error-fields', `${where}: ${problem}`);
  }

  const sentKey = exchange.request.idempotencyKey;
  if (sentKey !== undefined) {
    applicable.add('response.idempotency-key-echo');
    const echoed = header(exchange, spec.idempotencyKeyHeader);
    if (echoed !== sentKey && !failures.has('response.idempotency-key-echo'))
      fail(
        'response.idempotency-key-echo',
        `${where}: sent ${spec.idempotencyKeyHeader} but ${echoed === undefined ? 'it was not echoed' : `got ${JSON.stringify(echoed)}`}`,
      );
  }

  // What an error field must say, and the mentions of what a stateful server holds: each where it applies.
  const said: Array<[CheckId, string[] | undefined]> = [
    ['response.error-details', errorDetailProblems(spec, exchange)],
    ['response.mentions', stateless ? undefined : mentionProblems(spec, exchange)],
  ];
  for (const [check, problems] of said) {
    if (problems) applicable.add(check);
    for (const problem of problems ?? []) fail(check, `${where}: ${problem}`);
  }

  return [...new Set([...applicable, ...failures.keys()])].map((check) =>
    responseVerdict(check, operationId, exchange.seq, failures.get(check) ?? []),
  );
}
