// svc-operation-single-tag: every operation (paths and webhooks) has exactly one tag, and that tag
// is declared in the root `tags`.
import { houseRule, isObject, operations } from './lib/oas.js';

export default houseRule(null, function svcOperationSingleTag(doc) {
  const declared = new Set(
    (Array.isArray(doc?.tags) ? doc.tags : [])
      .filter((t) => isObject(t) && typeof t.name === 'string')
      .map((t) => t.name),
  );
  const results = [];
  for (const o of operations(doc, { webhooks: true })) {
    const tags = o.op.tags;
    if (!Array.isArray(tags) || tags.length !== 1) {
      const n = Array.isArray(tags) ? tags.length : 0;
      results.push({
        message: `Operation ${o.label} must have exactly one tag; it has ${n}.`,
        path: Array.isArray(tags) ? [...o.path, 'tags'] : o.path,
      });
      continue;
    }
    if (!declared.has(tags[0])) {
      results.push({
        message: `Tag '${String(tags[0])}' of operation ${o.label} is not declared in the root tags.`,
        path: [...o.path, 'tags', 0],
      });
    }
  }
  return results;
});
