// svc-no-default-response: no operation (paths or webhooks) has a `default` response: it would hide
// undocumented statuses from contract tests.
import { childPath, houseRule, isObject, operations } from './lib/oas.js';

export default houseRule(null, function svcNoDefaultResponse(doc, _o, context) {
  const results = [];
  for (const o of operations(doc, { webhooks: true })) {
    if (isObject(o.op.responses) && 'default' in o.op.responses) {
      results.push({
        message: `Operation ${o.label} has a 'default' response; document each status explicitly.`,
        path: childPath(context, [...o.path, 'responses'], 'default'),
      });
    }
  }
  return results;
});
