// Negative cases of the path and query parameters: each parameter broken alone, the way its
// schema allows (a phone number out of E.164, an id of the wrong prefix or of no resource, a
// number out of range, a value outside its enum or pattern, a required query parameter left out).
import { idPrefixes, type OperationParameter, typesOf } from '@svc/spec-runtime';
import type { Expected, OpRequest } from '../expectations/expect.js';
import { lineAccessReadings, withReadings } from '../expectations/readings.js';
import { constraintId } from './constraints.js';
import { neighbourPrefixes } from './id-prefix-sets.js';
import type { NegativeContext } from './negative-context.js';
import {
  invalidEnumValue,
  NEIGHBOUR_SUFFIX,
  nonMatching,
  otherCaseEnumValue,
  phoneVariants,
  preview,
  UNKNOWN_SUFFIX,
  UNKNOWN_VALUE,
  UNUSED_PHONE,
  WRONG_PREFIX,
} from './negative-values.js';
import { isPhone } from './schema.js';

/** Path parameters: phone numbers, prefixed ids, other identifiers. */
export function pathNegatives(ctx: NegativeContext): void {
  for (const p of ctx.op.parameters.filter((x) => x.in === 'path')) {
    const withParam = (value: string): OpRequest => ({
      ...ctx.baseline,
      params: { ...ctx.baseline.params, [p.name]: value },
    });
    if (isPhone(ctx.spec, p.schema)) phonePathNegatives(ctx, p, withParam);
    else idPathNegatives(ctx, p, withParam);
  }
}

function phonePathNegatives(ctx: NegativeContext, p: OperationParameter, withParam: (value: string) => OpRequest) {
  const { spec, op, push } = ctx;
  for (const bad of phoneVariants(ctx.baseline.params?.[p.name] ?? ctx.phoneExample))
    push('negative.phone-format', `path ${p.name}=${preview(bad)}`, withParam(bad));
  // A number that is no line of the team is also one the key may not access: where the
  // operation marks that answer ambiguous (x-svc-ambiguity line-access), either reading passes.
  const nf = op.codesByStatus.has(404) ? ctx.notFound(p) : undefined;
  if (nf)
    push('negative.unknown-id', `path ${p.name}=${UNUSED_PHONE}`, withParam(UNUSED_PHONE), {
      expected: withReadings(nf, lineAccessReadings(spec, op)),
    });
}

function idPathNegatives(ctx: NegativeContext, p: OperationParameter, withParam: (value: string) => OpRequest) {
  const { push } = ctx;
  const prefixes = idPrefixes(p.schema);
  const nf = ctx.notFound(p);
  for (const prefix of prefixes)
    if (nf)
      push(
        'negative.unknown-id',
        `path ${p.name}=${prefix}${UNKNOWN_SUFFIX}`,
        withParam(`${prefix}${UNKNOWN_SUFFIX}`),
        { expected: ofItsKind(ctx, nf, prefix), idPrefix: prefix },
      );
  if (prefixes.length > 0) {
    push('negative.id-prefix', `path ${p.name}=${WRONG_PREFIX}`, withParam(WRONG_PREFIX));
    for (const other of neighbourPrefixes(ctx.spec, prefixes))
      push(
        'negative.id-prefix',
        `path ${p.name}=${other}${NEIGHBOUR_SUFFIX} (a kind next to its own)`,
        withParam(`${other}${NEIGHBOUR_SUFFIX}`),
      );
  } else if (nf)
    push('negative.unknown-id', `path ${p.name}=${UNKNOWN_VALUE}`, withParam(UNKNOWN_VALUE), { expected: nf });
}

/**
 * What an unknown id of a prefix may get: the operation's not-found codes, but the one named for
 * another kind of item than the prefix names ("Identifier prefixes": cll- a call, msg- a text
 * message; CALL_NOT_FOUND "No call with this id", TEXT_MESSAGE_NOT_FOUND "No text message with this
 * id"). The kinds are ThreadEntityType's values, paired in order with ThreadEntityId's prefixes; the
 * code named for a kind is the kind's word with _NOT_FOUND, where the operation lists one.
 */
function ofItsKind(ctx: NegativeContext, nf: Expected, prefix: string): Expected {
  const kind = ctx.spec.entityKinds.find((k) => k.prefix === prefix)?.type;
  if (kind === undefined) return nf;
  const others = ctx.spec.entityKinds.filter((k) => k.type !== kind).map((k) => `${k.type}_NOT_FOUND`);
  const codes = nf.codes.filter((c) => !others.includes(c));
  if (codes.length === nf.codes.length || codes.length === 0) return nf;
  return { ...nf, codes, why: `${nf.why}: a ${prefix} id names a ${kind}, not another kind` };
}

export function queryNegatives(ctx: NegativeContext): void {
  for (const p of ctx.op.parameters.filter((x) => x.in === 'query')) {
    const withQuery = (value: string): OpRequest => ({
      ...ctx.baseline,
      query: { ...ctx.baseline.query, [p.name]: value },
    });
    queryRangeNegatives(ctx, p, withQuery);
    queryFormatNegatives(ctx, p, withQuery);
    if (p.required && ctx.baseline.query?.[p.name] !== undefined) {
      const rest = { ...ctx.baseline.query };
      delete rest[p.name];
      ctx.push('negative.missing-required', `query ${p.name} missing`, { ...ctx.baseline, query: rest });
    }
  }
}

/** A number below its minimum, above its maximum, and no number at all (a word, and digits with a tail). */
function queryRangeNegatives(ctx: NegativeContext, p: OperationParameter, withQuery: (value: string) => OpRequest) {
  const s = p.schema;
  const types = typesOf(s);
  if (!types.includes('integer') && !types.includes('number')) return;
  if (typeof s.minimum === 'number')
    ctx.push('negative.out-of-range', `query ${p.name}=${s.minimum - 1}`, withQuery(String(s.minimum - 1)), {
      constraint: constraintId('query', p.name, 'minimum', s.minimum),
    });
  if (typeof s.maximum === 'number')
    ctx.push('negative.out-of-range', `query ${p.name}=${s.maximum + 1}`, withQuery(String(s.maximum + 1)), {
      constraint: constraintId('query', p.name, 'maximum', s.maximum),
    });
  ctx.push('negative.out-of-range', `query ${p.name}="ten"`, withQuery('ten'));
  // Digits with a tail are no number either: a lenient parse (parseInt) reads them as the digits.
  const digits = String(typeof s.minimum === 'number' ? Math.max(s.minimum, 1) : 1);
  ctx.push('negative.out-of-range', `query ${p.name}="${digits}x" (digits, then no number)`, withQuery(`${digits}x`));
}

/** The one form a string parameter must have, broken: its enum, E.164, its id prefix or its pattern. */
function queryFormatNegatives(ctx: NegativeContext, p: OperationParameter, withQuery: (value: string) => OpRequest) {
  const { spec, push } = ctx;
  const s = p.schema;
  if (Array.isArray(s.enum)) {
    push('negative.enum', `query ${p.name}=${invalidEnumValue(s.enum)}`, withQuery(invalidEnumValue(s.enum)));
    const otherCase = otherCaseEnumValue(s.enum);
    if (otherCase !== undefined)
      push('negative.enum', `query ${p.name}=${otherCase} (another case)`, withQuery(otherCase));
  } else if (isPhone(spec, s))
    for (const bad of phoneVariants(ctx.baseline.query?.[p.name] ?? ctx.phoneExample))
      push('negative.phone-format', `query ${p.name}=${preview(bad)}`, withQuery(bad));
  else if (idPrefixes(s).length > 0) {
    push('negative.id-prefix', `query ${p.name}=${WRONG_PREFIX}`, withQuery(WRONG_PREFIX));
    for (const other of neighbourPrefixes(spec, idPrefixes(s)))
      push(
        'negative.id-prefix',
        `query ${p.name}=${other}${NEIGHBOUR_SUFFIX} (a kind next to its own)`,
        withQuery(`${other}${NEIGHBOUR_SUFFIX}`),
      );
  } else if (typeof s.pattern === 'string') {
    for (const bad of nonMatching(s.pattern))
      push('negative.pattern', `query ${p.name}=${preview(bad)}`, withQuery(bad));
  }
}
