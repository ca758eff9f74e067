// svc-snake-case-properties: every property name is snake_case, except in a schema that carries
// x-svc-naming-exception (which applies to that schema's own properties only).
import { childPath, houseRule, isObject, walkDocumentSchemas } from './lib/oas.js';

export default houseRule(
  { pattern: { type: 'string' }, exceptionKeyword: { type: 'string' } },
  function svcSnakeCaseProperties(doc, options, context) {
    const re = new RegExp(options?.pattern ?? '^[a-z][a-z0-9]*(_[a-z0-9]+)*$');
    const exception = options?.exceptionKeyword ?? 'x-svc-naming-exception';
    const results = [];
    walkDocumentSchemas(doc, (schema, path) => {
      if (!isObject(schema.properties) || exception in schema) return;
      for (const name of Object.keys(schema.properties)) {
        if (re.test(name)) continue;
        results.push({
          message: `Property name '${name}' is not snake_case (mark the schema with ${exception} if the description spells it so).`,
          path: childPath(context, [...path, 'properties'], name),
        });
      }
    });
    return results;
  },
);
