// svc-operation-summary: every operation (paths and webhooks) has a non-empty summary.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { isNonEmptyString, operations } from './lib/oas.js';

export default createRulesetFunction({ input: null, options: null }, function svcOperationSummary(doc) {
  const results = [];
  for (const o of operations(doc, { webhooks: true })) {
    if (isNonEmptyString(o.op.summary)) continue;
    results.push({
      message: `Operation ${o.label} has no summary (a non-empty string is required).`,
      path: o.op.summary === undefined ? o.path : [...o.path, 'summary'],
    });
  }
  return results;
});
