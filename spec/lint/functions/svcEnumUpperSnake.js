// svc-enum-upper-snake: string enum values are UPPER_SNAKE (null is allowed, for
// `type: [string, "null"]`), except in a schema that carries x-svc-naming-exception. The schema
// walk looks at `enum` wherever it is, whatever `type` says (no JSONPath filter on type, which
// would miss OAS 3.1 type arrays).
import { houseRule, walkDocumentSchemas } from './lib/oas.js';

export default houseRule(
  { pattern: { type: 'string' }, exceptionKeyword: { type: 'string' } },
  function svcEnumUpperSnake(doc, options) {
    const re = new RegExp(options?.pattern ?? '^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$');
    const exception = options?.exceptionKeyword ?? 'x-svc-naming-exception';
    const results = [];
    walkDocumentSchemas(doc, (schema, path) => {
      if (!Array.isArray(schema.enum) || exception in schema) return;
      schema.enum.forEach((value, i) => {
        if (value === null || typeof value !== 'string' || re.test(value)) return;
        results.push({
          message: `Enum value '${value}' is not UPPER_SNAKE (mark the schema with ${exception} if the description spells it so).`,
          path: [...path, 'enum', i],
        });
      });
    });
    return results;
  },
);
