// Whether an answer is one a failure expected (its `expected`: a status with its codes, or any
// 2xx): what replay judges a new answer by, and what the rule harness asks of a problem's own
// answer, since a problem whose answer already fits what it says was expected is not shown by
// that answer alone (its rule must run again to show it).
import { type Exchange, errorCode } from '../http/exchange.js';
import type { FailedExpectation } from '../types.js';

/** The expected answers in words: `422 VALIDATION_ERROR, or 400 INVALID_JSON`, or `a 2xx`. */
export function describeAnswers(expected: FailedExpectation): string {
  if (expected.success) return 'a 2xx';
  return (expected.answers ?? [])
    .map((a) => `${a.status}${a.codes?.length ? ` ${a.codes.join(' or ')}` : ''}`)
    .join(', or ');
}

/** What is wrong with the answer against the expected one: nothing when it fits. */
export function answerProblems(expected: FailedExpectation, exchange: Exchange): string[] {
  const code = errorCode(exchange);
  const got = `${exchange.error ?? exchange.status}${code ? ` ${code}` : ''}`;
  if (exchange.error !== undefined) return [`no answer: ${exchange.error}`];
  if (expected.success) return exchange.status >= 200 && exchange.status < 300 ? [] : [`expected a 2xx, got ${got}`];
  const answers = expected.answers ?? [];
  const fits = answers.some(
    (a) =>
      a.status === exchange.status &&
      (a.codes === undefined || a.codes.length === 0 || (code !== undefined && a.codes.includes(code))),
  );
  return fits ? [] : [`expected ${describeAnswers(expected)}, got ${got}`];
}
