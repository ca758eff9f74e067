// Deals: no list operation exposes deal ids, so they come from the config file (fixtures.deal_ids).
// The baseline reads the first; reads.every-fixture reads each of them.
import { need } from '../fixtures.js';
import { readEachFixture } from './each-fixture.js';
import { operationChecks } from './operation-checks.js';

operationChecks('getDeal', {
  baseline: (_t, f) => ({ params: { id: need(f.deals[0], 'a deal id (set fixtures.deal_ids in the config file)') } }),
});

readEachFixture('getDeal', { param: 'id', ids: (f) => f.deals, what: 'deals (fixtures.deal_ids)' });
