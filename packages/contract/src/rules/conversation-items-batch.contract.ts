// The batch read of conversation items holds what was selected: "POST /v2/api/conversations/items/batch
// ... At most 100 items per batch" reads the items whose ids it is sent. Its response shape is not
// shown, so the items are read where the answer shows them in the form the description does show
// (objects with a cll- or msg- id, in whatever envelope; or an object keyed by the ids): each item
// asked for and found by id (its read answered 2xx, or refused only for want of a template_key) is
// shown, no item id that was not asked for is, and the collection holding the items holds nothing
// else. The calls the config names for their summaries (one, several or none completed) are
// batched too: a call no list shows is as much an item as the listed ones.
import { idPrefixes, isObject } from '@svc/spec-runtime';
import { listedCode } from '../expectations/expect.js';
import { type Exchange, errorCode } from '../http/exchange.js';
import { loadSpec } from '../spec.js';
import { type CheckContext, contractOperation, type Problem, rule } from './harness.js';
import { isSuccess, statusIs, unless } from './problems.js';
import { ok } from './support.js';

const OP = 'batchGetConversationItems';
const op = contractOperation(OP);
const READ = 'getConversationItem';

/** Items read by id and batched, at most (a handful: the baseline batches every known item already). */
const MAX_ITEMS = 6;
/** Bounds of the walk through an answer whose shape is not shown. */
const MAX_DEPTH = 4;
const MAX_NODES = 2000;

interface BatchSelection {
  /** Ids whose read by id showed the item exists. */
  found: string[];
  /** Ids read and not found (not batched). */
  unread: string[];
  batch?: Exchange;
}

/** Whether a read by id shows the item exists: a success, or the refusal of a call that needs a template_key. */
function exists(t: CheckContext, exchange: Exchange): boolean {
  if (ok(exchange)) return true;
  const required = listedCode(t.spec, t.op(READ), 'SUMMARY_TEMPLATE_KEY_REQUIRED');
  const code = errorCode(exchange);
  return exchange.status === required.status && code !== undefined && required.codes.includes(code);
}

async function batchKnownItems(t: CheckContext): Promise<BatchSelection> {
  const f = await t.fixtures();
  const configured = t.config.config.fixtures;
  const calls = [
    ...(configured.no_completed_summary_call_ids ?? []),
    ...(configured.one_completed_summary_call_ids ?? []),
    ...(configured.several_completed_summary_call_ids ?? []),
  ];
  const ids = [...new Set([...f.items.map((i) => i.id).slice(0, MAX_ITEMS - 2), ...calls])].slice(0, MAX_ITEMS);
  if (ids.length === 0) return t.skip('no call or text message is known (fixtures.item_ids)', 'config');
  const found: string[] = [];
  const unread: string[] = [];
  for (const id of ids) (exists(t, await t.call({ params: { id } }, {}, READ)) ? found : unread).push(id);
  if (found.length === 0) return { found, unread };
  return { found, unread, batch: await t.call({ body: { ids: found } }) };
}

interface Shown {
  /** Item ids the answer shows: an object's `id`, or a key of an object. */
  ids: Set<string>;
  /** The arrays holding at least one item object. */
  collections: unknown[][];
}

/** The items an answer shows, walked breadth-first within bounds. */
function shownItems(body: unknown, prefixes: readonly string[]): Shown {
  const isItemId = (v: unknown): v is string => typeof v === 'string' && prefixes.some((p) => v.startsWith(p));
  const shown: Shown = { ids: new Set(), collections: [] };
  let level: unknown[] = [body];
  let nodes = 0;
  for (let depth = 0; depth <= MAX_DEPTH && level.length > 0 && nodes < MAX_NODES; depth++) {
    const next: unknown[] = [];
    for (const node of level) {
      if (++nodes > MAX_NODES) break;
      if (Array.isArray(node)) {
        if (node.some((e) => isObject(e) && isItemId(e.id))) shown.collections.push(node);
        next.push(...node.slice(0, 200));
      } else if (isObject(node)) {
        if (isItemId(node.id)) shown.ids.add(node.id);
        for (const [key, value] of Object.entries(node)) {
          if (isItemId(key) && isObject(value)) shown.ids.add(key);
          next.push(value);
        }
      }
    }
    level = next;
  }
  return shown;
}

function selectionProblems({ found, batch }: BatchSelection, t: CheckContext): Problem[] {
  if (!batch) return [];
  const sent = `${op.method} ${op.path} with ${found.join(', ')} (each found by id)`;
  const status = statusIs(batch, isSuccess, sent);
  if (status.length > 0) return status;
  const prefixes = idPrefixes(t.spec.schema('ConversationItemId') ?? {});
  const shown = shownItems(batch.body, prefixes);
  const asked = new Set(found);
  const strays = shown.collections.flatMap((c) =>
    c.filter((e) => !(isObject(e) && typeof e.id === 'string' && asked.has(e.id))).slice(0, 5),
  );
  return [
    ...unless(
      found.every((id) => shown.ids.has(id)),
      `${sent}: the answer leaves out ${found.filter((id) => !shown.ids.has(id)).join(', ')}`,
      batch,
    ),
    ...unless(
      [...shown.ids].every((id) => asked.has(id)),
      `${sent}: the answer shows ${[...shown.ids].filter((id) => !asked.has(id)).join(', ')}, not asked for`,
      batch,
    ),
    ...unless(
      strays.length === 0,
      `${sent}: the collection of items also holds ${strays.map((e) => JSON.stringify(e).slice(0, 60)).join(', ')}`,
      batch,
    ),
  ];
}

rule({
  id: 'conversation-items.batch-selected',
  title:
    'A batch of items each found by id shows each of them, and only them: no item left out, none not asked for, nothing else among the items (in whatever envelope the unshown answer uses)',
  source:
    'POST /v2/api/conversations/items/batch "At most 100 items per batch" (a read of the items sent); Identifier prefixes (Call cll-, Text message msg-)',
  precondition:
    "items each read by id first (a 2xx, or a call's refusal for want of a template_key): the conversations' last items and the calls the config names for their summaries, one with no completed summary among them",
  operationId: OP,
  resource: loadSpec().resourceOf(op),
  needs: { stateful: true },
  requests: batchKnownItems,
  problems: selectionProblems,
  passed: ({ found }) => `${found.length} items batched, each shown once asked: ${found.join(', ')}`,
  notReached: ({ found, unread }) =>
    found.length === 0 ? `no item of ${unread.join(', ')} was found by id (fixtures.item_ids)` : undefined,
});
