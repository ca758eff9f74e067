// The checks every response goes through, whatever the scenario that provoked it: each an entry
// (entry.ts), a pure function of the response seen, declared in the order their outcomes are
// reported. spec-runtime's checkResponse does most of the work (status documented, headers, body
// schema, error code listed for the operation and status, type, retryable, request_id =
// X-Request-Id): each check takes the problems of its own kinds and headers from it; the entries
// add what it does not know: no 5xx, Content-Type present where a body is documented, the headers
// required on every response even where the status is undocumented, the form of a generated
// request id, the echo of a sent X-Request-Id and Idempotency-Key, retry_after_seconds on rate
// limits, pagination, error fields, what an error says and the mentions of what is read.
import type { Operation, ResponseProblem, ResponseProblemKind } from '@svc/spec-runtime';
import { API_WIDE } from '../catalogue.js';
import { type Exchange, errorOf, header } from '../http/exchange.js';
import type { Spec } from '../spec.js';
import type { CheckOutcome } from '../types.js';
import { responseVerdict } from '../verdict.js';
import { errorFieldProblems, paginationProblems, rateLimitProblems } from './consistency.js';
import { exchangeCheck, exchangeChecks, headersOwnedBy, type Seen } from './entry.js';
import { errorDetailProblems } from './error-details.js';
import { errorMessageProblems } from './error-message.js';
import { idKindProblems } from './id-kinds.js';
import { mentionProblems } from './mentions.js';
import { selectionProblems } from './selection.js';

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

/** checkResponse's problems of one response: computed once, however many checks take theirs from it. */
const answered = new WeakMap<Exchange, ResponseProblem[]>();
function contractProblems({ spec, exchange, body }: Seen): ResponseProblem[] {
  let problems = answered.get(exchange);
  if (!problems) {
    problems = spec.contract.checkResponse(answeringOperation(spec, exchange), exchange.status, exchange.headers, body);
    answered.set(exchange, problems);
  }
  return problems;
}

/** The check's share of checkResponse's problems: those of its kinds, and header problems on the headers it owns. */
function fromContract(seen: Seen, kinds: readonly ResponseProblemKind[], headers = new Set<string>()): string[] {
  return contractProblems(seen)
    .filter((p) => kinds.includes(p.kind) || (p.kind === 'header' && headers.has((p.header ?? '').toLowerCase())))
    .map((p) => p.message);
}

const ownHeaders = (seen: Seen, check: string) => headersOwnedBy(seen.spec, [check]);
const isError = ({ exchange }: Seen) => exchange.status >= 400 && errorOf(exchange) !== undefined;
const isList = (body: unknown): boolean => typeof body === 'object' && body !== null && 'pagination' in body;
/** A check that applies only sometimes: its problems where it applies, and spec-runtime's wherever it found some. */
const whereApplies = (applies: boolean, problems: string[]) => (applies || problems.length > 0 ? problems : undefined);
const at = (seen: Seen, problems: readonly string[]) => problems.map((p) => `${seen.where}: ${p}`);

exchangeCheck({
  id: 'response.transport',
  title: 'The server answers (no connection failure or timeout)',
  source: '',
  precondition: 'any request sent',
  withoutAnswer: true,
  problems: (seen) => [`${seen.where}: ${seen.exchange.error}`],
});

exchangeCheck({
  id: 'response.no-5xx',
  title: 'Never a 5xx',
  source: 'a 5xx is a server failure whatever the input',
  precondition: 'any answer',
  problems: (seen) => (seen.exchange.status >= 500 ? [`${seen.where}: a server error`] : []),
});

exchangeCheck({
  id: 'response.status-documented',
  title: 'The status is one the operation lists, API-wide answers included',
  source: 'responses of the operation',
  precondition: 'any answer',
  problems: (seen) => fromContract(seen, ['status']),
});

exchangeCheck({
  id: 'response.schema',
  title: 'The body validates against the documented schema (error bodies too)',
  source: 'response schema (Ajv 2020-12)',
  precondition: 'any answer whose status documents a body (error bodies too)',
  problems: (seen) => fromContract(seen, ['body']),
});

const HEADER_OWNERS = ['response.request-id', 'response.rate-limit-headers', 'response.idempotency-key-echo'];

exchangeCheck({
  id: 'response.headers',
  title: 'Documented response headers are present and valid',
  source: 'response headers',
  precondition: 'any answer whose status documents headers',
  leavesHeaders: HEADER_OWNERS,
  problems: (seen) => {
    const left = headersOwnedBy(seen.spec, HEADER_OWNERS);
    return contractProblems(seen)
      .filter((p) => p.kind === 'header' && !left.has((p.header ?? '').toLowerCase()))
      .map((p) => p.message);
  },
});

exchangeCheck({
  id: 'response.rate-limit-headers',
  title: 'X-RateLimit-* are present and numeric on every response',
  source: 'headers required on every response',
  precondition: 'any answer',
  // Every header required on every response, the request id aside (response.request-id owns it).
  ownsHeaders: (spec) =>
    spec.universalHeaders
      .map((h) => h.name)
      .filter((name) => name.toLowerCase() !== spec.requestIdHeader.toLowerCase()),
  problems: (seen) => {
    const found = fromContract(seen, [], ownHeaders(seen, 'response.rate-limit-headers'));
    // A header spec-runtime already found wrong is reported once, by its name.
    const reported = new Set(
      contractProblems(seen)
        .filter((p) => p.kind === 'header')
        .map((p) => (p.header ?? '').toLowerCase()),
    );
    for (const h of seen.spec.universalHeaders) {
      if (h.name.toLowerCase() === seen.spec.requestIdHeader.toLowerCase() || reported.has(h.name.toLowerCase()))
        continue;
      const value = header(seen.exchange, h.name);
      if (value === undefined) found.push(`${seen.where}: ${h.name} is missing`);
      else if (h.numeric && !/^\s*\d+(\.\d+)?\s*$/.test(value))
        found.push(`${seen.where}: ${h.name}=${JSON.stringify(value)} is not numeric`);
    }
    // Whether the headers agree with each other is asked only of headers present and well-formed: the first disagreement.
    return found.length > 0 ? found : at(seen, rateLimitProblems(seen.spec, seen.exchange).slice(0, 1));
  },
});

exchangeCheck({
  id: 'response.request-id',
  title: 'request id well-formed, in the header and equal to error.request_id',
  source: 'info.x-svc-limits.request_id_pattern, RequestIdHeader',
  precondition: 'any answer',
  ownsHeaders: (spec) => [spec.requestIdHeader],
  problems: (seen) => {
    const found = fromContract(seen, ['request-id'], ownHeaders(seen, 'response.request-id'));
    return [...found, ...requestIdProblems(seen, found.length > 0)];
  },
});

/** Request ids: generated ones have the documented form; a sent one comes back unchanged. */
function requestIdProblems({ spec, exchange, where }: Seen, headerReported: boolean): string[] {
  const found: string[] = [];
  const name = spec.requestIdHeader;
  const requestId = header(exchange, name);
  const sent = exchange.request.requestId;
  const pattern = spec.requestIdPattern;
  if (requestId === undefined) {
    if (!headerReported) found.push(`${where}: no ${name} header`);
  } else if (sent === undefined && !pattern.test(requestId)) {
    found.push(`${where}: ${name} ${JSON.stringify(requestId)} does not match ${pattern.source}`);
  } else if (sent !== undefined && requestId !== sent) {
    found.push(`${where}: sent ${name} ${JSON.stringify(sent)} but got ${JSON.stringify(requestId)}`);
  }
  const error = errorOf(exchange);
  if (error && sent === undefined && typeof error.request_id === 'string' && !pattern.test(error.request_id))
    found.push(`${where}: error.request_id ${JSON.stringify(error.request_id)} does not match ${pattern.source}`);
  return found;
}

exchangeCheck({
  id: 'response.content-type',
  title: 'Content-Type is application/json where a body is documented',
  source: 'response content',
  precondition: 'any answer whose status documents a body',
  // A body where JSON is documented must say so (spec-runtime only checks a Content-Type that is present).
  problems: (seen) => {
    const found = fromContract(seen, ['content-type']);
    if (seen.body !== undefined && header(seen.exchange, 'content-type') === undefined)
      found.push(`${seen.where}: a body without Content-Type`);
    return whereApplies(seen.body !== undefined, found);
  },
});

exchangeCheck({
  id: 'response.error-code',
  title: 'error.code is one the operation lists for that status',
  source: 'the error response code enum',
  precondition: 'any error answer',
  problems: (seen) => whereApplies(isError(seen), fromContract(seen, ['error-code'])),
});

exchangeCheck({
  id: 'response.error-type',
  title: 'error.type matches the code and the status',
  source: 'ErrorCode x-svc-error-type, ErrorType x-svc-status-of-type',
  precondition: 'any error answer',
  problems: (seen) => whereApplies(isError(seen), fromContract(seen, ['error-type'])),
});

exchangeCheck({
  id: 'response.retryable',
  title: 'retryable as the catalogue says (true for rate limits, with retry_after_seconds)',
  source: 'ErrorCode x-svc-retryable',
  precondition: 'any error answer',
  problems: (seen) =>
    whereApplies(isError(seen), [...fromContract(seen, ['retryable']), ...rateLimitErrorProblems(seen)]),
});

/** A rate-limit error is retryable and says when. */
function rateLimitErrorProblems(seen: Seen): string[] {
  const { spec, exchange, where } = seen;
  const error = errorOf(exchange);
  if (!error || !isError(seen)) return [];
  const entry = typeof error.code === 'string' ? spec.contract.catalogue.get(error.code) : undefined;
  if (entry?.type !== 'rate_limit_error' && exchange.status !== 429) return [];
  const found: string[] = [];
  if (error.retryable !== true)
    found.push(`${where}: a rate-limit error must be retryable (got ${JSON.stringify(error.retryable)})`);
  const after = error.retry_after_seconds;
  if (!(typeof after === 'number' && Number.isInteger(after) && after >= 0))
    found.push(`${where}: a rate-limit error must carry retry_after_seconds (got ${JSON.stringify(after)})`);
  return found;
}

exchangeCheck({
  id: 'response.pagination',
  title:
    "The pagination block adds up: total_pages, has_more and the page's length follow from page, size and total_count; page and size echo the request",
  source: 'Pagination (list response convention)',
  precondition: 'any answer of a paged list',
  problems: (seen) => {
    const { exchange } = seen;
    const applies = exchange.status >= 200 && exchange.status < 300 && isList(exchange.body);
    return applies ? at(seen, paginationProblems(exchange, seen.stateless)) : undefined;
  },
});

exchangeCheck({
  id: 'response.error-fields',
  title: 'Fields the description allows only on some errors appear only there (retry_after_seconds on rate limits)',
  source: 'ApiError retry_after_seconds',
  precondition: 'any error answer',
  problems: (seen) => (errorOf(seen.exchange) ? at(seen, errorFieldProblems(seen.spec, seen.exchange)) : undefined),
});

exchangeCheck({
  id: 'response.idempotency-key-echo',
  title: 'Idempotency-Key is echoed on the response to a request that sent one',
  source: 'IdempotencyKeyHeader',
  precondition: 'any request sent with an Idempotency-Key',
  ownsHeaders: (spec) => [spec.idempotencyKeyHeader],
  problems: (seen) => {
    const { spec, exchange } = seen;
    const found = fromContract(seen, [], ownHeaders(seen, 'response.idempotency-key-echo'));
    const sentKey = exchange.request.idempotencyKey;
    if (sentKey === undefined) return whereApplies(false, found);
    const echoed = header(exchange, spec.idempotencyKeyHeader);
    if (echoed !== sentKey && found.length === 0)
      found.push(
        `${seen.where}: sent ${spec.idempotencyKeyHeader} but ${echoed === undefined ? 'it was not echoed' : `got ${JSON.stringify(echoed)}`}`,
      );
    return found;
  },
});

exchangeCheck({
  id: 'response.replayed-stored-only',
  title:
    'Idempotency-Replayed: true only on a stored response: a successful keyed write replayed, never an error (a failed request is not stored) nor an answer to a request without a key',
  source:
    'IdempotencyKeyParameter ("returns the stored response with the header Idempotency-Replayed: true"; "When the request fails (4xx or 5xx), the key is not consumed"); Limits: idempotency storage of successful keyed writes',
  precondition:
    'an error answer, or one to a request sent without an Idempotency-Key (a keyed request that failed, sent again)',
  problems: (seen) => {
    const { spec, exchange } = seen;
    const [unkeyed, failed] = [exchange.request.idempotencyKey === undefined, exchange.status >= 400];
    const replayed = header(exchange, spec.idempotencyReplayedHeader)?.toLowerCase() === 'true';
    const why = unkeyed
      ? `a request sent without an ${spec.idempotencyKeyHeader}`
      : `a ${exchange.status} (only successful keyed writes are stored, so only they are replayed)`;
    const applies = unkeyed || failed;
    return whereApplies(
      applies,
      applies && replayed ? [`${seen.where}: ${spec.idempotencyReplayedHeader}: true on ${why}`] : [],
    );
  },
});

exchangeCheck({
  id: 'response.error-details',
  title:
    "An error field says what the description says it says, on every error: the scope named in the message of API_KEY_INSUFFICIENT_SCOPE, the failing value quoted by the message of a not-found code (its param naming one the request sent) and the unknown field named by UNKNOWN_FIELD, E.164 in the suggestion of INVALID_PHONE_FORMAT, the next step a code's meaning gives in its suggestion where one is given (Api-Key, GET /v2/api/numbers, template_key, GET /v2/api/threads); param names a parameter of the request; endpoints a suggestion names are operations of the contract; doc_url links to no other error's page",
  source: 'ErrorCode x-svc-codes x-svc-detail-rules + the error body field table',
  precondition:
    'an error whose field the description says something about, provoked by any check (a scope refusal, INVALID_PHONE_FORMAT, a not-found naming what was sent, a param, a suggestion naming endpoints, a doc_url)',
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
    'x-svc-detail-rules UNKNOWN_FIELD message names failing-field',
    'x-svc-detail-rules UNAUTHORIZED suggestion contains Api-Key',
    'x-svc-detail-rules SVC_NUMBER_FORBIDDEN suggestion contains /v2/api/numbers',
    'x-svc-detail-rules SUMMARY_TEMPLATE_KEY_REQUIRED suggestion contains template_key',
    'x-svc-detail-rules THREAD_ALREADY_EXISTS suggestion contains /v2/api/threads',
  ],
  problems: (seen) => {
    const problems = errorDetailProblems(seen.spec, seen.exchange);
    return problems && at(seen, problems);
  },
});

exchangeCheck({
  id: 'response.error-message',
  title:
    'Every error message is human-readable and includes the failing value: never blank, and quoting the value of the path parameter, top-level body string or header (not Authorization) its param names (writes and conflicts included)',
  source:
    'Errors, Error body: "message | string | Human-readable, includes the failing value" (ApiErrorFields message)',
  precondition:
    'any error answer (a blank message fails); an error whose param names one value the request sent, a path parameter, a top-level body string or a header other than Authorization, of at most 64 characters, or a request to a path no endpoint is at (the message must quote it)',
  problems: (seen) => {
    const problems = errorMessageProblems(seen.exchange, seen.stateless, seen.spec.contract, seen.spec);
    return problems && at(seen, problems);
  },
});

exchangeCheck({
  id: 'response.mentions',
  title: 'Every note and comment read lists in mentions exactly the users its content mentions inline (@[Name](usr-…))',
  source: 'x-svc-mentions (ConversationNote, ThreadComment) + NoteMention x-svc-inline-syntax',
  precondition: 'a note or comment read whose content mentions users inline (threads.mentions writes one)',
  enforces: [
    'x-svc-mentions ConversationNote content lists mentions',
    'x-svc-mentions ThreadComment content lists mentions',
    'x-svc-inline-syntax NoteMention',
  ],
  // A stateless mock answers its examples: what it lists cannot follow what was written.
  problems: (seen) => {
    const problems = seen.stateless ? undefined : mentionProblems(seen.spec, seen.exchange);
    return problems && at(seen, problems);
  },
});

exchangeCheck({
  id: 'response.id-kind',
  title:
    "A thread's entity_type is the kind its entity_id's prefix names (cll- CALL, msg- TEXT_MESSAGE, not- CONVERSATION_NOTE)",
  source:
    'Identifier prefixes (Call cll-, Text message msg-, Conversation note not-) + Thread entity_type / entity_id; ThreadEntityType and ThreadEntityId list them in the same order',
  precondition: 'a thread answered (created, read, or found by its item), of any kind',
  problems: (seen) => {
    const problems = idKindProblems(seen.spec, seen.exchange);
    return problems && at(seen, problems);
  },
});

exchangeCheck({
  id: 'response.selection',
  title:
    "A read answers only what its parameters selected: entries carrying a field named as a path or query parameter hold the value sent (a conversation's notes, a thread by its item, a resource by id); and two conversations of different contact_number never show the same last_item (an item is of its contact's conversation)",
  source:
    'GET /v2/api/conversations/{contact_number}/notes "Lists a conversation\'s notes" (ConversationNote contact_number "Contact\'s phone number"); GET /v2/api/threads "finds the thread of an item by query parameters entity_type and entity_id"; a read by id answers { data: <resource> } of that id; Conversation list entry "contact_number, ..., last_item" (conversations: "calls and SMS in one timeline")',
  precondition:
    'a read selecting by a parameter whose answer holds entries: the notes of every conversation discovery lists, every note, thread and item read by id, the thread of an item; a page of two or more conversations',
  // A stateless mock answers its examples whatever was selected.
  problems: (seen) => {
    const problems = seen.stateless ? undefined : selectionProblems(seen.exchange);
    return problems && at(seen, problems);
  },
});

/**
 * The outcomes of one response: each per-exchange check's, in declaration order, where it applies.
 * A response that did not arrive is judged only by the checks of that case (response.transport).
 * `stateless`: the server is a mock (profile mock) that cannot echo what was asked.
 */
export function responseOutcomes(spec: Spec, exchange: Exchange, stateless = false): CheckOutcome[] {
  const operationId = exchange.operation?.operationId ?? API_WIDE;
  const seen: Seen = {
    spec,
    exchange,
    body: exchange.text === '' ? undefined : exchange.body,
    where: `${exchange.request.method} ${exchange.request.path} → ${exchange.status}`,
    stateless,
  };
  const answered = exchange.error === undefined;
  return exchangeChecks().flatMap((check) => {
    if ((check.withoutAnswer === true) === answered) return [];
    const problems = check.problems(seen);
    return problems ? [responseVerdict(check.id, operationId, exchange.seq, problems)] : [];
  });
}
