// Negative inputs generated from the contract for one operation: each case is a valid baseline
// request with exactly one thing broken (a parameter out of range, a phone number not in E.164,
// a value outside its enum, a missing required field, a string over its limit, malformed JSON, a
// wrong content type, an id with the wrong prefix or an unknown one). The expected status and
// code of each case come from spec-runtime (validateRequest + errorFor) or, for unknown ids,
// from the operation's documented 404 codes: never from a table written here. The cases are made
// where the broken thing sits: the path and query parameters (negatives-parameters.ts), the body
// as a whole and its structure (negatives-body.ts), one value of it (negatives-value.ts).
import { isObject, type Operation } from '@svc/spec-runtime';
import type { OpRequest } from '../expectations/expect.js';
import { bodyFormReading, withReadings } from '../expectations/readings.js';
import type { Spec } from '../spec.js';
import { type NegativeCase, negativeContext } from './negative-context.js';
import { bodyNegatives } from './negatives-body.js';
import { pathNegatives, queryNegatives } from './negatives-parameters.js';

export type { NegativeCase, NegativeKind } from './negative-context.js';
export { MALFORMED_BODY, phoneVariants, UNKNOWN_SUFFIX } from './negative-values.js';

export function negativeCases(spec: Spec, op: Operation, baseline: OpRequest): NegativeCase[] {
  const cases: NegativeCase[] = [];
  const ctx = negativeContext(spec, op, baseline, cases);
  pathNegatives(ctx);
  queryNegatives(ctx);
  bodyNegatives(ctx);
  return withBodyFormReadings(spec, op, baseline, cases);
}

/**
 * Where the request body's form is ambiguous (x-svc-ambiguity body-form), a case that breaks a
 * field the two forms place differently also accepts the other form's refusal of it as unknown.
 */
function withBodyFormReadings(spec: Spec, op: Operation, baseline: OpRequest, cases: NegativeCase[]): NegativeCase[] {
  const base = isObject(baseline.body) ? baseline.body : {};
  return cases.map((c) => {
    const body = c.request.body;
    const touched = isObject(body)
      ? Object.keys({ ...base, ...body }).filter((k) => JSON.stringify(body[k]) !== JSON.stringify(base[k]))
      : [];
    const reading = bodyFormReading(spec, op, baseline, touched);
    return reading ? { ...c, expected: withReadings(c.expected, [reading]) } : c;
  });
}
