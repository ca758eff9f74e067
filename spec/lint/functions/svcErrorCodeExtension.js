// svc-error-code-extension:
//   1. every x-svc-error-code (a code, or a map of JSON Schema keyword -> code) names codes of the
//      error catalogue (ErrorCode, read from the document), with known JSON Schema keywords as keys,
//      or `not-found`: the code of a path parameter's value that names no resource.
//      Checked on every node as written, $ref siblings included.
//   2. every operation under `paths` whose parameters or request body use a schema carrying
//      x-svc-error-code (anywhere inside: properties, items, allOf, ...) lists each such code in its
//      error response of the code's catalogue status (the 400 for validation codes).
//      Read-only properties are skipped (they are never sent). $ref siblings are included for
//      properties written as { $ref, x-svc-error-code }.
import {
  catalogue,
  houseRule,
  isObject,
  listedCodes,
  operations,
  parameters,
  rawAt,
  schemasOf,
  walkSchema,
  walkWritten,
} from './lib/oas.js';

const KEYWORDS = new Set([
  'type',
  'enum',
  'const',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'contains',
  'minContains',
  'maxContains',
  'minProperties',
  'maxProperties',
  'required',
  'dependentRequired',
  'additionalProperties',
  'unevaluatedProperties',
  'propertyNames',
  'patternProperties',
  'items',
  'prefixItems',
  'unevaluatedItems',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'dependentSchemas',
  'contentMediaType',
  'contentEncoding',
  // Not a JSON Schema keyword: the not-found code of a path parameter where its operation lists several.
  'not-found',
]);

/** [code, keyword|null] pairs of an x-svc-error-code value, or null when malformed. */
function codesOf(value) {
  if (typeof value === 'string') return value === '' ? null : [[value, null]];
  if (
    isObject(value) &&
    Object.keys(value).length > 0 &&
    Object.values(value).every((v) => typeof v === 'string' && v !== '')
  ) {
    return Object.entries(value).map(([k, v]) => [v, k]);
  }
  return null;
}

export default houseRule(
  { keyword: { type: 'string' }, errorCode: { type: 'string' } },
  function svcErrorCodeExtension(doc, options, context) {
    const key = options?.keyword ?? 'x-svc-error-code';
    const cat = catalogue(doc, options?.errorCode ?? 'ErrorCode');
    const results = [];

    // 1. every occurrence, as written
    const check = (value, path, where) => {
      const pairs = codesOf(value);
      if (pairs === null) {
        results.push({
          message: `${key}${where} must be a code or a non-empty map of JSON Schema keyword -> code.`,
          path,
        });
        return;
      }
      for (const [code, kw] of pairs) {
        if (kw !== null && !KEYWORDS.has(kw)) {
          results.push({
            message: `${key}${where} maps '${kw}', which is not a JSON Schema validation keyword.`,
            path,
          });
        }
        if (cat !== null && !cat.has(code)) {
          results.push({
            message: `${key}${where} names ${code}, which is not in the error catalogue (ErrorCode).`,
            path,
          });
        }
      }
    };
    walkWritten(context, doc, (node, pathOf, where) => {
      if (key in node) check(node[key], pathOf(key), where);
    });

    // 2. operations list the codes of the schemas they take
    if (cat === null) return results;
    for (const o of operations(doc)) {
      const used = new Map(); // code -> where it was found
      const add = (value, where) => {
        for (const [code] of codesOf(value) ?? []) if (!used.has(code)) used.set(code, where);
      };
      const sources = []; // [where, [[schema, path], ...]]
      for (const { param, path } of parameters(o)) {
        const where = `parameter ${String(param.name)}`;
        if (key in param) add(param[key], where);
        sources.push([where, schemasOf(param, path)]);
      }
      if (isObject(o.op.requestBody))
        sources.push(['request body', schemasOf(o.op.requestBody, [...o.path, 'requestBody'])]);
      for (const [where, roots] of sources) {
        for (const [root, rootPath] of roots) {
          walkSchema(root, rootPath, (schema, path) => {
            if (schema.readOnly === true) return false;
            if (key in schema) add(schema[key], where);
            const raw = rawAt(context, path);
            if (!isObject(raw?.properties)) return;
            for (const p of Object.values(raw.properties)) {
              if (isObject(p) && typeof p.$ref === 'string' && key in p) add(p[key], where);
            }
          });
        }
      }
      for (const [code, where] of used) {
        const status = cat.get(code)?.status;
        if (status === undefined) continue; // reported by part 1
        const response = isObject(o.op.responses) ? o.op.responses[String(status)] : undefined;
        const listed = isObject(response) ? (listedCodes(response) ?? []) : [];
        if (listed.includes(code)) continue;
        results.push({
          message: `Operation ${o.label} takes a schema with ${key} ${code} (${where}) but its ${String(status)} response does not list ${code}.`,
          path: isObject(response)
            ? [...o.path, 'responses', String(status)]
            : isObject(o.op.responses)
              ? [...o.path, 'responses']
              : o.path,
        });
      }
    }
    return results;
  },
);
