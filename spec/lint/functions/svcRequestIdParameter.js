// svc-request-id-parameter: every operation under `paths` takes the X-Request-Id header parameter.
import { findParameter, houseRule, operations } from './lib/oas.js';

export default houseRule({ header: { type: 'string' } }, function svcRequestIdParameter(doc, options) {
  const header = options?.header ?? 'X-Request-Id';
  const results = [];
  for (const o of operations(doc)) {
    if (findParameter(o, header, 'header') !== undefined) continue;
    results.push({
      message: `Operation ${o.label} does not take the ${header} header parameter.`,
      path: Array.isArray(o.op.parameters) ? [...o.path, 'parameters'] : o.path,
    });
  }
  return results;
});
