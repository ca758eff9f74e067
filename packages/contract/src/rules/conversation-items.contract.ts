// Conversation items (calls and text messages): search, batch, fetch, and tags on an item.
import { deref, idPrefixes, propertiesOf } from '@svc/spec-runtime';
import { listedCode, ownCodes } from '../expectations/expect.js';
import { type Fixtures, type ItemFixture, need } from '../fixtures.js';
import { constraintId } from '../generate/constraints.js';
import { sample } from '../generate/schema.js';
import type { ApiRequest, Exchange } from '../http/exchange.js';
import { readEachFixture } from './each-fixture.js';
import { type CheckContext, contractOperation, type Held, type Problem, rule, statefulWrite } from './harness.js';
import { documentedHeaders, operationChecks } from './operation-checks.js';
import { errorsOf, unless } from './problems.js';
import { asKey, IDEMPOTENCY_REPLAY, ok, type Repeats, replayProblems, sendRepeats, teamReaders } from './support.js';

function anItem(t: CheckContext, f: Fixtures): ItemFixture {
  // Text messages first: a call with several completed summaries needs a template_key to be fetched.
  const [message = ''] = idPrefixes(t.spec.schema('TextMessageId') ?? {});
  const isMessage = (item: ItemFixture) => message !== '' && item.id.startsWith(message);
  return need(
    f.items.find(isMessage) ?? f.items[0],
    'a call or text message (no conversation listed a last item; or set fixtures.item_ids)',
  );
}

function searchQuery(t: CheckContext, f: Fixtures): string {
  if (f.searchQuery !== undefined) return f.searchQuery;
  const op = t.op('searchConversationItems');
  const schema = t.spec.resolve(op.requestBody?.schemaPointer ?? '') as
    | { properties?: Record<string, unknown> }
    | undefined;
  return String(sample(t.spec, schema?.properties?.query ?? { examples: ['a'] }));
}

operationChecks('searchConversationItems', { baseline: (t, f) => ({ body: { query: searchQuery(t, f) } }) });

operationChecks('batchGetConversationItems', {
  // Every known item in one batch (up to --fixtures-per-kind): one request reads them all.
  baseline: (t, f) => ({
    body: {
      ids: need(
        f.items.slice(0, t.config.fixturesPerKind ?? 20).map((i) => i.id),
        'call or message ids',
      ),
    },
  }),
});

operationChecks('getConversationItem', { baseline: (t, f) => ({ params: { id: anItem(t, f).id } }) });

readEachFixture('getConversationItem', {
  param: 'id',
  ids: (f) => f.items.map((i) => i.id),
  what: 'calls and messages (the last item of each conversation, on each line; fixtures.item_ids)',
});

function tagOf(t: CheckContext, f: Fixtures): string {
  return f.tags[0] ?? `svc-contract-${t.config.runId}`;
}

operationChecks('addConversationItemTags', {
  // Success depends on whether the tag is already there: tags.add-remove handles that state.
  success: false,
  baseline: (t, f) => ({ params: { id: anItem(t, f).id }, body: { tags: [tagOf(t, f)] } }),
});

/** A tag's round trip on an item: added, added again, removed, removed again (and put back if it was there). */
interface TagRoundTrip {
  item: string;
  tag: string;
  /** The tag was already on the item (the seed's own tag, or a run that stopped half-way): taken off first. */
  cleared?: Exchange;
  added: Exchange;
  /** The item read by the team's other keys that may read it, once the tag was added. */
  seenByTeam?: Array<{ key: string; exchange: Exchange }>;
  /** Sent only once the tag was added. */
  addedAgain?: Exchange;
  removed?: Exchange;
  removedAgain?: Exchange;
  restored?: Exchange;
  /** The tag and another team tag added together, then each removed (the second first). */
  pair?: {
    companion: string;
    added: Exchange;
    removedSecond?: Exchange;
    removedFirst?: Exchange;
    /** The tag put back alone, then sent again behind the companion: the conflict in a later entry. */
    behind?: Exchange;
  };
  /** The body's tags take a single tag (minItems 1): the add exercised that bound from inside. */
  single: boolean;
}

function takesSingleTag(t: CheckContext): boolean {
  const op = t.op('addConversationItemTags');
  if (!op.requestBody) return false;
  const body = deref(t.spec.contract, t.spec.resolve(op.requestBody.schemaPointer));
  return propertiesOf(t.spec.contract, body).tags?.minItems === 1;
}

/**
 * A team tag whose name a URL path carries percent-encoded ("Follow%20up" for "Follow up"). None
 * of the suite's own: a tag added to an item stays in the team's list (no operation deletes one).
 */
function encodedTagOf(f: Fixtures): string | undefined {
  return f.tags.find((tag) => encodeURIComponent(tag) !== tag);
}

/** "A key belongs to a single team": the item as each of the team's other keys that may read it reads it. */
async function readByTeam(t: CheckContext, item: string): Promise<NonNullable<TagRoundTrip['seenByTeam']>> {
  const readers = teamReaders(t, t.op('getConversationItem'), t.op('addConversationItemTags'), '');
  const seen: NonNullable<TagRoundTrip['seenByTeam']> = [];
  for (const key of readers)
    seen.push({ key: key.name, exchange: await t.call({ params: { id: item } }, asKey(key), 'getConversationItem') });
  return seen;
}

/** The tag added shows on the item wherever a key of the team reads its tags. */
function seenByTeamProblems({ item, tag, seenByTeam = [] }: TagRoundTrip): Problem[] {
  return seenByTeam.flatMap(({ key, exchange }) => {
    const tags = (exchange.body as { data?: { tags?: unknown } } | undefined)?.data?.tags;
    return unless(
      !ok(exchange) || !Array.isArray(tags) || tags.includes(tag),
      `${tag} added to ${item} by the run key: the team's key "${key}" reads the item with the tags ${JSON.stringify(tags)}`,
      exchange,
    );
  });
}

async function tagRoundTrip(t: CheckContext, tag: string, trip: string, companion?: string): Promise<TagRoundTrip> {
  const f = await t.fixtures();
  const item = anItem(t, f).id;
  // With every header each documents (a request id, an idempotency key), fresh per request.
  let n = 0;
  const headers = (id: string) => documentedHeaders(t.op(id), `${t.config.runId}-tags-${trip}-${++n}`);
  const add = () =>
    t.call(
      { params: { id: item }, body: { tags: [tag] } },
      headers('addConversationItemTags'),
      'addConversationItemTags',
    );
  const remove = () =>
    t.call({ params: { id: item, tag } }, headers('removeConversationItemTag'), 'removeConversationItemTag');
  const base = { item, tag, single: takesSingleTag(t) };
  let added = await add();
  let cleared: Exchange | undefined;
  if (added.status === 409) {
    cleared = await remove();
    if (!ok(cleared)) return { ...base, cleared, added };
    added = await add();
  }
  const wasThere = cleared ? { cleared } : {};
  if (!ok(added)) return { ...base, ...wasThere, added };
  const seenByTeam = await readByTeam(t, item);
  const addedAgain = await add();
  const removed = await remove();
  const removedAgain = await remove();
  const pair = companion && ok(removed) ? await addPair(t, item, tag, companion, headers) : undefined;
  // Leave the item as it was found.
  const restored = cleared ? await add() : undefined;
  return {
    ...base,
    ...wasThere,
    added,
    seenByTeam,
    addedAgain,
    removed,
    removedAgain,
    ...(pair ? { pair } : {}),
    ...(restored ? { restored } : {}),
  };
}

/**
 * The tag and another team tag added in one request, then each removed: the second tag named is
 * stored too (a server whose loop stops after the first answers 404 TAG_NOT_FOUND for it). Where the
 * other is already on the item (409), nothing is judged and the tag is taken off again. Then the tag
 * alone, and both again with the tag second: the tag already there is a conflict in a later entry
 * too (a server that checks the first entry only adds the other); both taken off after.
 */
async function addPair(
  t: CheckContext,
  item: string,
  tag: string,
  companion: string,
  headers: (id: string) => Partial<ApiRequest>,
): Promise<TagRoundTrip['pair']> {
  const added = await t.call(
    { params: { id: item }, body: { tags: [tag, companion] } },
    headers('addConversationItemTags'),
    'addConversationItemTags',
  );
  const remove = (name: string) =>
    t.call({ params: { id: item, tag: name } }, headers('removeConversationItemTag'), 'removeConversationItemTag');
  if (!ok(added)) {
    await remove(tag);
    return { companion, added };
  }
  const removed = { removedSecond: await remove(companion), removedFirst: await remove(tag) };
  if (!ok(removed.removedSecond) || !ok(removed.removedFirst)) return { companion, added, ...removed };
  const send = (tags: string[]) =>
    t.call({ params: { id: item }, body: { tags } }, headers('addConversationItemTags'), 'addConversationItemTags');
  if (!ok(await send([tag]))) return { companion, added, ...removed };
  const behind = await send([companion, tag]);
  if (ok(behind)) await remove(companion);
  await remove(tag);
  return { companion, added, ...removed, behind };
}

function tagRoundTripProblems(s: TagRoundTrip, t: CheckContext): Problem[] {
  const { item, tag, cleared, added, addedAgain, removed, removedAgain, restored } = s;
  if (cleared && !ok(cleared))
    return [
      { message: `the tag ${tag} was already on ${item} and removing it gave ${cleared.status}`, exchange: cleared },
    ];
  if (!ok(added) || !addedAgain || !removed || !removedAgain)
    return [{ message: `adding ${tag} to ${item}: expected 2xx, got ${added.status}`, exchange: added }];
  const op = t.op('addConversationItemTags');
  const conflict = { status: 409, codes: ownCodes(t.spec, op, 409), why: `${tag} is already on ${item}` };
  return [
    ...errorsOf(addedAgain, conflict, 'adding the same tag again'),
    ...unless(ok(removed), `removing ${tag} from ${item}: expected 2xx, got ${removed.status}`, removed),
    ...errorsOf(
      removedAgain,
      listedCode(t.spec, t.op('removeConversationItemTag'), 'TAG_NOT_FOUND'),
      'removing it again',
    ),
    ...(restored ? unless(ok(restored), `restoring ${tag} on ${item} failed`, restored) : []),
    ...seenByTeamProblems(s),
    ...pairProblems(s, t),
  ];
}

function pairProblems({ item, tag, pair }: TagRoundTrip, t: CheckContext): Problem[] {
  if (!pair?.removedSecond || !pair.removedFirst) return [];
  const both = `${tag} and ${pair.companion}, added to ${item} together`;
  const conflict = {
    status: 409,
    codes: ownCodes(t.spec, t.op('addConversationItemTags'), 409),
    why: `${tag} is already on ${item}`,
  };
  return [
    ...(pair.behind ? errorsOf(pair.behind, conflict, `${pair.companion} then ${tag}, ${tag} already on ${item}`) : []),
    ...unless(
      ok(pair.removedSecond),
      `${both}: removing ${pair.companion}, the second, gave ${pair.removedSecond.status} (it was not stored)`,
      pair.removedSecond,
    ),
    ...unless(ok(pair.removedFirst), `${both}: removing ${tag} gave ${pair.removedFirst.status}`, pair.removedFirst),
  ];
}

/** The single tag added counts as the minItems bound exercised from inside, however the rest went. */
function singleTagHeld({ single, cleared, added }: TagRoundTrip): Held[] {
  if (!single || (cleared && !ok(cleared)) || !ok(added)) return [];
  return [{ detail: 'a single tag', constraint: { id: constraintId('body', 'tags', 'minItems', 1), side: 'inside' } }];
}

/** The round trip of a team tag, then, where the team has one, of a tag whose name the path percent-encodes. */
async function tagRoundTrips(t: CheckContext): Promise<TagRoundTrip[]> {
  const f = await t.fixtures();
  const plainTag = tagOf(t, f);
  const plain = await tagRoundTrip(
    t,
    plainTag,
    'plain',
    f.tags.find((name) => name !== plainTag),
  );
  const encodedTag = encodedTagOf(f);
  return encodedTag === undefined ? [plain] : [plain, await tagRoundTrip(t, encodedTag, 'encoded')];
}

// Adding a tag, then again (409: already there), removing it, then again (TAG_NOT_FOUND); for a
// team tag, and for a team tag whose name needs percent-encoding in the path.
rule({
  id: 'tags.add-remove',
  title:
    "Tags: add, add again (409), remove, remove again (404); the tag added shows on the item to the team's other keys that read it; a tag whose name the path percent-encodes too; two tags added in one request, each then removed (the second was stored); a tag already on the item sent behind another (409)",
  source:
    'addConversationItemTags / removeConversationItemTag; TagName: "In a URL path it is URL-encoded (for example Follow%20up)"',
  precondition:
    'an item and a tag it does not carry yet (a team tag, else one new to the team), then it and another team tag together, then the tag alone and both again with the tag second, then, where the team has one, a team tag whose name needs percent-encoding',
  ...statefulWrite('addConversationItemTags'),
  requests: tagRoundTrips,
  problems: (trips, t) => trips.flatMap((trip) => tagRoundTripProblems(trip, t)),
  held: (trips) => trips.flatMap(singleTagHeld),
  passed: (trips) =>
    `round trips of ${trips.map((trip) => JSON.stringify(trip.tag)).join(' and ')}${trips.length < 2 ? ' (no team tag needs percent-encoding in the path)' : ''}`,
});

operationChecks('removeConversationItemTag', {
  success: false,
  baseline: (t, f) => ({ params: { id: anItem(t, f).id, tag: tagOf(t, f) } }),
});

interface TagReplay {
  item: string;
  tag: string;
  added: Exchange;
  replayed: string;
  repeats?: Repeats;
}

/**
 * An item and a team tag it does not carry: added and removed, it leaves both the item and the team's
 * tag list as found. A probe name only where the item carries them all (no operation deletes a
 * tag from the team's list, so that one stays).
 */
export async function replayTarget(t: CheckContext, purpose: string): Promise<{ item: string; tag: string }> {
  const f = await t.fixtures();
  const item = anItem(t, f).id;
  const read = await t.call({ params: { id: item } }, {}, 'getConversationItem');
  const carried = (read.body as { data?: { tags?: unknown } } | undefined)?.data?.tags;
  const free = Array.isArray(carried) ? f.tags.find((tag) => !carried.includes(tag)) : undefined;
  // A probe tag of the run's own where no team tag is known to be free: one per purpose, so that
  // the tag one replay added is not the one the next one adds first.
  return { item, tag: free ?? `svc-contract-${t.config.runId}-${purpose}` };
}

// Idempotency is stated for every write method: here on a POST of a tag the item does not carry
// (sent again without the key, it would be 409 TAG_ALREADY_EXISTS: a replay is the stored 2xx).
const adding = contractOperation('addConversationItemTags').method;
rule({
  ...IDEMPOTENCY_REPLAY,
  ...statefulWrite('addConversationItemTags', adding),
  requests: async (t): Promise<Repeats> => {
    const { item, tag } = await replayTarget(t, 'replay-add');
    return sendRepeats(t, `${adding} the tag ${tag} to ${item}`, 'replay', (keyed) =>
      t.call({ params: { id: item }, body: { tags: [tag] } }, keyed),
    );
  },
  problems: (repeats, t) => replayProblems(repeats, t.spec.idempotencyReplayedHeader),
  passed: (repeats) => `${repeats.what}: 3 repeats replayed`,
});

// Idempotency is stated for every write method: here on a DELETE of a tag added for it.
const { method } = contractOperation('removeConversationItemTag');
rule({
  ...IDEMPOTENCY_REPLAY,
  ...statefulWrite('removeConversationItemTag', method),
  requests: async (t): Promise<TagReplay> => {
    const { item, tag } = await replayTarget(t, 'replay-remove');
    const added = await t.call({ params: { id: item }, body: { tags: [tag] } }, {}, 'addConversationItemTags');
    const replayed = t.spec.idempotencyReplayedHeader;
    if (!ok(added)) return { item, tag, added, replayed };
    const repeats = await sendRepeats(t, `${method} the tag ${tag}`, 'replay', (keyed) =>
      t.call({ params: { id: item, tag } }, keyed),
    );
    return { item, tag, added, replayed, repeats };
  },
  problems: ({ item, tag, added, replayed, repeats }) =>
    repeats
      ? replayProblems(repeats, replayed)
      : [{ message: `adding the probe tag ${tag} to ${item}: expected 2xx, got ${added.status}`, exchange: added }],
  passed: ({ repeats }) => (repeats ? `${repeats.what}: 3 repeats replayed` : undefined),
});
