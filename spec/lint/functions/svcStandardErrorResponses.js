// svc-standard-error-responses: every operation under `paths` documents 401, 403, 429 and 500.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { isObject, operations } from './lib/oas.js';

export default createRulesetFunction(
  {
    input: null,
    options: {
      type: ['object', 'null'],
      properties: { statuses: { type: 'array', items: { type: 'string' } } },
      additionalProperties: false,
    },
  },
  function svcStandardErrorResponses(doc, options) {
    const statuses = options?.statuses ?? ['401', '403', '429', '500'];
    const results = [];
    for (const o of operations(doc)) {
      const rs = isObject(o.op.responses) ? o.op.responses : {};
      const missing = statuses.filter(s => !isObject(rs[s]));
      if (missing.length > 0) {
        results.push({
          message: `Operation ${o.label} does not document the standard error response(s) ${missing.join(', ')}.`,
          path: isObject(o.op.responses) ? [...o.path, 'responses'] : o.path,
        });
      }
    }
    return results;
  },
);
