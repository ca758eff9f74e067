// Walking the contract's schemas the way the generators need: follow `$ref`s, merge `allOf`, find
// the schema of a property or of array items, and make a sample value from examples.
import type { Spec } from '../spec.js';

export type Schema = Record<string, unknown>;
const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Follows `$ref`s (the node a `$ref` points at wins over siblings such as description). */
export function deref(spec: Spec, node: unknown): Schema {
  let current = node;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string' && hops < 32; hops++) current = spec.resolve(current.$ref);
  return isObject(current) ? current : {};
}

/** The properties of an object schema, through allOf. */
export function propertiesOf(spec: Spec, schema: Schema): Record<string, Schema> {
  const s = deref(spec, schema);
  const props: Record<string, Schema> = {};
  if (isObject(s.properties)) for (const [k, v] of Object.entries(s.properties)) props[k] = deref(spec, v);
  if (Array.isArray(s.allOf)) for (const part of s.allOf) Object.assign(props, propertiesOf(spec, deref(spec, part)));
  return props;
}

export function requiredOf(spec: Spec, schema: Schema): string[] {
  const s = deref(spec, schema);
  const required = Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === 'string') : [];
  if (Array.isArray(s.allOf)) for (const part of s.allOf) required.push(...requiredOf(spec, deref(spec, part)));
  return [...new Set(required)];
}

export function itemsOf(spec: Spec, schema: Schema): Schema | undefined {
  const s = deref(spec, schema);
  return s.items === undefined ? undefined : deref(spec, s.items);
}

export function typesOf(schema: Schema): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  return Array.isArray(schema.type) ? schema.type.filter((t): t is string => typeof t === 'string') : [];
}

/** The contract's phone number: the PhoneNumber schema, recognised by its pattern. */
export function isPhone(spec: Spec, schema: Schema): boolean {
  const phone = spec.schema('PhoneNumber');
  return phone !== undefined && (schema === phone || (typeof schema.pattern === 'string' && schema.pattern === phone.pattern));
}

export function idPrefixes(schema: Schema): string[] {
  const p = schema['x-svc-id-prefix'];
  if (typeof p === 'string') return [p];
  return Array.isArray(p) ? p.filter((x): x is string => typeof x === 'string') : [];
}

/**
 * A plausible value of a schema, from its examples (used only to learn which negative kinds apply
 * to an operation). With `all`, optional properties are included too.
 */
export function sample(spec: Spec, node: unknown, all = false, depth = 0): unknown {
  const s = deref(spec, node);
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  if (depth > 4) return undefined;
  const anyOf = (Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : [])[0];
  if (anyOf !== undefined && s.type === undefined) return sample(spec, anyOf, all, depth + 1);
  const types = typesOf(s);
  if (types.includes('object') || isObject(s.properties) || Array.isArray(s.allOf)) {
    const out: Record<string, unknown> = {};
    const props = propertiesOf(spec, s);
    const names = all ? Object.keys(props) : requiredOf(spec, s);
    for (const name of names) if (props[name]) out[name] = sample(spec, props[name], all, depth + 1);
    return out;
  }
  if (types.includes('array')) {
    const item = itemsOf(spec, s);
    return item ? [sample(spec, item, all, depth + 1)] : [];
  }
  if (types.includes('integer') || types.includes('number')) return typeof s.minimum === 'number' ? s.minimum : 1;
  if (types.includes('boolean')) return true;
  return 'x';
}
