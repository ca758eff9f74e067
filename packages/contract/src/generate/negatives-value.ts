// Negative cases of one value of the body, at any depth, one function per kind of negative: a
// phone number out of E.164, a value outside its enum, a number out of range, a string too short
// or too long, an id of the wrong prefix or of no resource, a string outside its pattern.
import { deref, idPrefixes, type JsonObject } from '@svc/spec-runtime';
import { constraintId } from './constraints.js';
import { neighbourPrefixes } from './id-prefix-sets.js';
import type { NegativeContext } from './negative-context.js';
import {
  fieldName,
  inLaterEntry,
  invalidEnumValue,
  NEIGHBOUR_SUFFIX,
  nonMatching,
  otherCaseEnumValue,
  type Path,
  phoneVariants,
  preview,
  UNKNOWN_SUFFIX,
  WRONG_PREFIX,
} from './negative-values.js';
import { isPhone } from './schema.js';

/** One field of the body, as its schema `s` (dereferenced) allows breaking it. */
interface Field {
  at: string;
  path: Path;
  s: JsonObject;
}

export function valueNegatives(ctx: NegativeContext, value: unknown, schema: JsonObject, path: Path): void {
  const field: Field = { at: fieldName(path), path, s: deref(ctx.spec.contract, schema) };
  // A phone number or an enum value is wrong in one way only: its format or its membership.
  if (isPhone(ctx.spec, field.s)) phoneNegatives(ctx, field, value);
  else if (Array.isArray(field.s.enum)) enumNegative(ctx, field, field.s.enum);
  else otherValueNegatives(ctx, field, value);
}

function otherValueNegatives(ctx: NegativeContext, field: Field, value: unknown): void {
  rangeNegatives(ctx, field, value);
  lengthNegatives(ctx, field);
  if (idPrefixes(field.s).length > 0 && typeof value === 'string') idNegatives(ctx, field, value);
  else if (typeof field.s.pattern === 'string' && typeof value === 'string')
    patternNegative(ctx, field, field.s.pattern);
}

function phoneNegatives(ctx: NegativeContext, { at, path }: Field, value: unknown): void {
  const variants = phoneVariants(typeof value === 'string' ? value : ctx.phoneExample);
  for (const bad of variants)
    ctx.push('negative.phone-format', `body ${at}=${preview(bad)}`, ctx.withBodyAt(path, bad));
  // In a list, also in a later entry behind a valid one: a server may check the first entry only.
  const later = inLaterEntry(ctx.baseline.body, path, variants[0]);
  if (later)
    ctx.push('negative.phone-format', `body ${fieldName(later.path)}=${preview(variants[0])} (a later entry)`, {
      ...ctx.baseline,
      body: later.body,
    });
}

function enumNegative(ctx: NegativeContext, { at, path }: Field, values: unknown[]): void {
  ctx.push('negative.enum', `body ${at}=${invalidEnumValue(values)}`, ctx.withBodyAt(path, invalidEnumValue(values)));
  const otherCase = otherCaseEnumValue(values);
  if (otherCase !== undefined)
    ctx.push('negative.enum', `body ${at}=${otherCase} (another case)`, ctx.withBodyAt(path, otherCase));
}

/** A number outside its documented range, at any depth (business hours' times). */
function rangeNegatives(ctx: NegativeContext, { at, path, s }: Field, value: unknown): void {
  for (const [keyword, step] of [
    ['minimum', -1],
    ['maximum', 1],
  ] as const) {
    const limit = s[keyword];
    if (typeof limit === 'number' && typeof value === 'number')
      ctx.push('negative.out-of-range', `body ${at}=${limit + step}`, ctx.withBodyAt(path, limit + step), {
        constraint: constraintId('body', at, keyword, limit),
      });
  }
}

/** A string one character shorter than its minimum, and one longer than its maximum. */
function lengthNegatives(ctx: NegativeContext, { at, path, s }: Field): void {
  if (typeof s.minLength === 'number' && s.minLength > 0)
    ctx.push(
      'negative.too-long',
      `body ${at} of ${s.minLength - 1} characters`,
      ctx.withBodyAt(path, 'x'.repeat(s.minLength - 1)),
      { constraint: constraintId('body', at, 'minLength', s.minLength) },
    );
  if (typeof s.maxLength === 'number')
    ctx.push(
      'negative.too-long',
      `body ${at} of ${s.maxLength + 1} characters`,
      ctx.withBodyAt(path, 'x'.repeat(s.maxLength + 1)),
      { constraint: constraintId('body', at, 'maxLength', s.maxLength) },
    );
}

/** An id of a prefix no resource has, and (for a top-level id) one of the right prefix that names nothing. */
function idNegatives(ctx: NegativeContext, { at, path, s }: Field, value: string): void {
  ctx.push('negative.id-prefix', `body ${at}=${WRONG_PREFIX}`, ctx.withBodyAt(path, WRONG_PREFIX));
  for (const other of neighbourPrefixes(ctx.spec, idPrefixes(s)))
    ctx.push(
      'negative.id-prefix',
      `body ${at}=${other}${NEIGHBOUR_SUFFIX} (a kind next to its own)`,
      ctx.withBodyAt(path, `${other}${NEIGHBOUR_SUFFIX}`),
    );
  const prefix = idPrefixes(s).find((p) => value.startsWith(p));
  const listed = ctx.op.codesByStatus.get(404);
  // Only a top-level id names the resource the operation's 404 is about; what an unknown id
  // inside a collection (a calendar of a receptionist) gets is not shown.
  if (prefix && listed && listed.size > 0 && path.length === 1) {
    const unknown = `${prefix}${UNKNOWN_SUFFIX}`;
    ctx.push('negative.unknown-id', `body ${at}=${unknown}`, ctx.withBodyAt(path, unknown), {
      expected: { status: 404, codes: [...listed], why: `no ${at} ${unknown}` },
      idPrefix: prefix,
    });
    otherKindsUnknown(ctx, at, prefix, [...listed]);
  }
}

/**
 * Where the body names an item by its kind and id (a thread's entity_type and entity_id), an
 * unknown id of each other kind too, its kind beside it: a server may look each kind up its own
 * way, and answer an unknown text message otherwise than an unknown call.
 */
function otherKindsUnknown(ctx: NegativeContext, at: string, prefix: string, codes: string[]): void {
  const kinds = ctx.spec.entityKinds;
  const body = ctx.baseline.body;
  const own = kinds.find((k) => k.prefix === prefix)?.type;
  if (own === undefined || typeof body !== 'object' || body === null || Array.isArray(body)) return;
  const kindField = Object.keys(body).find((name) => (body as Record<string, unknown>)[name] === own);
  if (kindField === undefined) return;
  for (const other of kinds.filter((k) => k.prefix !== prefix)) {
    const unknown = `${other.prefix}${UNKNOWN_SUFFIX}`;
    ctx.push(
      'negative.unknown-id',
      `body ${at}=${unknown}, ${kindField}=${other.type}`,
      { ...ctx.baseline, body: { ...body, [at]: unknown, [kindField]: other.type } },
      { expected: { status: 404, codes, why: `no ${other.type} ${unknown}` }, idPrefix: other.prefix },
    );
  }
}

function patternNegative(ctx: NegativeContext, { at, path }: Field, pattern: string): void {
  for (const bad of nonMatching(pattern))
    ctx.push('negative.pattern', `body ${at}=${preview(bad)}`, ctx.withBodyAt(path, bad));
}
