// Shared helpers of the house rules (spec/lint/ruleset.yaml). Not a rule function itself: the
// ruleset's `functions:` list names only the svc*.js files; Spectral's bundler (rollup) inlines this
// module into each of them.
//
// Almost every house rule runs with `given: $` on the RESOLVED document (every $ref replaced by its
// target) and walks it itself. Result paths are paths in that resolved document; Spectral maps each
// one back through the $refs to the file and line where the offending node is written. Hence:
//   - a component referenced from many places is met many times (as the same object with Spectral's
//     default resolver, as equal copies with lint/resolver.cjs): messages never mention the context
//     it was reached from, so Spectral's de-duplication (code + location + message) reports a
//     mistake in a shared component once; walks also skip objects (and raw nodes) already seen;
//   - keys written next to a $ref ("siblings", legal in OAS 3.1) are dropped by the resolver. Where a
//     rule must see them (markers, x-svc-error-code), it reads the raw node of the source file via
//     rawAt(), and reports them at the parent's path (a path through the $ref would be mapped to the
//     $ref's target instead).

import { createRulesetFunction } from '@stoplight/spectral-core';

/**
 * A house rule's function: it reads the whole document (`given: $`), and its options, where it has
 * any (`properties` not null), are an object of those properties, each optional, and nothing else.
 */
export const houseRule = (properties, fn) =>
  createRulesetFunction(
    { input: null, options: properties && { type: ['object', 'null'], properties, additionalProperties: false } },
    fn,
  );

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
export const WRITE_METHODS = new Set(['post', 'put', 'patch', 'delete']);

export const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
export const isNonEmptyString = (v) => typeof v === 'string' && v.trim().length > 0;

// ---------------------------------------------------------------------------------------------
// Operations

/**
 * Every operation of the document: under `paths` always, under `webhooks` when asked.
 * Yields { where: 'paths' | 'webhooks', key, method, op, pathItem, path, label }; label is
 * 'createThread (POST /v2/api/threads)' (or 'callReceivedWebhook (webhook CALL_RECEIVED POST)').
 */
export function* operations(doc, { webhooks = false } = {}) {
  const groups = webhooks ? ['paths', 'webhooks'] : ['paths'];
  for (const where of groups) {
    const items = doc?.[where];
    if (!isObject(items)) continue;
    for (const [key, pathItem] of Object.entries(items)) {
      if (!isObject(pathItem)) continue;
      for (const method of HTTP_METHODS) {
        const op = pathItem[method];
        if (!isObject(op)) continue;
        yield {
          where,
          key,
          method,
          op,
          pathItem,
          path: [where, key, method],
          label: operationLabel(where, key, method, op),
        };
      }
    }
  }
}

export function operationLabel(where, key, method, op) {
  const id = typeof op?.operationId === 'string' && op.operationId !== '' ? `${op.operationId} ` : '';
  return where === 'webhooks'
    ? `${id}(webhook ${key} ${method.toUpperCase()})`
    : `${id}(${method.toUpperCase()} ${key})`;
}

export const isWrite = (o) => o.where === 'paths' && WRITE_METHODS.has(o.method);

/**
 * The operation's parameters with the path item's ones merged in (an operation-level parameter
 * overrides a path-level one with the same name and location), as a list of { param, path }.
 */
export function parameters(o) {
  const own = listed(o.op.parameters, o.path);
  const overridden = new Set(own.map(({ param }) => paramKey(param)));
  return [
    ...own,
    ...listed(o.pathItem.parameters, [o.where, o.key]).filter(({ param }) => !overridden.has(paramKey(param))),
  ];
}

/** The objects of a `parameters` list, as { param, path }. */
const listed = (list, path) =>
  (Array.isArray(list) ? list : []).flatMap((param, i) =>
    isObject(param) ? [{ param, path: [...path, 'parameters', i] }] : [],
  );

const paramKey = (p) => `${String(p.in)}:${p.in === 'header' ? String(p.name).toLowerCase() : String(p.name)}`;

export const findParameter = (o, name, location) =>
  parameters(o).find(
    ({ param }) =>
      param.in === location && typeof param.name === 'string' && paramKey(param) === paramKey({ in: location, name }),
  );

export function responses(o) {
  return isObject(o.op.responses) ? Object.entries(o.op.responses) : [];
}

/** '404' -> { exact: 404 }, '4XX' -> { range: 4 }, anything else -> null. */
export function statusOf(key) {
  const k = String(key);
  if (/^[1-5][0-9][0-9]$/.test(k)) return { exact: Number(k), klass: Number(k[0]) };
  if (/^[1-5]XX$/i.test(k)) return { range: Number(k[0]), klass: Number(k[0]) };
  return null;
}

export const isErrorStatus = (key) => [4, 5].includes(statusOf(key)?.klass);

export const statusMatches = (key, status) => {
  const s = statusOf(key);
  if (s === null || typeof status !== 'number') return false;
  return s.exact !== undefined ? s.exact === status : Math.floor(status / 100) === s.range;
};

// ---------------------------------------------------------------------------------------------
// Error responses

export const JSON_MEDIA = 'application/json';

/**
 * Reads the house shape of an error response's application/json schema, an envelope
 * { type: object, required: [error], properties: { error: … } } whose error is:
 *   { form: 'none' }                               (no application/json content)
 *   { form: 'direct' }                             the error schema (ApiError) itself
 *   { form: 'allOf', typeConst, codes, at }        { allOf: [ApiErrorFields, { properties: { type: {const},
 *                                                    code: <Name>Code, a plain string enum } }] }
 *   { form: 'bad', reason }                        anything else
 * The narrowing sits inside `error`, not beside the envelope, so that example checkers that close
 * each allOf member (Redocly) and generators read it; it builds on ApiErrorFields (type and code
 * plain strings), not on ApiError, whose catalogue enum generators would intersect with the
 * narrowed list (never). `at` is the path of the narrowing member's properties, under `error`.
 */
export function errorResponseForm(response, errorTitle = 'ApiError') {
  const media = isObject(response?.content) ? response.content[JSON_MEDIA] : undefined;
  if (!isObject(media)) return { form: 'none' };
  const schema = media.schema;
  if (!isObject(schema)) return { form: 'bad', reason: 'has no schema' };
  const error = isObject(schema.properties) ? schema.properties.error : undefined;
  if (!isObject(error) || !Array.isArray(schema.required) || !schema.required.includes('error')) {
    return { form: 'bad', reason: 'is not an object that requires properties.error' };
  }
  const fieldsTitle = `${errorTitle}Fields`;
  if (isObject(error) && error.title === errorTitle) return { form: 'direct' };
  const members = Array.isArray(error.allOf) ? error.allOf : [];
  if (members.length !== 2 || !isObject(members[0]) || members[0].title !== fieldsTitle || !isObject(members[1])) {
    return {
      form: 'bad',
      reason: `has a properties.error that is neither ${errorTitle} nor allOf [${fieldsTitle}, { its type and codes }]`,
    };
  }
  const typeConst = members[1].properties?.type?.const;
  const code = members[1].properties?.code;
  if (typeof typeConst !== 'string') {
    return { form: 'bad', reason: 'has no properties.error.allOf[1].properties.type.const string' };
  }
  const codes = isObject(code) ? code.enum : undefined;
  if (!Array.isArray(codes) || codes.length === 0 || !codes.every((c) => typeof c === 'string')) {
    return { form: 'bad', reason: 'has no properties.error.allOf[1].properties.code with a non-empty enum of strings' };
  }
  if (code.type !== 'string' || 'allOf' in code || '$ref' in code) {
    return {
      form: 'bad',
      reason: 'has a properties.error.allOf[1].properties.code that is not a plain string enum (generators need one)',
    };
  }
  return { form: 'allOf', typeConst, codes, at: ['properties', 'error', 'allOf', 1, 'properties'] };
}

/** The codes an error response lists (allOf form), or null when it lists none. */
export function listedCodes(response, errorTitle) {
  const f = errorResponseForm(response, errorTitle);
  return f.form === 'allOf' ? f.codes : null;
}

/**
 * The result, if any, for an operation that must document `status` listing every one of `codes`.
 * `why` completes the messages, e.g. 'which takes a request body'.
 */
export function missingDocumentedCodes(o, status, codes, why) {
  const response = isObject(o.op.responses) ? o.op.responses[status] : undefined;
  if (!isObject(response)) {
    return {
      message: `Operation ${o.label}, ${why}, does not document ${status} (${codes.join(', ')}).`,
      path: isObject(o.op.responses) ? [...o.path, 'responses'] : o.path,
    };
  }
  const listed = listedCodes(response) ?? [];
  const missing = codes.filter((c) => !listed.includes(c));
  if (missing.length === 0) return undefined;
  return {
    message: `The ${status} response of ${o.label}, ${why}, does not list ${missing.join(', ')}.`,
    path: [...o.path, 'responses', status],
  };
}

// ---------------------------------------------------------------------------------------------
// Named schemas found in the document (the catalogue is read from the spec, never hard-coded)

const titleCache = new WeakMap();

/**
 * The schema named `title`: components.schemas[title] when the document has it (the bundle), else
 * the first schema anywhere in the resolved document whose `title` is `title` (the multi-file source,
 * whose root has no components.schemas: ErrorCode is reached through ErrorResponse -> ApiError).
 */
export function findSchemaByTitle(doc, title) {
  if (!isObject(doc)) return undefined;
  let perDoc = titleCache.get(doc);
  if (perDoc === undefined) {
    perDoc = new Map();
    titleCache.set(doc, perDoc);
  }
  if (perDoc.has(title)) return perDoc.get(title);
  let found = doc.components?.schemas?.[title];
  if (!isObject(found)) {
    found = undefined;
    const seen = new WeakSet();
    const stack = [doc];
    while (stack.length > 0 && found === undefined) {
      const node = stack.pop();
      if (node === null || typeof node !== 'object' || seen.has(node)) continue;
      seen.add(node);
      if (!Array.isArray(node) && node.title === title) {
        found = node;
        break;
      }
      for (const v of Object.values(node)) if (v !== null && typeof v === 'object') stack.push(v);
    }
  }
  perDoc.set(title, found);
  return found;
}

/**
 * The error catalogue: Map code -> { status, type } from ErrorCode's `enum` and its `x-svc-codes`
 * ({ CODE: { x-svc-status, x-svc-error-type } }), or null when the document has no catalogue.
 */
export function catalogue(doc, title = 'ErrorCode') {
  const schema = findSchemaByTitle(doc, title);
  if (!isObject(schema) || !Array.isArray(schema.enum)) return null;
  const facts = isObject(schema['x-svc-codes']) ? schema['x-svc-codes'] : {};
  const map = new Map();
  for (const code of schema.enum) {
    if (typeof code !== 'string') continue;
    const entry = isObject(facts[code]) ? facts[code] : {};
    map.set(code, { status: entry['x-svc-status'], type: entry['x-svc-error-type'] });
  }
  return map;
}

/** ErrorType's x-svc-status-of-type: Map type -> [statuses], or null. */
export function statusesOfType(doc, title = 'ErrorType') {
  const schema = findSchemaByTitle(doc, title);
  const m = schema?.['x-svc-status-of-type'];
  if (!isObject(m)) return null;
  return new Map(Object.entries(m).map(([t, s]) => [t, Array.isArray(s) ? s : [s]]));
}

// ---------------------------------------------------------------------------------------------
// Schemas

const SCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions'];
const SCHEMA_LIST_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_KEYWORDS = [
  'items',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'propertyNames',
  'contentSchema',
];

/**
 * Calls visit(schema, path) for every schema object reachable from `schema` (each object once);
 * when visit returns false the schema's subschemas are skipped.
 */
export function walkSchema(schema, path, visit, seen = new WeakSet()) {
  if (!isObject(schema) || seen.has(schema)) return;
  seen.add(schema);
  if (visit(schema, path) === false) return;
  for (const k of SCHEMA_MAP_KEYWORDS) {
    if (!isObject(schema[k])) continue;
    for (const [name, sub] of Object.entries(schema[k])) walkSchema(sub, [...path, k, name], visit, seen);
  }
  for (const k of SCHEMA_LIST_KEYWORDS) {
    if (Array.isArray(schema[k]))
      for (const [i, sub] of schema[k].entries()) walkSchema(sub, [...path, k, i], visit, seen);
  }
  for (const k of SCHEMA_KEYWORDS) {
    if (Array.isArray(schema[k]))
      for (const [i, sub] of schema[k].entries()) walkSchema(sub, [...path, k, i], visit, seen);
    else walkSchema(schema[k], [...path, k], visit, seen);
  }
}

/**
 * Where schemas sit beside their examples: the node itself when it has a `schema` (a parameter, a
 * header), then each media type of its `content` that has one. Appends to `out` entries
 * { holder, path, label, flag }, flag being what the examples need not carry: 'readOnly' in request
 * bodies, 'writeOnly' in responses, null elsewhere.
 */
function holdersOf(node, path, label, flag, out) {
  if (!isObject(node)) return out;
  if (isObject(node.schema)) out.push({ holder: node, path, label, flag });
  if (!isObject(node.content)) return out;
  for (const [mt, media] of Object.entries(node.content)) {
    if (isObject(media) && isObject(media.schema))
      out.push({ holder: media, path: [...path, 'content', mt], label: `${label} (${mt})`, flag });
  }
  return out;
}

/** The schemas of a parameter or request body, as [schema, path]: its `schema`, then each media type's. */
export const schemasOf = (node, path) =>
  holdersOf(node, path, '', null, []).map((h) => [h.holder.schema, [...h.path, 'schema']]);

/**
 * Every schema holder of the document (see holdersOf): operations under paths and webhooks first,
 * then the components (parameters, headers, request bodies, responses, path items).
 */
export function schemaHolders(doc) {
  const out = [];
  const parameters = (list, path) => {
    if (Array.isArray(list))
      for (const [i, p] of list.entries())
        holdersOf(p, [...path, 'parameters', i], `parameter ${String(p?.name)}`, null, out);
  };
  const response = (r, path, label) => {
    holdersOf(r, path, label, 'writeOnly', out);
    if (isObject(r?.headers))
      for (const [h, header] of Object.entries(r.headers))
        holdersOf(header, [...path, 'headers', h], `header ${h}`, null, out);
  };
  const pathItem = (item, path, name) => {
    if (!isObject(item)) return;
    parameters(item.parameters, path);
    for (const m of HTTP_METHODS) {
      const op = item[m];
      if (!isObject(op)) continue;
      parameters(op.parameters, [...path, m]);
      holdersOf(
        op.requestBody,
        [...path, m, 'requestBody'],
        `the request body of ${m.toUpperCase()} ${name}`,
        'readOnly',
        out,
      );
      if (isObject(op.responses))
        for (const [st, r] of Object.entries(op.responses))
          response(r, [...path, m, 'responses', st], `response ${st}`);
    }
  };
  for (const where of ['paths', 'webhooks']) {
    if (isObject(doc?.[where])) for (const [key, item] of Object.entries(doc[where])) pathItem(item, [where, key], key);
  }
  const c = isObject(doc?.components) ? doc.components : {};
  const each = (kind, fn) => {
    if (isObject(c[kind])) for (const [n, v] of Object.entries(c[kind])) fn(v, ['components', kind, n], n);
  };
  each('parameters', (p, path, n) => holdersOf(p, path, `parameter ${n}`, null, out));
  each('headers', (h, path, n) => holdersOf(h, path, `header ${n}`, null, out));
  each('requestBodies', (b, path, n) => holdersOf(b, path, `request body ${n}`, 'readOnly', out));
  each('responses', (r, path, n) => response(r, path, `response ${n}`));
  each('pathItems', pathItem);
  return out;
}

/**
 * Calls visit(schema, path) once for every schema object of the document, from its root schemas:
 * operations (paths, webhooks) first, then components.
 */
export function walkDocumentSchemas(doc, visit) {
  const roots = schemaHolders(doc).map(({ holder, path }) => [holder.schema, [...path, 'schema']]);
  const schemas = isObject(doc?.components?.schemas) ? Object.entries(doc.components.schemas) : [];
  const at = roots.findIndex(([, path]) => path[0] === 'components');
  roots.splice(at === -1 ? roots.length : at, 0, ...schemas.map(([n, s]) => [s, ['components', 'schemas', n]]));
  const seen = new WeakSet();
  for (const [schema, path] of roots) walkSchema(schema, path, visit, seen);
}

/** The type keyword as a list (OAS 3.1: `type: [string, "null"]`). */
export const typesOf = (s) => (Array.isArray(s?.type) ? s.type : typeof s?.type === 'string' ? [s.type] : []);

export const isNullSchema = (s) => isObject(s) && typesOf(s).length > 0 && typesOf(s).every((t) => t === 'null');

/**
 * The non-null alternative of a nullable wrapper (oneOf/anyOf of one schema and {type: "null"}),
 * or the schema itself.
 */
export function unwrapNullable(s) {
  if (!isObject(s)) return s;
  for (const k of ['oneOf', 'anyOf']) {
    if (!Array.isArray(s[k])) continue;
    const others = s[k].filter((x) => !isNullSchema(x));
    if (others.length === 1 && s[k].length === 2) return others[0];
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// Raw (unresolved) nodes and report paths

/** The node as written in its source file (with $ref siblings), for a path of the resolved document. */
export function rawAt(context, path) {
  const inv = context?.documentInventory;
  if (inv === undefined || typeof inv.findAssociatedItemForPath !== 'function') return undefined;
  try {
    const item = inv.findAssociatedItemForPath(path, true);
    if (item === null || item === undefined) return undefined;
    return item.path.reduce(
      (node, segment) => (node !== null && typeof node === 'object' ? node[segment] : undefined),
      item.document.data,
    );
  } catch {
    return undefined;
  }
}

/**
 * The path at which to report something about `parent[key]`: parent+key, unless parent[key] is
 * written as a $ref (then the parent: a path through the $ref would point into the $ref's target).
 */
export function childPath(context, parentPath, key) {
  const raw = rawAt(context, parentPath);
  const child = Array.isArray(raw) || isObject(raw) ? raw[key] : undefined;
  if (isObject(child) && typeof child.$ref === 'string') return parentPath;
  return [...parentPath, key];
}

// Keys whose values are instance data (examples, defaults), not OpenAPI/JSON Schema structure...
const DATA_KEYS = new Set(['example', 'default', 'const', 'enum']);
// ...unless they are names in a map of named things (a property called `default`, the default response).
const NAME_MAPS = new Set([
  'properties',
  'patternProperties',
  'dependentSchemas',
  '$defs',
  'definitions',
  'paths',
  'webhooks',
  'responses',
  'schemas',
  'parameters',
  'headers',
  'requestBodies',
  'pathItems',
  'securitySchemes',
  'links',
  'callbacks',
  'content',
  'variables',
]);

/**
 * Walks every object of the resolved document once (skipping example/default/const/enum data) and
 * calls visit(resolvedNode, rawNode, path), rawNode being the node as written in its file.
 */
export function walkNodes(context, doc, visit) {
  const seen = new WeakSet();
  const seenRaw = new WeakSet(); // a file location reached through several $refs is walked once
  const walk = (node, path, inExamples) => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const [i, v] of node.entries()) walk(v, [...path, i], false);
      return;
    }
    const raw = rawAt(context, path);
    if (isObject(raw)) {
      if (seenRaw.has(raw)) return;
      seenRaw.add(raw);
    }
    visit(node, isObject(raw) ? raw : node, path);
    const names = path.length > 0 && NAME_MAPS.has(String(path[path.length - 1]));
    for (const [k, v] of Object.entries(node)) {
      if (!names && DATA_KEYS.has(k)) continue;
      if (inExamples && k === 'value') continue; // an Example object's value
      if (k === 'examples') {
        if (Array.isArray(v)) continue; // schema examples (data)
        if (isObject(v)) {
          for (const [name, ex] of Object.entries(v)) walk(ex, [...path, k, name], true);
        }
        continue;
      }
      walk(v, [...path, k], false);
    }
  };
  walk(doc, [], false);
}

/**
 * Calls visit(node, pathOf, where) for every object as written in its file (walkNodes' raw node)
 * and for every `$ref` object written in one, whose siblings the resolver drops. pathOf(key) is
 * where to report the node's `key`: below the node, or for a $ref's sibling at the parent (a path
 * through the $ref would be mapped to its target); `where` names that $ref for messages ('' else).
 */
export function walkWritten(context, doc, visit) {
  walkNodes(context, doc, (_node, raw, path) => {
    visit(raw, (key) => [...path, key], '');
    for (const [k, v] of Object.entries(raw)) {
      const items = Array.isArray(v)
        ? v.map((x, i) => [x, [...path, k], ` (next to the $ref at ${k}[${i}])`])
        : [[v, path, ` (next to the $ref at '${k}')`]];
      for (const [x, at, where] of items) if (isObject(x) && typeof x.$ref === 'string') visit(x, () => at, where);
    }
  });
}
