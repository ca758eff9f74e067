// The OpenAPI 3.0.3 variant of the bundle, for tools that still lack 3.1: Apiture's maintained
// down-converter does the work (type arrays to nullable, const to enum, examples to example,
// webhooks dropped). What it leaves 3.1-only is mended here, each for a stated 3.0 rule; what 3.0
// cannot say at all (conditional if/then rules) stays in the 3.1 bundle and the descriptions.
import { Converter } from '@apiture/openapi-down-convert';

export function toOpenApi30(bundle) {
  const converted = new Converter(structuredClone(bundle), { allOfTransform: false }).convert();
  converted.openapi = '3.0.3';
  delete converted.info.summary; // 3.1 only; info.description says the same at more length
  if (bundle.webhooks) converted['x-webhooks'] = structuredClone(bundle.webhooks);
  dropApiKeyRoles(converted);
  walk(converted, (node) => {
    nullBranchToNullable(node, converted);
    dropConditionals(node);
    wrapRefSiblings(node);
  });
  dropUnreferencedSchemas(converted);
  return converted;
}

// Schemas whose only use was a nullable reference, now copied in place, are no longer referenced.
function dropUnreferencedSchemas(doc) {
  const schemas = doc.components?.schemas ?? {};
  for (let removed = true; removed; ) {
    removed = false;
    const text = JSON.stringify(doc);
    for (const name of Object.keys(schemas)) {
      if (!text.includes(`"#/components/schemas/${name}"`)) {
        delete schemas[name];
        removed = true;
      }
    }
  }
}

function walk(node, visit) {
  if (Array.isArray(node)) for (const item of node) walk(item, visit);
  else if (node && typeof node === 'object') {
    visit(node);
    for (const value of Object.values(node)) walk(value, visit);
  }
}

// `oneOf: [X, { type: 'null' }]` (how the contract writes "X or null") is `nullable: true` in 3.0.
function nullBranchToNullable(node, root) {
  for (const key of ['oneOf', 'anyOf']) {
    const branches = node[key];
    if (!Array.isArray(branches) || !branches.some(isNullType)) continue;
    const rest = branches.filter((branch) => !isNullType(branch));
    delete node[key];
    if (rest.length > 1 && typeof rest[0]?.type === 'string') {
      // "X or Y or null": 3.0's nullable needs a type beside it, so the first typed branch takes null.
      node[key] = [{ ...rest[0], nullable: true }, ...rest.slice(1)];
      continue;
    }
    node.nullable = true;
    if (rest.length > 1) node[key] = rest;
    else if (rest[0]?.$ref) {
      // A 3.0 `allOf: [$ref]` still rejects null inside the referenced schema, so "X or null" is
      // written with a copy of X (its name is lost in this variant only).
      const target = root.components?.schemas?.[rest[0].$ref.split('/').pop()];
      Object.assign(node, { ...structuredClone(target), ...withoutKeys(node, ['title']), nullable: true });
    } else Object.assign(node, { ...rest[0], nullable: true });
  }
}

const withoutKeys = (object, keys) => Object.fromEntries(Object.entries(object).filter(([k]) => !keys.includes(k)));

const isNullType = (schema) =>
  schema &&
  schema.type === 'null' &&
  Object.keys(schema).every((k) => k === 'type' || k.startsWith('x-') || k === 'description');

// if/then/else and dependentSchemas do not exist in 3.0 schemas: they go, and an allOf member left
// empty goes too. A dependent schema that is a bare $ref on a property the schema itself requires
// (each named error "is also an ApiError" on its always-present code) always applies, so it becomes
// an allOf member: the same for validators, and it keeps ApiError and the catalogue (ErrorCode) in
// this variant. (Generators reading this variant intersect the narrowed codes with the catalogue.)
function dropConditionals(node) {
  const required = new Set(
    [node, ...(Array.isArray(node.allOf) ? node.allOf : [])].flatMap((s) =>
      Array.isArray(s?.required) ? s.required : [],
    ),
  );
  for (const [key, dependent] of Object.entries(node.dependentSchemas ?? {})) {
    if (!required.has(key) || typeof dependent?.$ref !== 'string' || Object.keys(dependent).length !== 1) continue;
    node.allOf = [...(node.allOf ?? []), dependent];
  }
  delete node.dependentSchemas;
  if ('if' in node && typeof node.if === 'object') {
    delete node.if;
    delete node.then;
    delete node.else;
  }
  if (!Array.isArray(node.allOf)) return;
  node.allOf = node.allOf.filter((member) => {
    if (member && typeof member === 'object' && 'if' in member) dropConditionals(member);
    return !(member && typeof member === 'object' && Object.keys(member).length === 0);
  });
  if (node.allOf.length === 0) delete node.allOf;
}

// In 3.0 a schema $ref ignores its siblings (description, x-svc-*): keep them by wrapping the $ref
// in an allOf of one member.
function wrapRefSiblings(node) {
  if (typeof node.$ref !== 'string' || !node.$ref.startsWith('#/components/schemas/')) return;
  if (Object.keys(node).length === 1) return;
  const ref = node.$ref;
  delete node.$ref;
  node.allOf = [{ $ref: ref }, ...(node.allOf ?? [])];
}

// 3.0 allows scopes only on oauth2/openIdConnect requirements ("for other security scheme types,
// the array MUST be empty"); the scopes stay readable in each operation's description and in
// x-svc-scopes, under the same name as in the 3.1 bundle.
function dropApiKeyRoles(doc) {
  const schemes = doc.components?.securitySchemes ?? {};
  const empty = (requirements) =>
    requirements?.map((requirement) =>
      Object.fromEntries(
        Object.entries(requirement).map(([name, scopes]) => {
          if (schemes[name]?.type === 'oauth2' || schemes[name]?.type === 'openIdConnect') return [name, scopes];
          return [name, []];
        }),
      ),
    );
  if (doc.security) doc.security = empty(doc.security);
  for (const item of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(item)) {
      if (operation && typeof operation === 'object' && Array.isArray(operation.security)) {
        operation['x-svc-scopes'] = [...new Set(operation.security.flatMap((r) => Object.values(r).flat()))];
        operation.security = empty(operation.security);
      }
    }
  }
}
