// The checks every response goes through, whatever the scenario that provoked it. spec-runtime's
// checkResponse does most of the work (status documented, headers, body schema, error code listed
// for the operation and status, type, retryable, request_id = X-Request-Id); this adds what it
// does not know: no 5xx, Content-Type present where a body is documented, the headers required on
// every response even where the status is undocumented, the form of a generated request id, the
// echo of a sent X-Request-Id and Idempotency-Key, and retry_after_seconds on rate limits.
import type { Operation, ResponseProblem, ResponseProblemKind } from '@svc/spec-runtime';
import { API_WIDE, type CheckId } from '../catalogue.js';
import { describeCheck } from '../check-descriptions.js';
import { type Exchange, errorOf, header } from '../http/exchange.js';
import type { Spec } from '../spec.js';
import type { CheckOutcome } from '../types.js';
import { responseVerdict } from '../verdict.js';
import { errorFieldProblems, paginationProblems, rateLimitProblems } from './consistency.js';
import { errorDetailProblems } from './error-details.js';
import { mentionProblems } from './mentions.js';

// The checks every response goes through, described once (the catalogue is written from these).
for (const check of [
  {
    id: 'response.no-5xx',
    title: 'Never a 5xx',
    source: 'a 5xx is a server failure whatever the input',
  },
  {
    id: 'response.status-documented',
    title: 'The status is one the operation lists, API-wide answers included',
    source: 'responses of the operation',
  },
  {
    id: 'response.content-type',
    title: 'Content-Type is application/json where a body is documented',
    source: 'response content',
  },
  {
    id: 'response.schema',
    title: 'The body validates against the documented schema (error bodies too)',
    source: 'response schema (Ajv 2020-12)',
  },
  {
    id: 'response.headers',
    title: 'Documented response headers are present and valid',
    source: 'response headers',
  },
  {
    id: 'response.rate-limit-headers',
    title: 'X-RateLimit-* are present and numeric on every response',
    source: 'headers required on every response',
  },
  {
    id: 'response.rate-limit-window',
    title:
      "X-RateLimit-Limit is the documented budget of the request's class; X-RateLimit-Remaining never rises inside one window (per key and class)",
    source: 'info.x-svc-limits + RateLimitLimitHeader/RateLimitRemainingHeader/RateLimitResetHeader',
  },
  {
    id: 'response.error-code',
    title: 'error.code is one the operation lists for that status',
    source: 'the error response code enum',
  },
  {
    id: 'response.error-type',
    title: 'error.type matches the code and the status',
    source: 'ErrorCode x-svc-error-type, ErrorType x-svc-status-of-type',
  },
  {
    id: 'response.retryable',
    title: 'retryable as the catalogue says (true for rate limits, with retry_after_seconds)',
    source: 'ErrorCode x-svc-retryable',
  },
  {
    id: 'response.request-id',
    title: 'request id well-formed, in the header and equal to error.request_id',
    source: 'info.x-svc-limits.request_id_pattern, RequestIdHeader',
  },
  {
    id: 'response.idempotency-key-echo',
    title: 'Idempotency-Key is echoed on the response to a request that sent one',
    source: 'IdempotencyKeyHeader',
  },
  {
    id: 'response.transport',
    title: 'The server answers (no connection failure or timeout)',
    source: '',
  },
  {
    id: 'response.pagination',
    title:
      "The pagination block adds up: total_pages, has_more and the page's length follow from page, size and total_count; page and size echo the request",
    source: 'Pagination (list response convention)',
  },
  {
    id: 'response.error-fields',
    title: 'Fields the description allows only on some errors appear only there (retry_after_seconds on rate limits)',
    source: 'ApiError retry_after_seconds',
  },
  {
    id: 'response.error-details',
    title:
      'An error field says what the description says it says, on every error: the scope named in the message of API_KEY_INSUFFICIENT_SCOPE, the failing value quoted by the message of a not-found code, E.164 in the suggestion of INVALID_PHONE_FORMAT; param names a parameter of the request; endpoints a suggestion names are operations of the contract',
    source: 'ErrorCode x-svc-codes x-svc-detail-rules + the error body field table',
    enforces: [
      'x-svc-detail-rules API_KEY_INSUFFICIENT_SCOPE message names required-scope',
      'x-svc-detail-rules INVALID_PHONE_FORMAT suggestion contains E.164',
      'x-svc-detail-rules CONVERSATION_ITEM_NOT_FOUND message names failing-value',
      'x-svc-detail-rules MEMBER_NOT_FOUND message names failing-value',
      'x-svc-detail-rules CALL_NOT_FOUND message names failing-value',
      'x-svc-detail-rules TEXT_MESSAGE_NOT_FOUND message names failing-value',
      'x-svc-detail-rules PHONE_NUMBER_NOT_FOUND message names failing-value',
      'x-svc-detail-rules TAG_NOT_FOUND message names failing-value',
      'x-svc-detail-rules SUMMARY_TEMPLATE_NOT_FOUND message names failing-value',
      'x-svc-detail-rules PERSON_NOT_FOUND message names failing-value',
      'x-svc-detail-rules NOTE_NOT_FOUND message names failing-value',
      'x-svc-detail-rules THREAD_NOT_FOUND message names failing-value',
      'x-svc-detail-rules ATTRIBUTE_NOT_FOUND message names failing-value',
      'x-svc-detail-rules ASSIGNEE_NOT_FOUND message names failing-value',
    ],
  },
  {
    id: 'response.rate-limit-budget',
    title:
      "No 429 while the run's own traffic on its key is within the documented per-second budget of the request's class, under any windowing (the run owns its key: no --shared-key, no --burst)",
    source: 'info.x-svc-limits + the 429 response',
  },
  {
    id: 'response.mentions',
    title:
      'Every note and comment read lists in mentions exactly the users its content mentions inline (@[Name](usr-…))',
    source: 'x-svc-mentions (ConversationNote, ThreadComment) + NoteMention x-svc-inline-syntax',
    enforces: [
      'x-svc-mentions ConversationNote content lists mentions',
      'x-svc-mentions ThreadComment content lists mentions',
      'x-svc-inline-syntax NoteMention',
    ],
  },
])
  describeCheck(check);

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

/** What one response's checks found: the checks that apply, and the failures of each in order. */
class Findings {
  readonly failures = new Map<CheckId, string[]>();
  /** The headers each check has failed on (`check header`, lower case): a problem known by its structure, never its text. */
  private readonly failedHeaders = new Set<string>();
  readonly applicable = new Set<CheckId>([
    'response.no-5xx',
    'response.status-documented',
    'response.schema',
    'response.headers',
    'response.rate-limit-headers',
    'response.request-id',
  ]);
  constructor(readonly where: string) {}

  fail(check: CheckId, message: string, header?: string): void {
    this.failures.set(check, [...(this.failures.get(check) ?? []), message]);
    if (header !== undefined) this.failedHeaders.add(`${check} ${header.toLowerCase()}`);
  }

  /** Whether the check already failed on this header. */
  failedOn(check: CheckId, header: string): boolean {
    return this.failedHeaders.has(`${check} ${header.toLowerCase()}`);
  }

  /** A check that applies to this response: it passes unless it fails. */
  applies(...checks: CheckId[]): void {
    for (const check of checks) this.applicable.add(check);
  }

  failed(check: CheckId): boolean {
    return this.failures.has(check);
  }

  verdicts(operationId: string, seq: number): CheckOutcome[] {
    return [...new Set([...this.applicable, ...this.failures.keys()])].map((check) =>
      responseVerdict(check, operationId, seq, this.failures.get(check) ?? []),
    );
  }
}

/** `stateless`: the server is a mock (profile mock) that cannot echo what was asked. */
export function responseOutcomes(spec: Spec, exchange: Exchange, stateless = false): CheckOutcome[] {
  const operationId = exchange.operation?.operationId ?? API_WIDE;
  const where = `${exchange.request.method} ${exchange.request.path} → ${exchange.status}`;
  if (exchange.error !== undefined) {
    return [responseVerdict('response.transport', operationId, exchange.seq, [`${where}: ${exchange.error}`])];
  }
  const found = new Findings(where);
  if (exchange.status >= 500) found.fail('response.no-5xx', `${where}: a server error`);
  const body = exchange.text === '' ? undefined : exchange.body;
  for (const problem of spec.contract.checkResponse(
    answeringOperation(spec, exchange),
    exchange.status,
    exchange.headers,
    body,
  ))
    found.fail(kindToCheck(spec, problem), problem.message, problem.kind === 'header' ? problem.header : undefined);
  // A body where JSON is documented must say so (spec-runtime only checks a Content-Type that is present).
  if (body !== undefined) {
    found.applies('response.content-type');
    if (header(exchange, 'content-type') === undefined)
      found.fail('response.content-type', `${where}: a body without Content-Type`);
  }
  checkUniversalHeaders(spec, exchange, found);
  checkRequestIds(spec, exchange, found);
  checkRateLimitError(spec, exchange, found);
  for (const problem of rateLimitProblems(spec, exchange))
    if (!found.failed('response.rate-limit-headers')) found.fail('response.rate-limit-headers', `${where}: ${problem}`);
  checkPaginationAndErrorFields(spec, exchange, found, stateless);
  checkIdempotencyKeyEcho(spec, exchange, found);
  checkWhatIsSaid(spec, exchange, found, stateless);
  return found.verdicts(operationId, exchange.seq);
}

/** What an error field must say, and the mentions of what a stateful server holds: each where it applies. */
function checkWhatIsSaid(spec: Spec, exchange: Exchange, found: Findings, stateless: boolean): void {
  const said: Array<[CheckId, string[] | undefined]> = [
    ['response.error-details', errorDetailProblems(spec, exchange)],
    ['response.mentions', stateless ? undefined : mentionProblems(spec, exchange)],
  ];
  for (const [check, problems] of said) {
    if (problems) found.applies(check);
    for (const problem of problems ?? []) found.fail(check, `${found.where}: ${problem}`);
  }
}

/** Headers the contract requires on every response: also on statuses the operation does not document. */
function checkUniversalHeaders(spec: Spec, exchange: Exchange, found: Findings): void {
  const { where } = found;
  for (const h of spec.universalHeaders) {
    if (h.name.toLowerCase() === spec.requestIdHeader.toLowerCase()) continue;
    const value = header(exchange, h.name);
    if (found.failedOn('response.rate-limit-headers', h.name)) continue;
    if (value === undefined) found.fail('response.rate-limit-headers', `${where}: ${h.name} is missing`, h.name);
    else if (h.numeric && !/^\s*\d+(\.\d+)?\s*$/.test(value))
      found.fail('response.rate-limit-headers', `${where}: ${h.name}=${JSON.stringify(value)} is not numeric`, h.name);
  }
}

/** Request ids: generated ones have the documented form; a sent one comes back unchanged. */
function checkRequestIds(spec: Spec, exchange: Exchange, found: Findings): void {
  const { where } = found;
  const name = spec.requestIdHeader;
  const requestId = header(exchange, name);
  const sent = exchange.request.requestId;
  const pattern = spec.requestIdPattern;
  if (requestId === undefined) {
    if (!found.failures.get('response.request-id')?.length)
      found.fail('response.request-id', `${where}: no ${name} header`);
  } else if (sent === undefined && !pattern.test(requestId)) {
    found.fail(
      'response.request-id',
      `${where}: ${name} ${JSON.stringify(requestId)} does not match ${pattern.source}`,
    );
  } else if (sent !== undefined && requestId !== sent) {
    found.fail(
      'response.request-id',
      `${where}: sent ${name} ${JSON.stringify(sent)} but got ${JSON.stringify(requestId)}`,
    );
  }
  const error = errorOf(exchange);
  if (error && sent === undefined && typeof error.request_id === 'string' && !pattern.test(error.request_id)) {
    found.fail(
      'response.request-id',
      `${where}: error.request_id ${JSON.stringify(error.request_id)} does not match ${pattern.source}`,
    );
  }
}

/** An error answer's code, type and retryable apply; a rate-limit error is retryable and says when. */
function checkRateLimitError(spec: Spec, exchange: Exchange, found: Findings): void {
  const error = errorOf(exchange);
  if (exchange.status < 400 || !error) return;
  const { where } = found;
  found.applies('response.error-code', 'response.error-type', 'response.retryable');
  const entry = typeof error.code === 'string' ? spec.contract.catalogue.get(error.code) : undefined;
  if (entry?.type !== 'rate_limit_error' && exchange.status !== 429) return;
  if (error.retryable !== true)
    found.fail(
      'response.retryable',
      `${where}: a rate-limit error must be retryable (got ${JSON.stringify(error.retryable)})`,
    );
  const after = error.retry_after_seconds;
  if (!(typeof after === 'number' && Number.isInteger(after) && after >= 0))
    found.fail(
      'response.retryable',
      `${where}: a rate-limit error must carry retry_after_seconds (got ${JSON.stringify(after)})`,
    );
}

/** A successful list's pagination, and an error body's fields, against what the contract says. */
function checkPaginationAndErrorFields(spec: Spec, exchange: Exchange, found: Findings, stateless: boolean): void {
  const { where } = found;
  if (exchange.status >= 200 && exchange.status < 300 && isList(exchange.body)) {
    found.applies('response.pagination');
    for (const problem of paginationProblems(exchange, stateless))
      found.fail('response.pagination', `${where}: ${problem}`);
  }
  if (errorOf(exchange)) {
    found.applies('response.error-fields');
    for (const problem of errorFieldProblems(spec, exchange))
      found.fail('response.error-fields', `${where}: ${problem}`);
  }
}

/** A sent Idempotency-Key comes back as it was sent. */
function checkIdempotencyKeyEcho(spec: Spec, exchange: Exchange, found: Findings): void {
  const sentKey = exchange.request.idempotencyKey;
  if (sentKey === undefined) return;
  found.applies('response.idempotency-key-echo');
  const echoed = header(exchange, spec.idempotencyKeyHeader);
  if (echoed !== sentKey && !found.failed('response.idempotency-key-echo'))
    found.fail(
      'response.idempotency-key-echo',
      `${found.where}: sent ${spec.idempotencyKeyHeader} but ${echoed === undefined ? 'it was not echoed' : `got ${JSON.stringify(echoed)}`}`,
    );
}
