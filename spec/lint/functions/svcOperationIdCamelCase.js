// svc-operation-id-camel-case: every operation (paths and webhooks) has an operationId in camelCase.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { operations } from './lib/oas.js';

export default createRulesetFunction(
  {
    input: null,
    options: {
      type: ['object', 'null'],
      properties: { pattern: { type: 'string' } },
      additionalProperties: false,
    },
  },
  function svcOperationIdCamelCase(doc, options) {
    const pattern = new RegExp(options?.pattern ?? '^[a-z][a-zA-Z0-9]*$');
    const results = [];
    for (const o of operations(doc, { webhooks: true })) {
      const id = o.op.operationId;
      if (typeof id !== 'string' || id === '') {
        results.push({ message: `Operation ${o.label} has no operationId.`, path: o.path });
      } else if (!pattern.test(id)) {
        results.push({
          message: `operationId '${id}' of ${o.route} is not camelCase (${pattern.source}).`,
          path: [...o.path, 'operationId'],
        });
      }
    }
    return results;
  },
);
