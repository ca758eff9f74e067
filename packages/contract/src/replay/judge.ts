// A new answer to a failure's request, judged by the same check: a per-exchange check is called
// again on it (responseOutcomes, the one list of them, filtered to the failed check's id); a
// scenario rule by the answer it expected (a status with its codes, or any 2xx). A rule that
// judged more than one answer or what the server holds carries no single expected answer: it is
// run again instead (rerun.ts). The checks of a sequence of answers (the rate windows, the run's
// budget) and a 429 the run's pace brought about are not replayed: the reason says so.
import type { Operation } from '@svc/spec-runtime';
import { exchangeChecks } from '../exchange-checks/entry.js';
import { responseOutcomes } from '../exchange-checks/response.js';
import { answerProblems } from '../expectations/answer-fits.js';
import { type ApiRequest, type Exchange, parseBody } from '../http/exchange.js';
import type { Failure } from '../report/shape.js';
import type { Spec } from '../spec.js';
import type { FailedExpectation } from '../types.js';

/** What came back (no status: no answer, `error` says why). */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  error?: string;
}

export type Judged = { passed: true } | { passed: false; problems: string[] } | { notJudged: string };

/** Why a rate window, the run's budget or a 429 is not replayed: its meaning is the run's own pace. */
export const RATE_WINDOW = 'neither one request again nor its rule run alone keeps the pace of the run that showed it';

/** The per-exchange checks that judge a sequence of answers (the run's windows and budget), not one. */
const SEQUENCE_CHECKS: Record<string, string> = {
  'response.rate-limit-window': 'compares each answer with the one before it in its window',
  'response.rate-limit-budget': "judges the run's own sequence of requests against its budget",
};

/** Whether the failure is replayed by running its rule again, alone (a rule that judged a state: rerun.ts). */
export const runsRuleAgain = (failure: Pick<Failure, 'expected'>): boolean => failure.expected?.judge === 'state';

/** Why a failure cannot be replayed, or undefined when it can (by a new answer, or by its rule run again). */
export function notJudgedWhy(failure: Pick<Failure, 'check' | 'expected' | 'request' | 'status'>): string | undefined {
  const expected = failure.expected;
  const sequence = SEQUENCE_CHECKS[failure.check];
  if (sequence) return `the check ${sequence}: ${RATE_WINDOW}`;
  if (failure.status === 429) return `the answer was a 429, which the run's own pace brought about: ${RATE_WINDOW}`;
  if (runsRuleAgain(failure)) return undefined;
  if (!failure.request) return 'the failure points at no request';
  if (!expected) return 'the report carries no expectation for it (a report of an older version, or a crash)';
  if (expected.judge === 'exchange' && !exchangeChecks().some((c) => c.id === failure.check))
    return `${failure.check} is no per-exchange check of this version`;
  return undefined;
}

/** The exchange the checks see: the request as sent (query, JSON body, request id, idempotency key) and the answer. */
export function exchangeOf(
  spec: Spec,
  sent: { method: string; path: string; headers: Record<string, string>; body?: string },
  answer: Answer,
): Exchange {
  const [pathname = '', search = ''] = sent.path.split('?');
  const header = (name: string) =>
    Object.entries(sent.headers).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
  const requestId = header(spec.requestIdHeader);
  const idempotencyKey = header(spec.idempotencyKeyHeader);
  const request: ApiRequest = {
    method: sent.method,
    path: pathname,
    ...(search ? { query: Object.fromEntries(new URLSearchParams(search)) } : {}),
    ...(sent.body !== undefined ? { body: parseBody(sent.body) } : {}),
    ...(requestId !== undefined ? { requestId } : {}),
    ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
  };
  const match = spec.contract.matchRoute(sent.method, pathname);
  const operation: Operation | null = 'operation' in match ? match.operation : null;
  return {
    seq: 1,
    request,
    url: sent.path,
    operation,
    status: answer.status,
    headers: answer.headers,
    text: answer.text,
    body: parseBody(answer.text),
    durationMs: 0,
    ...(answer.error !== undefined ? { error: answer.error } : {}),
  };
}

function exchangeCheckProblems(spec: Spec, check: string, exchange: Exchange, stateless: boolean): string[] {
  const outcome = responseOutcomes(spec, exchange, stateless).find((o) => o.check === check);
  // A check that does not apply to the new answer (an error check on a success) finds nothing in it.
  return outcome?.status === 'failed' ? [outcome.detail ?? 'failed'] : [];
}

/** The new answer judged by the failure's own check (see the head of this file). */
export function judge(
  spec: Spec,
  failure: Pick<Failure, 'check' | 'expected' | 'request' | 'status'>,
  exchange: Exchange,
  stateless: boolean,
): Judged {
  const why = runsRuleAgain(failure) ? 'its rule judged a state: it is run again instead' : notJudgedWhy(failure);
  if (why !== undefined) return { notJudged: why };
  const expected = failure.expected as FailedExpectation;
  const problems =
    expected.judge === 'exchange'
      ? exchangeCheckProblems(spec, failure.check, exchange, stateless)
      : answerProblems(expected, exchange);
  return problems.length === 0 ? { passed: true } : { passed: false, problems };
}
