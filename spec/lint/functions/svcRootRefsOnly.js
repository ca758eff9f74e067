// svc-root-refs-only (runs on the UNRESOLVED root document): every entry under `paths` and
// `webhooks` of the root file is exactly { $ref: <file> }: one file per path / webhook.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { isObject } from './lib/oas.js';

export default createRulesetFunction({ input: null, options: null }, function svcRootRefsOnly(doc) {
  const results = [];
  for (const where of ['paths', 'webhooks']) {
    if (!isObject(doc?.[where])) continue;
    for (const [key, item] of Object.entries(doc[where])) {
      const ok = isObject(item) && Object.keys(item).length === 1 && typeof item.$ref === 'string' && item.$ref !== '';
      if (ok) continue;
      const extra = isObject(item) ? Object.keys(item).filter(k => k !== '$ref') : [];
      results.push({
        message: `${where === 'paths' ? 'Path' : 'Webhook'} '${key}' in the root document must be exactly { $ref: <file> }${
          extra.length > 0 ? ` (found ${extra.join(', ')})` : ''
        }.`,
        path: [where, key],
      });
    }
  }
  return results;
});
