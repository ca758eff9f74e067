// A tag is on an item, not on the team: "TAG_ALREADY_EXISTS: tag already on the item" and
// "TAG_NOT_FOUND: tag not on this item" name the item of the path. So a tag on one item never
// blocks it on another, and removing one tag from an item removes neither its other tags nor the
// same tag from another item. Reached with two items and two tags, each pair cleared first and put
// back after.
import { listedCode, ownCodes } from '../expectations/expect.js';
import { need } from '../fixtures.js';
import { type Exchange, errorCode, errorOf } from '../http/exchange.js';
import { type CheckContext, type Problem, rule, statefulWrite } from './harness.js';
import { errorsOf, unless } from './problems.js';
import { ok } from './support.js';

const ADD = 'addConversationItemTags';
const REMOVE = 'removeConversationItemTag';

interface Pair {
  item: string;
  tag: string;
}

interface PerItem {
  /** Item A with tags T1 and T2; item B with T1. */
  a: string;
  b: string;
  t1: string;
  t2: string;
  /** What each clearing remove answered (2xx: the pair was there, and is put back). */
  cleared: Array<Pair & { exchange: Exchange }>;
  adds: Array<Pair & { exchange: Exchange }>;
  removes: Array<Pair & { exchange: Exchange; why: string }>;
  restores: Exchange[];
}

async function tagsPerItem(t: CheckContext): Promise<PerItem> {
  const f = await t.fixtures();
  const [first, second] = f.items;
  const { a, b } = need(
    first && second ? { a: first.id, b: second.id } : undefined,
    'two calls or text messages (fixtures.item_ids)',
  );
  // The team's tags where the list names them (its entry shape is not shown), else tags of the run's own.
  const t1 = f.tags[0] ?? `svc-contract-${t.config.runId}-1`;
  const t2 = f.tags[1] ?? `svc-contract-${t.config.runId}`;
  const add = ({ item, tag }: Pair) => t.call({ params: { id: item }, body: { tags: [tag] } }, {}, ADD);
  const remove = ({ item, tag }: Pair) => t.call({ params: { id: item, tag } }, {}, REMOVE);
  const pairs: Pair[] = [
    { item: a, tag: t1 },
    { item: a, tag: t2 },
    { item: b, tag: t1 },
  ];
  const cleared: PerItem['cleared'] = [];
  for (const pair of pairs) cleared.push({ ...pair, exchange: await remove(pair) });
  const adds: PerItem['adds'] = [];
  for (const pair of pairs) adds.push({ ...pair, exchange: await add(pair) });
  const removes: PerItem['removes'] = [];
  const steps: Array<[Pair, string]> = [
    [pairs[0] as Pair, `${t1} was added to ${a}`],
    [pairs[1] as Pair, `${t2} stays on ${a} when ${t1} is removed from it`],
    [pairs[2] as Pair, `${t1} stays on ${b} when it is removed from ${a}`],
  ];
  for (const [pair, why] of steps) removes.push({ ...pair, why, exchange: await remove(pair) });
  const restores: Exchange[] = [];
  for (const c of cleared) if (ok(c.exchange)) restores.push(await add(c));
  return { a, b, t1, t2, cleared, adds, removes, restores };
}

function perItemProblems(s: PerItem, t: CheckContext): Problem[] {
  const notFound = listedCode(t.spec, t.op(REMOVE), 'TAG_NOT_FOUND');
  const stuck = s.cleared.find((c) => !ok(c.exchange) && c.exchange.status !== notFound.status);
  if (stuck)
    return [
      {
        message: `clearing ${stuck.tag} from ${stuck.item} first: got ${stuck.exchange.status}`,
        exchange: stuck.exchange,
      },
    ];
  const added = s.adds.flatMap(({ item, tag, exchange }, i) =>
    unless(
      ok(exchange),
      i === 2
        ? `${tag} is on ${s.a} but not on ${item}: adding it to ${item} must succeed (TAG_ALREADY_EXISTS is "already on the item"), got ${exchange.status}`
        : `adding ${tag} to ${item}: expected 2xx, got ${exchange.status}`,
      exchange,
    ),
  );
  if (added.length > 0) return added;
  return [
    ...s.removes.flatMap(({ item, tag, why, exchange }) =>
      unless(ok(exchange), `removing ${tag} from ${item}: expected 2xx (${why}), got ${exchange.status}`, exchange),
    ),
    ...s.restores.flatMap((r) => unless(ok(r), `putting a tag back failed (${r.status})`, r)),
    // A clearing remove that did not succeed must be the documented "not on this item".
    ...s.cleared
      .filter((c) => !ok(c.exchange))
      .flatMap((c) => errorsOf(c.exchange, notFound, `removing ${c.tag} from ${c.item}, where it was not`)),
  ];
}

rule({
  id: 'tags.per-item',
  title:
    "A tag belongs to the item it was added to: added to a second item while on a first, and removing one tag leaves the item's other tags and the other item's tag",
  source: 'TAG_ALREADY_EXISTS: "Tag already on the item"; TAG_NOT_FOUND: "Tag not on this item"',
  precondition:
    'two items and two tags: the first item carrying both tags and the second the first tag at once (each cleared first, put back after)',
  ...statefulWrite(ADD),
  requests: tagsPerItem,
  problems: perItemProblems,
  passed: (s) => `${s.t1} on ${s.a} and ${s.b}, ${s.t2} on ${s.a}: each removed alone`,
});

interface TwoSent {
  item: string;
  /** The tag already on the item, sent second; the other one, not on it, sent first. */
  on: string;
  other: string;
  setup: Exchange;
  sent?: Exchange;
  cleanup: Exchange[];
}

/** A team tag (or one of the run's own) that neither holds nor is held in the other's name. */
const apart = (a: string, b: string) => !a.includes(b) && !b.includes(a);

async function twoTagsOneOn(t: CheckContext): Promise<TwoSent> {
  const f = await t.fixtures();
  const item = need(f.items[0]?.id, 'a call or text message (fixtures.item_ids)');
  const on = f.tags[0] ?? `svc-contract-${t.config.runId}-1`;
  const other = f.tags.find((tag) => apart(tag, on)) ?? `svc-contract-${t.config.runId}-other`;
  const add = (tag: string) => t.call({ params: { id: item }, body: { tags: [tag] } }, {}, ADD);
  const remove = (tag: string) => t.call({ params: { id: item, tag } }, {}, REMOVE);
  // Either added now or already there (409): the tag is on the item from here on.
  const setup = await add(on);
  const base = { item, on, other, setup, cleanup: [] as Exchange[] };
  if (!ok(setup) && setup.status !== 409) return base;
  const otherWasOn = ok(await remove(other));
  const sent = await t.call({ params: { id: item }, body: { tags: [other, on] } }, {}, ADD);
  // Both readings of several tags with one already on (all refused, or the others added) are left as found.
  const cleanup = [otherWasOn ? await add(other) : await remove(other)];
  if (ok(setup)) cleanup.push(await remove(on));
  return { ...base, sent, cleanup };
}

rule({
  id: 'tags.conflict-names-tag',
  title:
    'Adding two tags, the second already on the item: a 409 TAG_ALREADY_EXISTS names the tag already on the item in its message, not the one sent first',
  source:
    'Error body: "message | string | Human-readable, includes the failing value"; TAG_ALREADY_EXISTS: "Tag already on the item"',
  precondition:
    'an item carrying one tag, sent that tag second after a tag it does not carry (the other put back as found after)',
  ...statefulWrite(ADD),
  requests: twoTagsOneOn,
  problems: ({ item, on, other, sent }, t) => {
    const conflict = sent?.status === 409 ? sent : undefined;
    if (!conflict) return [];
    const code = errorCode(conflict);
    if (code === undefined || !ownCodes(t.spec, t.op(ADD), 409).includes(code)) return [];
    const message = errorOf(conflict)?.message;
    return unless(
      typeof message === 'string' && message.includes(on),
      `adding [${other}, ${on}] to ${item}, which carries ${on}: the ${code} message ${JSON.stringify(message)} does not name ${on}, the failing value`,
      conflict,
    );
  },
  passed: ({ on, sent }) =>
    sent?.status === 409
      ? `the 409 names ${on}`
      : `answered ${sent?.status} (the other tag added: no conflict to name)`,
  notReached: ({ item, on, setup, sent }) =>
    sent ? undefined : `${on} could not be put on ${item} first (answered ${setup.status})`,
});
