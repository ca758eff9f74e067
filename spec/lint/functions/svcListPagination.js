// svc-list-pagination: an operation under `paths` whose 200 response schema has a required
// `pagination` property takes the `page` and `size` query parameters; and an operation taking the
// `page` query parameter returns such a required pagination in its 200 response.
import { findParameter, houseRule, isObject, JSON_MEDIA, operations } from './lib/oas.js';

/** Whether the schema (or one of its allOf members) requires `property` and defines it. */
function requiresProperty(schema, property, seen = new WeakSet()) {
  if (!isObject(schema) || seen.has(schema)) return false;
  seen.add(schema);
  if (Array.isArray(schema.required) && schema.required.includes(property) && isObject(schema.properties?.[property])) {
    return true;
  }
  return Array.isArray(schema.allOf) && schema.allOf.some((s) => requiresProperty(s, property, seen));
}

export default houseRule(
  {
    property: { type: 'string' },
    pageParameter: { type: 'string' },
    sizeParameter: { type: 'string' },
  },
  function svcListPagination(doc, options) {
    const property = options?.property ?? 'pagination';
    const page = options?.pageParameter ?? 'page';
    const size = options?.sizeParameter ?? 'size';
    const results = [];
    for (const o of operations(doc)) {
      const ok = isObject(o.op.responses) ? o.op.responses['200'] : undefined;
      const schema = isObject(ok?.content) ? ok.content[JSON_MEDIA]?.schema : undefined;
      const paged = requiresProperty(schema, property);
      const takesPage = findParameter(o, page, 'query') !== undefined;
      if (paged) {
        const missing = [page, size].filter((n) => findParameter(o, n, 'query') === undefined);
        if (missing.length > 0) {
          results.push({
            message: `Operation ${o.label} returns a required ${property} but does not take the query parameter(s) ${missing.join(', ')}.`,
            path: Array.isArray(o.op.parameters) ? [...o.path, 'parameters'] : o.path,
          });
        }
      } else if (takesPage) {
        results.push({
          message: `Operation ${o.label} takes the query parameter ${page} but its 200 response has no required ${property}.`,
          path: isObject(ok) ? [...o.path, 'responses', '200'] : o.path,
        });
      }
    }
    return results;
  },
);
