// A new answer to a failure's request, judged by the same check: a per-exchange check is called
// again on it (responseOutcomes, the one list of them, filtered to the failed check's id); a
// scenario rule by the answer it expected (a status with its codes, or any 2xx). A failure no one
// new answer can show is run again instead (rerun.ts): a rule that judged more than one answer or
// what the server holds (`state`), a failure of the run's pace (`pace`: the rate windows, the
// run's own budget, and any answer that was a 429), which only the traffic that met it, sent again
// at the run's recorded rate, can show again, and a per-exchange check's failure on a request a
// rule that changes data sent (`sequence`: its answer may hang on what that rule built), judged
// on the answers of that rule run again.
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

/** The per-exchange checks that judge a sequence of answers at the run's pace (its windows and budget), not one. */
const PACED_CHECKS: readonly string[] = ['response.rate-limit-window', 'response.rate-limit-budget'];

type Judgeable = Pick<Failure, 'check' | 'expected' | 'status' | 'madeBy'>;

/**
 * How a failure is replayed when one request sent again cannot show it: `pace` for a check of the
 * run's pace or a 429 (what met it is sent again at the run's rate), `state` for a rule that judged
 * a state, `sequence` for a per-exchange check's failure on a request a rule that changes data sent
 * (that rule is run again, the check judging its answers); undefined when its request is sent
 * again (a report older than `madeBy` included).
 */
export function runAgainAs(failure: Judgeable): 'pace' | 'state' | 'sequence' | undefined {
  if (PACED_CHECKS.includes(failure.check) || failure.status === 429) return 'pace';
  if (failure.expected?.judge === 'state') return 'state';
  return failure.expected?.judge === 'exchange' && failure.madeBy?.writes === true ? 'sequence' : undefined;
}

/** Whether the failure is replayed by running its rule (or its operation's traffic) again, alone (rerun.ts). */
export const runsRuleAgain = (failure: Judgeable): boolean => runAgainAs(failure) !== undefined;

/** Why a failure cannot be replayed, or undefined when it can (by a new answer, or by its rule run again). */
export function notJudgedWhy(failure: Judgeable & Pick<Failure, 'request'>): string | undefined {
  const expected = failure.expected;
  const again = runAgainAs(failure);
  if (again === 'pace' || again === 'state') return undefined;
  if (again === undefined && !failure.request) return 'the failure points at no request';
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
  failure: Judgeable & Pick<Failure, 'request'>,
  exchange: Exchange,
  stateless: boolean,
): Judged {
  const why = runsRuleAgain(failure)
    ? 'one answer cannot show it: its rule is run again instead'
    : notJudgedWhy(failure);
  if (why !== undefined) return { notJudged: why };
  const expected = failure.expected as FailedExpectation;
  const problems =
    expected.judge === 'exchange'
      ? exchangeCheckProblems(spec, failure.check, exchange, stateless)
      : answerProblems(expected, exchange);
  return problems.length === 0 ? { passed: true } : { passed: false, problems };
}
