// Negative cases of the request body: the body as a whole (malformed JSON, missing, the wrong
// content type), then its structure walked (a required field left out, an unknown field where
// none is allowed, too many or too few items); each single value is broken by negatives-value.ts.
import { deref, isObject, itemsOf, type JsonObject, propertiesOf, requiredOf, typesOf } from '@svc/spec-runtime';
import { expectedFor } from '../expectations/expect.js';
import { constraintId } from './constraints.js';
import type { NegativeContext } from './negative-context.js';
import { fieldName, MALFORMED_BODY, type Path, REMOVED } from './negative-values.js';
import { valueNegatives } from './negatives-value.js';
import { isPhone, sample } from './schema.js';

export function bodyNegatives(ctx: NegativeContext): void {
  const { spec, op, baseline } = ctx;
  if (!op.requestBody) return;
  wholeBodyNegatives(ctx);
  const bodySchema = deref(spec.contract, spec.resolve(op.requestBody.schemaPointer));
  if (baseline.body !== undefined) walkBody(ctx, baseline.body, bodySchema, []);
}

/**
 * JSON with a charset parameter: the same media type (RFC 8259: "adding one really has no effect on
 * compliant recipients"), so a body sent with it is read as JSON, never refused as another type.
 */
const JSON_WITH_CHARSET = 'application/json; charset=utf-8';

/**
 * The body as a whole: JSON cut short (sent as JSON with a charset: its refusal must be the
 * unparseable body's, not 415), no body where one is required, a type other than JSON.
 */
function wholeBodyNegatives(ctx: NegativeContext): void {
  const { spec, op, baseline, push } = ctx;
  const asIfNoBody = expectedFor(spec, op, { ...baseline, body: undefined });
  if (asIfNoBody)
    push('negative.malformed-json', `body {"svc_contract": (cut short), as ${JSON_WITH_CHARSET}`, baseline, {
      raw: { body: MALFORMED_BODY, unparseable: true, contentType: JSON_WITH_CHARSET },
      expected: asIfNoBody,
    });
  // No body at all, where one is required (the rule breaks alone: nothing else is sent wrong).
  if (op.requestBody?.required && asIfNoBody)
    push('negative.missing-required', 'body missing', { ...baseline, body: undefined }, { expected: asIfNoBody });
  const mediaCodes = op.codesByStatus.get(415);
  if (mediaCodes && mediaCodes.size > 0 && baseline.body !== undefined) {
    push('negative.content-type', 'Content-Type: text/plain', baseline, {
      raw: { body: JSON.stringify(baseline.body), contentType: 'text/plain' },
      expected: { status: 415, codes: [...mediaCodes], why: 'the body is not application/json' },
    });
  }
}

function walkBody(ctx: NegativeContext, value: unknown, schema: JsonObject, path: Path): void {
  if (isObject(value)) objectNegatives(ctx, value, schema, path);
  else if (Array.isArray(value)) arrayNegatives(ctx, value, schema, path);
  else valueNegatives(ctx, value, schema, path);
}

/** A schema of a single value (no object, no array): one the generator can break on its own. */
function isLeaf(schema: JsonObject): boolean {
  const types = typesOf(schema);
  if (
    types.includes('object') ||
    types.includes('array') ||
    schema.properties !== undefined ||
    schema.items !== undefined
  )
    return false;
  return types.length > 0 || Array.isArray(schema.enum) || typeof schema.pattern === 'string';
}

function objectNegatives(ctx: NegativeContext, value: Record<string, unknown>, schema: JsonObject, path: Path): void {
  const { spec, push, withBodyAt } = ctx;
  for (const name of requiredOf(spec.contract, schema)) {
    if (name in value)
      push(
        'negative.missing-required',
        `body ${fieldName([...path, name])} missing`,
        withBodyAt([...path, name], REMOVED),
      );
  }
  for (const [name, propSchema] of Object.entries(propertiesOf(spec.contract, schema))) {
    const child = value[name];
    if (child !== undefined) walkBody(ctx, child, propSchema, [...path, name]);
    else if (path.length === 0 && isLeaf(propSchema)) {
      // An optional field the baseline leaves out still has to be validated when sent: add it,
      // broken, to the otherwise valid request (still one thing broken).
      valueNegatives(ctx, validSample(ctx, propSchema), propSchema, [name]);
    }
  }
  if (deref(spec.contract, schema).additionalProperties === false) {
    const unknown = [...path, 'svc_contract_unknown'];
    push('negative.unknown-field', `body ${fieldName(unknown)}`, withBodyAt(unknown, true));
  }
}

/** A valid value of a single-value schema (a phone number as the contract's example). */
function validSample(ctx: NegativeContext, schema: JsonObject): unknown {
  return isPhone(ctx.spec, schema) ? ctx.phoneExample : sample(ctx.spec, schema);
}

/**
 * Too many items, too few, then the last item walked, after the others left valid: a server that
 * checks only the first entry (a loop that stops early) lets it through.
 */
function arrayNegatives(ctx: NegativeContext, value: unknown[], schema: JsonObject, path: Path): void {
  const { spec, push, withBodyAt } = ctx;
  const at = fieldName(path) || 'body';
  const s = deref(spec.contract, schema);
  if (typeof s.maxItems === 'number' && value.length > 0) {
    const over = Array.from({ length: s.maxItems + 1 }, (_, i) => value[i % value.length]);
    push('negative.too-long', `body ${at} with ${s.maxItems + 1} items`, withBodyAt(path, over), {
      constraint: constraintId('body', at, 'maxItems', s.maxItems),
    });
  }
  if (typeof s.minItems === 'number' && s.minItems > 0) {
    push(
      'negative.too-long',
      `body ${at} with ${s.minItems - 1} items`,
      withBodyAt(path, value.slice(0, s.minItems - 1)),
      {
        constraint: constraintId('body', at, 'minItems', s.minItems),
      },
    );
  }
  const items = itemsOf(spec.contract, s);
  const last = value.length - 1;
  if (items && last >= 0) walkBody(ctx, value[last], items, [...path, last]);
}
