// The idempotency rules where only a change between two sends of a key shows them, on an item's
// tags: a keyed add sent again after the tag was taken off is the stored response, not the add run
// again (Idempotency 3), and a keyed removal refused because the item did not carry the tag leaves
// its key usable once it does (Idempotency 4). The tags the run adds or takes off are put back by
// the undo ledger (undo/item-tags.ts) whatever happens here.
import { type Exchange, header } from '../http/exchange.js';
import { replayTarget } from './conversation-items.contract.js';
import { type CheckContext, type Problem, rule, statefulWrite } from './harness.js';
import { unless } from './problems.js';
import { data, FAILED_NOT_CONSUMED, ok, short, storedReplayProblems } from './support.js';

const ADD = 'addConversationItemTags';
const REMOVE = 'removeConversationItemTag';

const add = (t: CheckContext, item: string, tag: string, keyed = {}) =>
  t.call({ params: { id: item }, body: { tags: [tag] } }, keyed, ADD);
const remove = (t: CheckContext, item: string, tag: string, keyed = {}) =>
  t.call({ params: { id: item, tag } }, keyed, REMOVE);

/** The item's tags as it reads back (undefined where the answer shows none). */
async function tagsOf(t: CheckContext, item: string): Promise<{ exchange: Exchange; tags?: unknown[] }> {
  const exchange = await t.call({ params: { id: item } }, {}, 'getConversationItem');
  const tags = data(exchange)?.tags;
  return { exchange, ...(Array.isArray(tags) ? { tags } : {}) };
}

interface AddRerun {
  item: string;
  tag: string;
  first: Exchange;
  removed?: Exchange;
  again?: Exchange;
  after?: { exchange: Exchange; tags?: unknown[] };
}

function addRerunProblems({ item, tag, first, removed, again, after }: AddRerun, t: CheckContext): Problem[] {
  if (!removed || !again)
    return unless(false, `adding ${tag} to ${item} with a key: expected 2xx, got ${first.status}`, first);
  if (!ok(removed)) return unless(false, `taking ${tag} off ${item}: expected 2xx, got ${removed.status}`, removed);
  const replayed = t.spec.idempotencyReplayedHeader;
  return [
    ...storedReplayProblems(
      `adding ${tag} to ${item} sent again with its key after the tag was taken off`,
      first,
      again,
      replayed,
    ),
    ...(after?.tags
      ? unless(
          !after.tags.includes(tag),
          `adding ${tag} to ${item} sent again with its key after the tag was taken off ran again: the item carries ${tag} ("the operation is not re-executed")`,
          after.exchange,
        )
      : []),
  ];
}

// Idempotency 3: "returns the stored response ... and the operation is not re-executed". The tag
// taken off between the two sends, without a key, is what shows an add that runs again.
rule({
  id: 'tags.replay-not-rerun',
  title:
    'A keyed tag add sent again after the tag was taken off is the stored response replayed, not run again: the item does not carry the tag',
  source:
    'Idempotency 3: "returns the stored response with the header Idempotency-Replayed: true, and the operation is not re-executed"',
  precondition:
    'an item and a tag it does not carry: the tag added with a key, taken off without one, added again with the key; then the item read (its tags shown)',
  ...statefulWrite(ADD, 'rerun'),
  requests: async (t): Promise<AddRerun> => {
    const { item, tag } = await replayTarget(t, 'rerun-add');
    const idempotencyKey = `svc-contract-${t.config.runId}-rerun-tag`;
    const first = await add(t, item, tag, { idempotencyKey });
    if (!ok(first)) return { item, tag, first };
    const removed = await remove(t, item, tag);
    const again = await add(t, item, tag, { idempotencyKey, requestId: `${idempotencyKey}-again` });
    const after = await tagsOf(t, item);
    if (after.tags?.includes(tag)) await remove(t, item, tag);
    return { item, tag, first, removed, again, after };
  },
  problems: addRerunProblems,
  notReached: ({ item, after }) =>
    after?.tags ? undefined : `${item} reads back with no tags: an add run again could not be seen`,
  passed: ({ item, tag }) => `${tag} on ${item}: added (keyed), taken off, added (same key): replayed, not carried`,
});

interface RemovalRetried {
  item: string;
  tag: string;
  failed: Exchange;
  added?: Exchange;
  retried?: Exchange;
  /** Another key's removal that failed, then that key on the add (another endpoint), then the tag taken off. */
  elsewhere?: { failed: Exchange; added: Exchange; undone: Exchange };
}

/** A key no request consumed (its removal failed) is free on another endpoint: the add is executed, not refused. */
function elsewhereProblems({ item, tag, elsewhere }: RemovalRetried): Problem[] {
  if (!elsewhere || ok(elsewhere.failed)) return [];
  const { failed, added } = elsewhere;
  return unless(
    ok(added),
    `the key of a removal that failed (${failed.status}), sent on adding ${tag} to ${item}: expected 2xx, got ${added.status} ${short(added.body)}`,
    added,
  );
}

function removalRetriedProblems({ item, tag, failed, added, retried }: RemovalRetried, t: CheckContext): Problem[] {
  if (ok(failed) || !added || !retried)
    return unless(
      !ok(failed),
      `taking ${tag} off ${item}, which does not carry it, with a key: expected 404, got ${failed.status}`,
      failed,
    );
  if (!ok(added)) return unless(false, `adding ${tag} to ${item}: expected 2xx, got ${added.status}`, added);
  const replayed = t.spec.idempotencyReplayedHeader;
  return [
    ...unless(
      ok(retried),
      `the key of a removal that failed (${failed.status}), sent again once ${item} carries ${tag}: expected 2xx, got ${retried.status} ${short(retried.body)}`,
      retried,
    ),
    ...unless(header(retried, replayed) !== 'true', 'the failed removal was replayed', retried),
  ];
}

// Idempotency 4: "When the request fails (4xx or 5xx), the key is not consumed and can be retried",
// on a DELETE: the removal fails only because of the item's state, which the run then changes.
rule({
  ...FAILED_NOT_CONSUMED,
  ...statefulWrite(REMOVE),
  requests: async (t): Promise<RemovalRetried> => {
    const { item, tag } = await replayTarget(t, 'failed-remove');
    const idempotencyKey = `svc-contract-${t.config.runId}-failed-remove`;
    const failed = await remove(t, item, tag, { idempotencyKey });
    if (ok(failed)) return { item, tag, failed };
    const added = await add(t, item, tag);
    if (!ok(added)) return { item, tag, failed, added };
    const retried = await remove(t, item, tag, { idempotencyKey, requestId: `${idempotencyKey}-retry` });
    if (!ok(retried)) return { item, tag, failed, added, retried };
    // Idempotency 5 is for a key used before: one whose only use failed is not, on another endpoint either.
    const elsewhereKey = { idempotencyKey: `${idempotencyKey}-elsewhere` };
    const failedElsewhere = await remove(t, item, tag, elsewhereKey);
    const addedElsewhere = await add(t, item, tag, elsewhereKey);
    const undone = await remove(t, item, tag);
    const elsewhere = { failed: failedElsewhere, added: addedElsewhere, undone };
    return { item, tag, failed, added, retried, elsewhere };
  },
  problems: (s, t) => [...removalRetriedProblems(s, t), ...elsewhereProblems(s)],
  passed: ({ item, tag, failed }) =>
    `taking ${tag} off ${item}: ${failed.status} with a key, then (the tag added) executed with the same key; another failed removal's key executed on the add`,
});
