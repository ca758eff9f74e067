// How a rule's `problems` function says what is wrong: small builders of Problem lists, so that
// each judgement reads as one condition and its message.
import { type Expected, errorProblems, readingsOf } from '../expectations/expect.js';
import { type Exchange, errorCode } from '../http/exchange.js';
import type { Problem } from './harness.js';

/** No problem when the condition holds; otherwise one, pointing at the exchange that shows it. */
export function unless(condition: boolean, message: string, exchange?: Exchange): Problem[] {
  if (condition) return [];
  return [exchange ? { message, exchange } : { message }];
}

/** The problems of a response against an expected error, each prefixed by what was sent (label). */
export function errorsOf(exchange: Exchange, expected: Expected, label?: string): Problem[] {
  const answers = readingsOf(expected).map((r) => ({ status: r.status, codes: r.codes }));
  return errorProblems(exchange, expected).map((p) => ({
    message: label ? `${label}: ${p}` : p,
    exchange,
    expected: { judge: 'answer', answers },
  }));
}

/** A response that arrived with a status `accepted` takes; otherwise what came, after `what`. */
export function statusIs(exchange: Exchange, accepted: (status: number) => boolean, what: string): Problem[] {
  const code = errorCode(exchange);
  const problems = unless(
    exchange.error === undefined && accepted(exchange.status),
    `${what}: got ${exchange.error ?? exchange.status}${code ? ` ${code}` : ''}`,
    exchange,
  );
  // Only a success is an answer said in data; another predicate leaves the rule judging a state.
  return accepted === isSuccess
    ? problems.map((p) => ({ ...p, expected: { judge: 'answer', success: true } }))
    : problems;
}

/**
 * Problems whose expected answer holds only after an earlier request of the same rule (a second
 * create, a key used again): no single answer decides them, so a replay does not judge them alone.
 */
export function afterEarlier(problems: Problem[]): Problem[] {
  return problems.map((p) => ({ ...p, expected: { judge: 'state' } }));
}

export const isSuccess = (status: number): boolean => status >= 200 && status < 300;
