// The other readings an expectation accepts where the contract leaves an answer open: a line the
// key may not access (x-svc-ambiguity `line-access`: 403 SVC_NUMBER_FORBIDDEN or the operation's
// 404), a key that satisfies only some readings of an ambiguous scope, or a key of a kind (trial,
// line-limited) that also lacks the scope (which refusal comes first is not stated). The codes
// are the catalogue's, named by the description; which ones an operation answers is read from it.
import { deref, isObject, type Operation, propertiesOf, typesOf } from '@svc/spec-runtime';
import { ambiguityOf, scopeStanding } from '@svc/spec-runtime/facts';
import type { Spec } from '../spec.js';
import type { ConfigKey } from '../types.js';
import { documentedCodes, type Expected, expectedFor, type OpRequest, readingsOf } from './expect.js';

/** The catalogue code of a missing scope: the description names it, and the 403 responses list it. */
export const INSUFFICIENT_SCOPE = 'API_KEY_INSUFFICIENT_SCOPE';
/** The catalogue code of a line the key may not access. */
export const LINE_FORBIDDEN = 'SVC_NUMBER_FORBIDDEN';
/** The aspect of an operation's x-svc-ambiguity that gives a line the key may not access two answers. */
export const LINE_ACCESS = 'line-access';

/** The aspect of a body schema's x-svc-ambiguity that says a server may take either of two body forms. */
export const BODY_FORM = 'body-form';

/**
 * The body fields two forms place differently, where the body's form is ambiguous (x-svc-ambiguity
 * body-form: a receptionist update's single values flat, or inside `agent`): each top-level
 * property a nested block also has, and that block. Empty elsewhere.
 */
export function bodyFormFields(spec: Spec, op: Operation): Set<string> {
  const schema = op.requestBody ? deref(spec.contract, spec.resolve(op.requestBody.schemaPointer)) : undefined;
  const marker = schema?.['x-svc-ambiguity'];
  if (!schema || !isObject(marker) || typeof marker[BODY_FORM] !== 'string') return new Set();
  const top = propertiesOf(spec.contract, schema);
  return new Set(
    Object.entries(top).flatMap(([block, p]) => {
      const s = deref(spec.contract, p);
      if (!typesOf(s).includes('object')) return [];
      const inner = Object.keys(propertiesOf(spec.contract, s)).filter((n) => n in top);
      return inner.length > 0 ? [block, ...inner] : [];
    }),
  );
}

/**
 * The other body form's answer to a request whose `fields` include one the forms place differently:
 * its refusal of an unknown field (the code the contract gives one). undefined where none applies.
 */
export function bodyFormReading(
  spec: Spec,
  op: Operation,
  request: OpRequest,
  fields: readonly string[],
): Expected | undefined {
  const placed = bodyFormFields(spec, op);
  if (!fields.some((f) => placed.has(f))) return undefined;
  // The refusal of an unknown field alone: the body without the fields the forms place differently.
  const body = Object.fromEntries(
    Object.entries(isObject(request.body) ? request.body : {}).filter(([k]) => !placed.has(k)),
  );
  const unknown = expectedFor(spec, op, { ...request, body: { ...body, svc_contract_unknown: true } });
  return unknown && { ...unknown, why: `x-svc-ambiguity ${BODY_FORM}: the other body form's fields are unknown to it` };
}

/** The expectation with other readings added (those it does not already state). */
export function withReadings(expected: Expected, others: readonly Expected[]): Expected {
  const same = (r: Expected) => r.status === expected.status && r.codes.every((c) => expected.codes.includes(c));
  const extra = others.filter((r) => !same(r));
  return extra.length > 0 ? { ...expected, or: [...(expected.or ?? []), ...extra] } : expected;
}

/** Every answer to a line the key may not access, where the operation marks it ambiguous; [] elsewhere. */
export function lineAccessReadings(spec: Spec, op: Operation): Expected[] {
  const why = ambiguityOf(op, LINE_ACCESS);
  if (why === undefined) return [];
  const forbidden = documentedCodes(spec, op, 403).filter((c) => c === LINE_FORBIDDEN);
  const notFound = op.codesByStatus.get(404);
  return [
    ...(forbidden.length > 0 ? [{ status: 403, codes: forbidden, why: `x-svc-ambiguity ${LINE_ACCESS}: ${why}` }] : []),
    ...(notFound && notFound.size > 0
      ? [{ status: 404, codes: [...notFound], why: `x-svc-ambiguity ${LINE_ACCESS}: ${why}` }]
      : []),
  ];
}

/** The refusal for scope, as a reading, where the key does not satisfy every reading of the operation's scope. */
export function scopeRefusalReading(op: Operation, key: ConfigKey): Expected | undefined {
  const standing = scopeStanding(op, key.scopes);
  if (standing === 'sufficient') return undefined;
  const alternatives = op.security.map((a) => a.join('+')).join(' or ');
  return {
    status: 403,
    codes: [INSUFFICIENT_SCOPE],
    why:
      standing === 'depends'
        ? `the scope is ambiguous (${alternatives}) and key "${key.name}" satisfies only some of its readings`
        : `key "${key.name}" also lacks ${alternatives}, and which refusal comes first is not stated`,
  };
}

/**
 * For the report: the answers an expectation accepted where it has several readings ("403
 * SVC_NUMBER_FORBIDDEN or 404 PHONE_NUMBER_NOT_FOUND (x-svc-ambiguity line-access)"); undefined
 * where it has one.
 */
export function describeReadings(expected: Expected): string | undefined {
  const all = readingsOf(expected);
  if (all.length < 2) return undefined;
  const answers = all.map((r) => `${r.status} ${r.codes.join('/')}`).join(' or ');
  const sources = [...new Set(all.slice(1).map((r) => r.why.split(':')[0]))].join('; ');
  return `${answers} (${sources})`;
}
