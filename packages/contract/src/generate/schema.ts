// What the generators add to spec-runtime's schema walks: recognising the contract's phone
// number, and a sample value of a schema made from its examples.
import { deref, isObject, itemsOf, type JsonObject, propertiesOf, requiredOf, typesOf } from '@svc/spec-runtime';
import type { Spec } from '../spec.js';

/** The contract's phone number: the PhoneNumber schema, recognised by its pattern. */
export function isPhone(spec: Spec, schema: JsonObject): boolean {
  const phone = spec.schema('PhoneNumber');
  if (phone === undefined) return false;
  if (schema === phone || (typeof schema.pattern === 'string' && schema.pattern === phone.pattern)) return true;
  // A nullable phone number (oneOf: [PhoneNumber, null]) is a phone number where it is not null.
  const branches = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : [];
  return branches.some((b) => deref(spec.contract, b) === phone);
}

/**
 * A plausible value of a schema, from its examples (used only to learn which negative kinds apply
 * to an operation). Objects get their required properties only.
 */
export function sample(spec: Spec, node: unknown, depth = 0): unknown {
  const { contract } = spec;
  const s = deref(contract, node);
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  if (depth > 4) return undefined;
  const anyOf = (Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : [])[0];
  if (anyOf !== undefined && s.type === undefined) return sample(spec, anyOf, depth + 1);
  const types = typesOf(s);
  if (types.includes('object') || isObject(s.properties) || Array.isArray(s.allOf)) {
    const out: Record<string, unknown> = {};
    const props = propertiesOf(contract, s);
    for (const name of requiredOf(contract, s)) if (props[name]) out[name] = sample(spec, props[name], depth + 1);
    return out;
  }
  if (types.includes('array')) {
    const item = itemsOf(contract, s);
    return item ? [sample(spec, item, depth + 1)] : [];
  }
  if (types.includes('integer') || types.includes('number')) return typeof s.minimum === 'number' ? s.minimum : 1;
  if (types.includes('boolean')) return true;
  return 'x';
}

/**
 * A value read from the API cut down to what a write schema declares (recursively, through
 * arrays): the read shape sent back as the write shape, without the read-only fields (ids,
 * timestamps, status) that a strict write schema refuses. Undefined when nothing is left.
 */
export function projectOnto(spec: Spec, node: unknown, value: unknown, depth = 0): unknown {
  if (depth > 12) return undefined;
  const { contract } = spec;
  if (Array.isArray(value)) {
    const items = itemsOf(contract, node);
    return items ? value.map((v) => projectOnto(spec, items, v, depth + 1)).filter((v) => v !== undefined) : value;
  }
  if (!isObject(value)) return value;
  const props = propertiesOf(contract, node);
  if (Object.keys(props).length === 0) return deref(contract, node).additionalProperties === false ? undefined : value;
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(props)) {
    if (value[name] === undefined) continue;
    const projected = projectOnto(spec, schema, value[name], depth + 1);
    if (projected !== undefined) out[name] = projected;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
