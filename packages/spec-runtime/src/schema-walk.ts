// Walking the bundle's schemas for readers that build or inspect values (the contract tests'
// generators): follow `$ref`s, gather properties and required names through `allOf`, the schema
// of array items, a schema's types and its id prefixes. Validation itself is Ajv's.
import type { Contract } from './contract.js';
import { follow, isObject, type JsonObject } from './json-pointer.js';

/** The node a chain of `$ref`s leads to (it wins over siblings such as description); {} if none. */
export function deref(contract: Contract, node: unknown): JsonObject {
  const { node: target } = follow(contract.bundle, node, '#');
  return isObject(target) ? target : {};
}

/** The properties of an object schema, through allOf, each dereferenced. */
export function propertiesOf(contract: Contract, schema: unknown): Record<string, JsonObject> {
  const s = deref(contract, schema);
  const props: Record<string, JsonObject> = {};
  if (isObject(s.properties))
    for (const [name, prop] of Object.entries(s.properties)) props[name] = deref(contract, prop);
  if (Array.isArray(s.allOf)) for (const part of s.allOf) Object.assign(props, propertiesOf(contract, part));
  return props;
}

/** The required property names of an object schema, through allOf. */
export function requiredOf(contract: Contract, schema: unknown): string[] {
  const s = deref(contract, schema);
  const required = Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === 'string') : [];
  if (Array.isArray(s.allOf)) for (const part of s.allOf) required.push(...requiredOf(contract, part));
  return [...new Set(required)];
}

export function itemsOf(contract: Contract, schema: unknown): JsonObject | undefined {
  const s = deref(contract, schema);
  return s.items === undefined ? undefined : deref(contract, s.items);
}

/** `type` as a list (OpenAPI 3.1 allows `[string, "null"]`). */
export function typesOf(schema: JsonObject): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  return Array.isArray(schema.type) ? schema.type.filter((t): t is string => typeof t === 'string') : [];
}

/** The prefixes an id schema declares (`x-svc-id-prefix`: one, or one per kind of id). */
export function idPrefixes(schema: JsonObject): string[] {
  const prefix = schema['x-svc-id-prefix'];
  if (typeof prefix === 'string') return [prefix];
  return Array.isArray(prefix) ? prefix.filter((p): p is string => typeof p === 'string') : [];
}
