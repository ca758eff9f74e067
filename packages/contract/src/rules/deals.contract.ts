// Deals: no list operation exposes deal ids, so they come from the config file (fixtures.deal_ids).
// The baseline reads the first; reads.every-fixture reads each of them.
import { need } from '../fixtures.js';
import { dataOf, type Exchange } from '../http/exchange.js';
import { loadSpec } from '../spec.js';
import { readEachFixture } from './each-fixture.js';
import { contractOperation, rule } from './harness.js';
import { operationChecks } from './operation-checks.js';
import { unless } from './problems.js';
import { deepEqual, type Json, ok, short } from './support.js';

const GET = 'getDeal';

operationChecks(GET, {
  baseline: (_t, f) => ({ params: { id: need(f.deals[0], 'a deal id (set fixtures.deal_ids in the config file)') } }),
});

readEachFixture(GET, { param: 'id', ids: (f) => f.deals, what: 'deals (fixtures.deal_ids)' });

/**
 * The two names of the deal's monetary value (the Deal schema's response-example name and
 * field-table name). Close dates are not compared: the field table's `close_date` may be when a
 * deal is to close, where `closed_at` is when it closed.
 */
const MONEY_NAMES = ['amount', 'value'] as const;

/** The deal an answer carries, where it names its monetary value both ways. */
function bothNamed(exchange: Exchange): Json | undefined {
  const deal = dataOf(exchange);
  if (!ok(exchange) || typeof deal !== 'object' || deal === null || Array.isArray(deal)) return undefined;
  return MONEY_NAMES.every((name) => name in deal) ? (deal as Json) : undefined;
}

interface DealRead {
  id: string;
  exchange: Exchange;
}

rule({
  id: 'deals.money-names-agree',
  title: 'A deal that states its monetary value under both names (amount and value) states the same value in both',
  source:
    'Deal: the response example shows "amount | number", the field table "value (monetary value)" instead; "a builder may emit both amount/value and closed_at/close_date"',
  precondition: 'the deals of the config (fixtures.deal_ids) read by id; a deal answered with both names',
  operationId: GET,
  resource: loadSpec().resourceOf(contractOperation(GET)),
  needs: {},
  requests: async (t): Promise<DealRead[]> => {
    const properties = loadSpec().schema('Deal')?.properties;
    if (typeof properties !== 'object' || properties === null || !MONEY_NAMES.every((name) => name in properties))
      return t.skip(`the Deal schema no longer names ${MONEY_NAMES.join(' and ')}`);
    const ids = need((await t.fixtures()).deals, 'deal ids (set fixtures.deal_ids in the config file)');
    const reads: DealRead[] = [];
    for (const id of ids.slice(0, t.config.fixturesPerKind ?? 20))
      reads.push({ id, exchange: await t.call({ params: { id } }) });
    return reads;
  },
  problems: (reads) =>
    reads.flatMap(({ id, exchange }) => {
      const deal = bothNamed(exchange);
      if (!deal) return [];
      const [first, second] = MONEY_NAMES;
      return unless(
        deepEqual(deal[first], deal[second]),
        `the deal ${id} states ${first} ${short(deal[first])} but ${second} ${short(deal[second])}: one monetary value under two names`,
        exchange,
      );
    }),
  // A server that names the value one way only (either naming alone is allowed) holds the rule:
  // there is nothing to compare, and no config could change that.
  passed: (reads) =>
    reads.some(({ exchange }) => bothNamed(exchange))
      ? `${reads.map((r) => r.id).join(', ')}: where both names were sent, they agree`
      : `${reads.map((r) => r.id).join(', ')}: each named its value one way only, nothing to compare`,
});
