// Deals: no list operation exposes deal ids, so they come from the config file (fixtures.deal_ids).
import { need } from '../fixtures.js';
import { operationChecks } from './operation-checks.js';

operationChecks('getDeal', {
  baseline: (_t, f) => ({ params: { id: need(f.deals[0], 'a deal id (set fixtures.deal_ids in the config file)') } }),
});
