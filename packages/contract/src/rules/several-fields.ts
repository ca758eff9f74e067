// "When several fields fail, the error has type validation_error, code INVALID_REQUEST, message
// Request validation failed, and an errors array. Each entry is { field, code, message }." Every
// negative input breaks one thing, so without this check no request ever had several failing
// fields: its precondition is a request with two, each a value the contract refuses alone with its
// own code (two negative cases of the operation merged). What the answer must be comes from
// spec-runtime (validateRequest finds both violations, errorFor picks INVALID_REQUEST and lists
// each field with its code); the message is the schema's (response.schema).
import { INVALID_REQUEST, isObject, type Operation } from '@svc/spec-runtime';
import type { Expected, OpRequest } from '../expectations/expect.js';
import { type NegativeCase, negativeCases } from '../generate/negatives.js';
import { type Exchange, errorOf } from '../http/exchange.js';
import type { Spec } from '../spec.js';
import { checkDescription, type Problem, rule } from './harness.js';
import { type OperationUnderTest, sampleRequest } from './operation-context.js';
import { errorsOf, unless } from './problems.js';
import { short } from './support.js';

export const SEVERAL_FIELDS = checkDescription({
  id: 'negative.several-fields',
  title:
    'Two fields failing at once: 400 INVALID_REQUEST, with an errors entry for each failing field naming it and its own code',
  source: 'INVALID_REQUEST + ApiErrorFields errors (the description: validation errors with several fields)',
  precondition:
    'a request the server must refuse on two fields at once: two values broken, each refused alone with its own code',
});

/** The kinds of negative case that break one value of the query or the body. */
const ONE_VALUE = new Set([
  'negative.enum',
  'negative.pattern',
  'negative.too-long',
  'negative.phone-format',
  'negative.out-of-range',
  'negative.missing-required',
]);

type Where = 'query' | 'body';

/** Two failing fields in one request, and what the contract says it gets. */
export interface SeveralFields {
  label: string;
  request: OpRequest;
  expected: Expected;
  /** Each failing field with its own code, as the errors entries must name them. */
  failing: Array<{ field: string; code: string }>;
}

const partOf = (request: OpRequest, where: Where): Record<string, unknown> => {
  const part = where === 'query' ? request.query : request.body;
  return isObject(part) ? (part as Record<string, unknown>) : {};
};

/** The one top-level query parameter or body field a case changes; undefined where it changes anything else. */
function changedIn(base: OpRequest, c: NegativeCase): [Where, string] | undefined {
  if (c.raw || JSON.stringify(c.request.params ?? {}) !== JSON.stringify(base.params ?? {})) return undefined;
  const changes = (['query', 'body'] as const).flatMap((where) => {
    const [was, now] = [partOf(base, where), partOf(c.request, where)];
    return [...new Set([...Object.keys(was), ...Object.keys(now)])]
      .filter((k) => JSON.stringify(was[k]) !== JSON.stringify(now[k]))
      .map((k): [Where, string] => [where, k]);
  });
  return changes.length === 1 ? changes[0] : undefined;
}

/** Case `a`'s request with the one change of case `b` made too. */
function merged(a: NegativeCase, b: NegativeCase, [where, key]: [Where, string]): OpRequest {
  const part = { ...partOf(a.request, where) };
  const value = partOf(b.request, where)[key];
  if (value === undefined) delete part[key];
  else part[key] = value;
  return { ...a.request, [where]: part };
}

/** The first two cases of the operation, on different fields, that together give INVALID_REQUEST with both. */
export function severalFields(spec: Spec, op: Operation, baseline: OpRequest): SeveralFields | undefined {
  const cases = negativeCases(spec, op, baseline).filter(
    (c) => ONE_VALUE.has(c.kind) && !c.expected.or && changedIn(baseline, c),
  );
  for (const [i, a] of cases.entries())
    for (const b of cases.slice(i + 1)) {
      const [inA, inB] = [changedIn(baseline, a), changedIn(baseline, b)];
      if (!inA || !inB || inA.join(' ') === inB.join(' ')) continue;
      const request = merged(a, b, inB);
      const violations = spec.contract.validateRequest(op, {
        params: request.params ?? {},
        query: request.query ?? {},
        headers: {},
        body: request.body,
      });
      const choice = violations.length === 2 ? spec.contract.errorFor(violations, op) : undefined;
      if (choice?.code !== INVALID_REQUEST || !choice.errors) continue;
      return {
        label: `${a.label} and ${b.label}`,
        request,
        expected: { status: choice.status, codes: [choice.code], why: violations.map((v) => v.message).join('; ') },
        failing: choice.errors.map((e) => ({ field: e.field, code: e.code })),
      };
    }
  return undefined;
}

/** Whether a field path lies within another (`options[0].label` within `options`). */
const within = (path: string, parent: string) => path.startsWith(`${parent}.`) || path.startsWith(`${parent}[`);

/** An entry's field names the failing one: the same, or one a path within the other. */
const names = (entry: unknown, field: string) =>
  typeof entry === 'string' && (entry === field || within(entry, field) || within(field, entry));

function severalProblems({ pair, exchange }: { pair: SeveralFields; exchange: Exchange }): Problem[] {
  const refusal = errorsOf(exchange, pair.expected, pair.label);
  if (refusal.length > 0) return refusal;
  const errors = errorOf(exchange)?.errors;
  const entries = Array.isArray(errors) ? errors.filter(isObject) : [];
  return pair.failing.flatMap(({ field, code }) =>
    unless(
      entries.some((e) => names(e.field, field) && e.code === code),
      `${pair.label}: errors has no entry for ${field} with code ${code}: ${short(errors)}`,
      exchange,
    ),
  );
}

/** Where two fields of the operation can fail at once (its sample request has a pair). */
export function severalFieldsRule(u: OperationUnderTest): void {
  const { spec, op } = u;
  if (!severalFields(spec, op, sampleRequest(spec, op))) return;
  rule({
    ...SEVERAL_FIELDS,
    ...u.where,
    needs: { writes: u.changesData },
    requests: async (t) => {
      const pair = severalFields(spec, op, await u.baseline(t));
      if (!pair) return t.skip('the request the fixtures allow has no two fields each refused alone');
      return { pair, exchange: await t.call(pair.request) };
    },
    problems: severalProblems,
    passed: ({ pair }) => `${pair.label}: INVALID_REQUEST naming ${pair.failing.map((f) => f.field).join(' and ')}`,
  });
}
