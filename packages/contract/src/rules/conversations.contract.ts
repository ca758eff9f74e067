// Conversations: the list, and the actions on a whole conversation. The actions and their
// transitions come from ConversationAction (its enum and x-svc-transitions): every action is
// idempotent, ARCHIVE archives and marks every item read, UNARCHIVE brings an archived
// conversation back. The contract documents no field that shows the state, so the state is only
// observed where an answer carries a boolean named after it (read, archived: on the list entry,
// on an item read singly); otherwise the check stays with what is certain: each action,
// repeated, is a 200 no-op.
import { setTimeout as sleep } from 'node:timers/promises';
import { isObject } from '@svc/spec-runtime';
import { need } from '../fixtures.js';
import { dataOf, type Exchange, header } from '../http/exchange.js';
import { TEMPLATE_KEY, templateKeys } from './call-summaries.js';
import { actionSchema, actionTo } from './conversation-actions.js';
import { type CheckContext, contractOperation, type Problem, rule, statefulWrite } from './harness.js';
import { documentedHeaders, operationChecks } from './operation-checks.js';
import { unless } from './problems.js';
import {
  deepEqual,
  firstDifference,
  IDEMPOTENCY_REPLAY,
  notObservable,
  ok,
  type Repeats,
  replayProblems,
  sendRepeats,
  short,
  TIMESTAMP_TICK_MS,
} from './support.js';

const OP = 'applyConversationAction';

async function act(t: CheckContext, contact: string, action: string): Promise<Exchange> {
  return t.call({ params: { contact_number: contact }, body: { action } }, {}, 'applyConversationAction');
}

/** A rule about a conversation's read state, on a server whose entries show none (see notObservable). */
const readStateUnshown = (t: CheckContext, where: string) =>
  notObservable(t, `${where} shows no read state (the description shows no field of a conversation's state)`);

/** The conversation's list entry, if the first page shows it. */
async function entryOf(t: CheckContext, contact: string): Promise<Record<string, unknown> | undefined> {
  const list = await t.call({ query: { size: t.spec.pageSizeMax } }, {}, 'listConversations');
  const entries = (list.body as { data?: unknown[] } | undefined)?.data;
  return Array.isArray(entries)
    ? (entries.find((e) => isObject(e) && e.contact_number === contact) as Record<string, unknown> | undefined)
    : undefined;
}

operationChecks('listConversations', { baseline: () => ({}) });

operationChecks(OP, {
  baseline: (t, f) => ({
    params: { contact_number: need(f.contacts[0], 'a conversation (GET /v2/api/conversations listed none)') },
    body: { action: actionSchema(t).actions[0] },
  }),
});

const aConversation = async (t: CheckContext) => need((await t.fixtures()).contacts[0], 'a conversation');

// "When given, only to that line": the action scoped to each line of the team (svc_number),
// with every header the operation documents. The first action of the enum (READ) on each line.
rule({
  id: 'conversations.action-on-line',
  title: 'An action scoped to each line of the team (svc_number) is accepted',
  source: 'ConversationActionRequest.svc_number: when given, only to that line',
  precondition: 'each line of the team (up to --fixtures-per-kind) and a conversation to act on',
  ...statefulWrite(OP),
  requests: async (t) => {
    const f = await t.fixtures();
    const contact = need(f.contacts[0], 'a conversation');
    const lines = need(f.lines, 'a line (GET /v2/api/numbers listed none; or set fixtures.lines)');
    const [action] = actionSchema(t).actions;
    if (action === undefined) return t.skip('ConversationAction has no enum');
    const answers: Array<{ line: string; exchange: Exchange }> = [];
    for (const line of lines.slice(0, t.config.fixturesPerKind ?? 20)) {
      const request = { params: { contact_number: contact }, body: { action, svc_number: line } };
      answers.push({
        line,
        exchange: await t.call(request, documentedHeaders(t.op(), `${t.config.runId}-action-${line}`)),
      });
    }
    return { action, answers };
  },
  problems: ({ action, answers }) =>
    answers.flatMap(({ line, exchange }) =>
      unless(ok(exchange), `${action} on line ${line}: expected 200, got ${exchange.status}`, exchange),
    ),
});

interface Repeated {
  action: string;
  first: Exchange;
  again: Exchange;
  /** The conversation's list entry after the first and after the repeat: a no-op leaves it as it was. */
  entries: [Record<string, unknown> | undefined, Record<string, unknown> | undefined];
}

function changedEntry(action: string, before: unknown, after: unknown, again: Exchange): Problem[] {
  const difference = before && after ? firstDifference(before, after) : undefined;
  if (!difference) return [];
  const { at, stored, got } = difference;
  return [
    {
      message: `${action} repeated changed the conversation's list entry: ${at || 'the entry'} ${short(got)} (before the repeat: ${short(stored)})`,
      exchange: again,
    },
  ];
}

function repeatedProblems({ action, first, again, entries: [before, after] }: Repeated): Problem[] {
  if (!ok(first)) return [{ message: `${action}: expected 200, got ${first.status}`, exchange: first }];
  return [
    ...unless(
      again.status === first.status && deepEqual(again.body, first.body),
      `${action} repeated: expected the same ${first.status} no-op, got ${again.status} ${short(again.body)}`,
      again,
    ),
    ...changedEntry(action, before, after, again),
  ];
}

// Every action is idempotent: sent twice, the second is the same 200 no-op, and the conversation
// as listed is the same after it as before it.
rule({
  id: 'conversations.action-idempotent',
  title:
    "Every conversation action repeated is a 200 no-op: the same answer, and the conversation's list entry unchanged",
  source: 'ConversationAction x-svc-transitions',
  precondition:
    "a conversation already in each action's target state: each action sent twice, the list read after each",
  enforces: ['x-svc-transitions action READ (any → read)', 'x-svc-transitions action UNREAD (any → unread)'],
  ...statefulWrite(OP),
  requests: async (t) => {
    const contact = await aConversation(t);
    const repeats: Repeated[] = [];
    for (const action of actionSchema(t).actions) {
      const first = await act(t, contact, action);
      const before = await entryOf(t, contact);
      // The first repeat a second later: one that touches the conversation moves a timestamp of whole seconds.
      if (repeats.length === 0) await sleep(TIMESTAMP_TICK_MS);
      const again = await act(t, contact, action);
      repeats.push({ action, first, again, entries: [before, await entryOf(t, contact)] });
    }
    return repeats;
  },
  problems: (repeats) => repeats.flatMap(repeatedProblems),
});

// Idempotency is stated for every write method: here on a PUT (a READ action is a no-op anyway).
const { method } = contractOperation(OP);
rule({
  ...IDEMPOTENCY_REPLAY,
  ...statefulWrite(OP, method),
  requests: async (t): Promise<{ replayed: string; repeats: Repeats }> => {
    const contact = await aConversation(t);
    const [action, other = action] = actionSchema(t).actions;
    // The key names the write, whatever the body: the last repeat, with another action, is still
    // "the same key sent again to the same endpoint", so the stored answer, not a new execution.
    const what = `${method} action ${action} (the last repeat with action ${other})`;
    const repeats = await sendRepeats(t, what, 'replay', (keyed, repeat) =>
      t.call({ params: { contact_number: contact }, body: { action: repeat === 3 ? other : action } }, keyed),
    );
    return { replayed: t.spec.idempotencyReplayedHeader, repeats };
  },
  problems: ({ replayed, repeats }) => replayProblems(repeats, replayed),
  passed: ({ repeats }) => `${repeats.what}: 3 repeats replayed`,
});

/** A keyed action, its opposite sent without a key, then the keyed action again: replayed or run again. */
interface Rerun {
  contact: string;
  toRead: string;
  toUnread: string;
  /** The read state the list entry showed before; undefined where the entry shows none. */
  before?: boolean;
  first?: Exchange;
  undone?: Exchange;
  again?: Exchange;
  after?: Record<string, unknown>;
  restored?: Exchange;
}

async function replayAfterOpposite(t: CheckContext): Promise<Rerun> {
  const contact = await aConversation(t);
  const toRead = actionTo(t, 'read') ?? t.skip('no action leads to read (x-svc-transitions)');
  const toUnread = actionTo(t, 'unread') ?? t.skip('no action leads to unread (x-svc-transitions)');
  const entry = await entryOf(t, contact);
  if (entry && typeof entry.read !== 'boolean') return readStateUnshown(t, `the list entry of ${contact}`);
  const before = entry?.read;
  const base = { contact, toRead, toUnread };
  if (typeof before !== 'boolean') return base;
  const keyed = { idempotencyKey: `svc-contract-${t.config.runId}-rerun-${toRead}` };
  const send = () => t.call({ params: { contact_number: contact }, body: { action: toRead } }, keyed);
  const first = await send();
  const undone = await act(t, contact, toUnread);
  const again = await send();
  const after = await entryOf(t, contact);
  const restored = await act(t, contact, before ? toRead : toUnread);
  return { ...base, before, first, undone, again, ...(after ? { after } : {}), restored };
}

function rerunProblems(s: Rerun, t: CheckContext): Problem[] {
  const { contact, toRead, toUnread, first, undone, again, after } = s;
  if (!first || !undone || !again) return [];
  const replayed = t.spec.idempotencyReplayedHeader;
  if (!ok(first) || !ok(undone))
    return [
      { message: `${toRead} with a key, then ${toUnread}: expected 200 each`, exchange: ok(first) ? undone : first },
    ];
  return [
    ...unless(
      header(again, replayed) === 'true' && again.status === first.status,
      `${toRead} sent again with its key after ${toUnread}: expected the stored ${first.status} with ${replayed}: true, got ${again.status} (${replayed}: ${JSON.stringify(header(again, replayed) ?? null)})`,
      again,
    ),
    ...unless(
      after?.read === false,
      `${toRead} sent again with its key after ${toUnread} ran again: the conversation of ${contact} reads read=${short(after?.read)}, not the unread state ${toUnread} left ("the operation is not re-executed")`,
      again,
    ),
  ];
}

// Idempotency 3: "returns the stored response ... and the operation is not re-executed". Only a
// change between the first send and the replay shows a server that runs the write again and only
// marks the answer replayed: the opposite action, sent without a key, in between.
rule({
  id: 'conversations.replay-not-rerun',
  title:
    'A keyed action sent again after its opposite is replayed, not run again: the conversation keeps the state the opposite left',
  source:
    'Idempotency 3: "returns the stored response with the header Idempotency-Replayed: true, and the operation is not re-executed"',
  precondition:
    'a conversation whose list entry shows its read state: the action to read with a key, the action to unread without one, the first again with its key (put back after)',
  ...statefulWrite(OP),
  requests: replayAfterOpposite,
  problems: rerunProblems,
  notReached: (s) =>
    s.before === undefined
      ? `the conversation of ${s.contact} is not on the first page of the list: a second run could not be seen`
      : undefined,
  passed: (s) =>
    `${s.toRead} (keyed), ${s.toUnread}, ${s.toRead} (same key): replayed, ${s.contact} left unread, then put back`,
});

/** An item read singly: its conversation and its read state, where the answer shows them. */
interface ItemRead {
  id: string;
  contact?: string;
  read?: boolean;
  exchange: Exchange;
}

async function readItem(t: CheckContext, id: string): Promise<ItemRead> {
  const exchange = await t.call({ params: { id } }, {}, 'getConversationItem');
  const data = dataOf(exchange);
  if (!ok(exchange) || !isObject(data)) return { id, exchange };
  return {
    id,
    exchange,
    ...(typeof data.contact_number === 'string' ? { contact: data.contact_number } : {}),
    ...(typeof data.read === 'boolean' ? { read: data.read } : {}),
  };
}

/**
 * The conversation to archive, and its items among the fixtures (read before the action). One
 * with an unread item is chosen where the fixtures show one: ARCHIVE must then change it, where a
 * conversation whose items are all read already looks the same whether or not the server marks
 * them. The API cannot make an item unread again, so a server that ran the suite before may have
 * none left; the items are then still read back after ARCHIVE.
 */
async function conversationToArchive(t: CheckContext): Promise<{ contact: string; items: ItemRead[] }> {
  const f = await t.fixtures();
  const reads: ItemRead[] = [];
  for (const item of f.items.slice(0, t.config.fixturesPerKind ?? 20)) reads.push(await readItem(t, item.id));
  const unread = reads.find((r) => r.read === false && r.contact !== undefined && f.contacts.includes(r.contact));
  const contact = unread?.contact ?? need(f.contacts[0], 'a conversation');
  return { contact, items: reads.filter((r) => r.contact === contact) };
}

/**
 * A conversation whose list entry reads read=true is made unread first (UNREAD: "any → unread"), so
 * that ARCHIVE has a read state to change and UNARCHIVE one it could wrongly bring back.
 */
async function unreadFirst(t: CheckContext, contact: string): Promise<void> {
  const toUnread = actionTo(t, 'unread');
  if (toUnread && (await entryOf(t, contact))?.read === true) await act(t, contact, toUnread);
}

interface Archiving {
  archive: string;
  unarchive: string;
  archived: Exchange;
  /** The list entry after archiving, then after unarchiving (where the first page shows it). */
  observed?: Record<string, unknown>;
  /** The conversation's items read singly before ARCHIVE, then after it. */
  itemsBefore?: ItemRead[];
  itemsAfter?: ItemRead[];
  again?: Exchange;
  /** UNARCHIVE straight after ARCHIVE, then the list entry; ARCHIVE is then sent once more for what follows. */
  straight?: { back: Exchange; after?: Record<string, unknown>; rearchived: Exchange };
  /** While archived: the actions that lead to unread and to read, each then the list entry read. */
  whileArchived?: Array<{ action: string; exchange: Exchange; entry?: Record<string, unknown> }>;
  back?: Exchange;
  after?: Record<string, unknown>;
}

async function archiveAndBack(t: CheckContext): Promise<Archiving> {
  const { contact, items: itemsBefore } = await conversationToArchive(t);
  const { transitions } = actionSchema(t);
  // The states the transitions name, and the triggering action of each ("action ARCHIVE").
  const actionOf = (to: string) => transitions.find((tr) => tr.to === to)?.trigger.replace(/^action\s+/i, '');
  const archive = actionOf('archived');
  const unarchive = actionOf('unarchived');
  if (archive === undefined || unarchive === undefined)
    return t.skip('ConversationAction x-svc-transitions names no archived/unarchived states');
  await unreadFirst(t, contact);
  const archived = await act(t, contact, archive);
  if (!ok(archived)) return { archive, unarchive, archived };
  const observed = await entryOf(t, contact);
  const itemsAfter: ItemRead[] = [];
  for (const item of itemsBefore) itemsAfter.push(await readItem(t, item.id));
  const again = await act(t, contact, archive);
  // UNARCHIVE straight after ARCHIVE, "Also: none": the conversation stays as ARCHIVE left it (read).
  const straightBack = await act(t, contact, unarchive);
  const straight = {
    back: straightBack,
    ...(ok(straightBack) ? { after: await entryOf(t, contact) } : {}),
    rearchived: await act(t, contact, archive),
  };
  // UNREAD and READ: "any" state, "Also: none": the conversation stays archived (READ last, so
  // the read state ARCHIVE left is the one UNARCHIVE finds).
  const whileArchived: NonNullable<Archiving['whileArchived']> = [];
  for (const action of [actionTo(t, 'unread'), actionTo(t, 'read')].filter((a) => a !== undefined)) {
    const exchange = await act(t, contact, action);
    const entry = ok(exchange) ? await entryOf(t, contact) : undefined;
    whileArchived.push({ action, exchange, ...(entry ? { entry } : {}) });
  }
  const back = await act(t, contact, unarchive);
  const after = await entryOf(t, contact);
  return {
    archive,
    unarchive,
    archived,
    itemsBefore,
    itemsAfter,
    again,
    straight,
    whileArchived,
    back,
    ...(observed ? { observed } : {}),
    ...(after ? { after } : {}),
  };
}

/** "All items of the conversation are marked read": each item read singly after ARCHIVE, where it shows `read`. */
function itemProblems({ archive, itemsAfter = [] }: Archiving): Problem[] {
  return itemsAfter.flatMap((item) =>
    unless(
      item.read !== false,
      `after ${archive} every item of the conversation should be read; item ${item.id} reads read=false`,
      item.exchange,
    ),
  );
}

/** The state read on the list entry: only where the server exposes booleans named after it (read, archived). */
function observedProblems({ archive, unarchive, archived, observed, back, after }: Archiving): Problem[] {
  return [
    ...(typeof observed?.archived === 'boolean'
      ? unless(
          observed.archived === true,
          `after ${archive} the conversation reads archived=${String(observed.archived)}`,
          archived,
        )
      : []),
    ...(typeof observed?.read === 'boolean'
      ? unless(
          observed.read === true,
          `after ${archive} every item should be read; the conversation reads read=${String(observed.read)}`,
          archived,
        )
      : []),
    ...unarchivedProblems(archive, unarchive, observed, back, after),
  ];
}

/** After UNARCHIVE (its row: "Also: none"): the conversation unarchived, with the read state ARCHIVE left. */
function unarchivedProblems(
  archive: string,
  unarchive: string,
  observed: Record<string, unknown> | undefined,
  back: Exchange | undefined,
  after: Record<string, unknown> | undefined,
): Problem[] {
  if (!back) return [];
  return [
    ...(typeof after?.archived === 'boolean'
      ? unless(
          after.archived === false,
          `after ${unarchive} the conversation reads archived=${String(after.archived)}`,
          back,
        )
      : []),
    ...(typeof after?.read === 'boolean' && typeof observed?.read === 'boolean'
      ? unless(
          after.read === observed.read,
          `${unarchive} changed the conversation's read state (read=${String(observed.read)} after ${archive}, read=${String(after.read)} after ${unarchive}); its transition changes nothing else`,
          back,
        )
      : []),
  ];
}

/** UNARCHIVE straight after ARCHIVE: a 200, unarchived with the read state ARCHIVE left; then ARCHIVE again succeeds. */
function straightProblems({ archive, unarchive, observed, straight }: Archiving): Problem[] {
  if (!straight) return [];
  const { back, after, rearchived } = straight;
  if (!ok(back))
    return [{ message: `${unarchive} straight after ${archive}: expected 200, got ${back.status}`, exchange: back }];
  return [
    ...unarchivedProblems(archive, unarchive, observed, back, after).map((p) => ({
      ...p,
      message: `straight after ${archive}: ${p.message}`,
    })),
    ...unless(ok(rearchived), `${archive} after ${unarchive}: expected 200, got ${rearchived.status}`, rearchived),
  ];
}

/** An action of another state sent while archived ("Also: none"): a 200, and the conversation still archived. */
function whileArchivedProblems({ whileArchived = [] }: Archiving): Problem[] {
  return whileArchived.flatMap(({ action, exchange, entry }) =>
    !ok(exchange)
      ? [{ message: `${action} on an archived conversation: expected 200, got ${exchange.status}`, exchange }]
      : unless(
          typeof entry?.archived !== 'boolean' || entry.archived,
          `${action} on an archived conversation left it archived=${String(entry?.archived)}: its transition changes nothing else`,
          exchange,
        ),
  );
}

function archivingProblems(s: Archiving): Problem[] {
  const { archive, unarchive, archived, again, back } = s;
  if (!ok(archived) || !again || !back)
    return [{ message: `${archive}: expected 200, got ${archived.status}`, exchange: archived }];
  return [
    ...observedProblems(s),
    ...itemProblems(s),
    ...straightProblems(s),
    ...whileArchivedProblems(s),
    ...unless(ok(again), `${archive} on an archived conversation: expected a 200 no-op, got ${again.status}`, again),
    ...unless(ok(back), `${unarchive} on an archived conversation: expected 200, got ${back.status}`, back),
  ];
}

/** What a pass observed: on the list entry, on the items read singly (and whether one was unread before). */
function archivingObserved({ observed, itemsBefore = [], itemsAfter = [] }: Archiving): string {
  const onEntry = observed && (typeof observed.archived === 'boolean' || typeof observed.read === 'boolean');
  const shown = itemsAfter.filter((i) => i.read !== undefined).length;
  const unreadBefore = itemsBefore.filter((i) => i.read === false).length;
  const where = [
    ...(onEntry ? ['on the list entry'] : []),
    ...(shown > 0
      ? [
          `on ${shown} item(s) read singly (${unreadBefore > 0 ? `${unreadBefore} unread before ARCHIVE` : 'every one already read before ARCHIVE: the fixtures held no unread item'})`,
        ]
      : []),
  ];
  return where.length > 0
    ? `state observed ${where.join(' and ')}`
    : 'state not observable (no documented field shows it); statuses checked';
}

// ARCHIVE archives and marks every item read, repeated it is a no-op, UNARCHIVE brings it back.
rule({
  id: 'conversations.archive',
  title:
    'ARCHIVE then UNARCHIVE succeed, each repeatable; the archived conversation and its items read back so, UNARCHIVE straight after ARCHIVE leaves it read, and UNREAD and READ sent while archived leave it archived',
  source: 'ConversationAction x-svc-transitions',
  precondition:
    'a conversation of the team with an unread item where the fixtures show one (its items read singly before and after ARCHIVE), made unread first where its list entry reads read; archived, unarchived straight away, archived again, sent UNREAD then READ while archived, then unarchived',
  enforces: [
    'x-svc-transitions action ARCHIVE (any → archived)',
    'x-svc-transitions action UNARCHIVE (archived → unarchived)',
  ],
  ...statefulWrite(OP),
  requests: archiveAndBack,
  problems: archivingProblems,
  passed: archivingObserved,
});

/** A conversation's list entry on one line (svc_number), read from the line's first page. */
async function entryOnLine(t: CheckContext, line: string, contact?: string) {
  const list = await t.call({ query: { svc_number: line, size: t.spec.pageSizeMax } }, {}, 'listConversations');
  const entries = dataOf(list);
  const all = (Array.isArray(entries) ? entries : []).filter(isObject);
  return { list, all, entry: all.find((e) => e.contact_number === contact) };
}

interface OneLine {
  contact?: string;
  /** The line acted on and the other line of the same contact, with the read state each showed before. */
  acted?: { line: string; read: boolean };
  other?: { line: string; read: boolean };
  action?: string;
  exchange?: Exchange;
  /** The other line's entry after the action. */
  after?: { list: Exchange; entry?: Record<string, unknown> };
  restored?: Exchange;
  /** The same action without svc_number (every line): each line's entry read after it. */
  everyLine?: { exchange: Exchange; reads: Array<{ line: string; list: Exchange; entry?: Record<string, unknown> }> };
  /** The actions to archived and to unarchived given the acted line, and its entry after each. */
  archiving?: ArchivingOnLine;
}

interface ArchivingOnLine {
  archive: string;
  unarchive: string;
  archived: Exchange;
  whileArchived: { list: Exchange; entry?: Record<string, unknown> };
  /** The action to unread given the line while it is archived ("any → unread"), and its entry after. */
  unread?: { action: string; exchange: Exchange; after: { list: Exchange; entry?: Record<string, unknown> } };
  unarchived: Exchange;
  afterUnarchive: { list: Exchange; entry?: Record<string, unknown> };
  /** The other line: its entry and its items of the contact before the action to archived given the acted line, and after it. */
  other?: {
    line: string;
    before?: Record<string, unknown>;
    whileArchived: { list: Exchange; entry?: Record<string, unknown> };
    items: Array<{ id: string; before: ItemOnLine; after: ItemOnLine }>;
    /** Archived on every line, then unarchived given the acted line: the other line's entry after it. */
    afterOneUnarchived?: { list: Exchange; entry?: Record<string, unknown> };
  };
}

/** An item as read singly: its line and read state where the answer shows them. */
interface ItemOnLine {
  exchange: Exchange;
  line?: string;
  contact?: string;
  read?: boolean;
}

async function itemOnLine(t: CheckContext, id: string): Promise<ItemOnLine> {
  let exchange = await t.call({ params: { id } }, {}, 'getConversationItem');
  // A call with several completed summaries is read with a documented template_key.
  const [key] = templateKeys(t, await t.fixtures());
  if (!ok(exchange) && exchange.status === 400 && key !== undefined)
    exchange = await t.call({ params: { id }, query: { [TEMPLATE_KEY]: key } }, {}, 'getConversationItem');
  const item = dataOf(exchange);
  if (!ok(exchange) || !isObject(item)) return { exchange };
  return {
    exchange,
    ...(typeof item.svc_number === 'string' ? { line: item.svc_number } : {}),
    ...(typeof item.contact_number === 'string' ? { contact: item.contact_number } : {}),
    ...(typeof item.read === 'boolean' ? { read: item.read } : {}),
  };
}

/** The known items of a contact on a line, read singly. */
async function itemsOnLine(
  t: CheckContext,
  contact: string,
  line: string,
): Promise<Array<{ id: string; read: ItemOnLine }>> {
  const f = await t.fixtures();
  // The lists show a conversation's last item only: the items threads are on, and the calls the
  // config names (for their summaries, free of threads), are known too.
  const threadItems = f.threads.filter((th) => th.entityId !== '').map((th) => th.entityId);
  const named = t.config.config.fixtures;
  const configured = [
    ...(named.several_completed_summary_call_ids ?? []),
    ...(named.one_completed_summary_call_ids ?? []),
    ...(named.no_completed_summary_call_ids ?? []),
    ...(named.threadless_item_ids ?? []),
  ];
  const known = [...new Set([...f.items.map((i) => i.id), ...threadItems, ...configured])];
  const ids = known.slice(0, 2 * (t.config.fixturesPerKind ?? 20));
  const found: Array<{ id: string; read: ItemOnLine }> = [];
  for (const id of ids) {
    const read = await itemOnLine(t, id);
    if (read.contact === contact && read.line === line && read.read !== undefined) found.push({ id, read });
  }
  return found;
}

/**
 * ARCHIVE then UNARCHIVE given the acted line, where the entries show whether a conversation is
 * archived: a server whose line-scoped branch forgets one of them shows it on that line's entry.
 * While it is archived (and so read), the action to unread: "any" state goes to unread, the
 * archived one too. A conversation archived before is archived again after.
 */
async function archivingOnLine(
  t: CheckContext,
  contact: string,
  line: string,
  otherLine: string,
): Promise<ArchivingOnLine | undefined> {
  const [archive, unarchive] = [actionTo(t, 'archived'), actionTo(t, 'unarchived')];
  const before = (await entryOnLine(t, line, contact)).entry;
  if (!archive || !unarchive || typeof before?.archived !== 'boolean') return undefined;
  const send = (action: string) => t.call({ params: { contact_number: contact }, body: { action, svc_number: line } });
  const otherBefore = (await entryOnLine(t, otherLine, contact)).entry;
  const otherItems = await itemsOnLine(t, contact, otherLine);
  const archived = await send(archive);
  const whileArchived = await entryOnLine(t, line, contact);
  const otherWhileArchived = await entryOnLine(t, otherLine, contact);
  const items = [];
  for (const { id, read } of otherItems) items.push({ id, before: read, after: await itemOnLine(t, id) });
  const toUnread = actionTo(t, 'unread');
  const unread = toUnread
    ? { action: toUnread, exchange: await send(toUnread), after: await entryOnLine(t, line, contact) }
    : undefined;
  const unarchived = await send(unarchive);
  const afterUnarchive = await entryOnLine(t, line, contact);
  const afterOneUnarchived = await unarchivedOnOneLine(t, contact, line, otherLine, { archive, unarchive });
  if (before.archived) await send(archive);
  if (otherBefore?.archived === true)
    await t.call({ params: { contact_number: contact }, body: { action: archive, svc_number: otherLine } });
  const other = {
    line: otherLine,
    ...(otherBefore ? { before: otherBefore } : {}),
    whileArchived: otherWhileArchived,
    items,
    ...(afterOneUnarchived ? { afterOneUnarchived } : {}),
  };
  return {
    archive,
    unarchive,
    archived,
    whileArchived,
    ...(unread ? { unread } : {}),
    unarchived,
    afterUnarchive,
    other,
  };
}

/**
 * Archived without svc_number (every line), then unarchived given one line: the other line's entry,
 * which must still be archived; both lines are then unarchived (the caller archives again what was).
 */
async function unarchivedOnOneLine(
  t: CheckContext,
  contact: string,
  line: string,
  otherLine: string,
  { archive, unarchive }: { archive: string; unarchive: string },
) {
  const everywhere = await t.call({ params: { contact_number: contact }, body: { action: archive } });
  if (!ok(everywhere)) return undefined;
  await t.call({ params: { contact_number: contact }, body: { action: unarchive, svc_number: line } });
  const after = await entryOnLine(t, otherLine, contact);
  await t.call({ params: { contact_number: contact }, body: { action: unarchive } });
  return after;
}

/** The other line's conversation and items as they were before the acted line was archived, and archived still after one line was unarchived. */
function otherLineProblems(contact: string, a: ArchivingOnLine): Problem[] {
  const other = a.other;
  if (!other) return [];
  const { before, whileArchived, items, afterOneUnarchived } = other;
  const same = (field: string) =>
    before === undefined || typeof before[field] !== 'boolean' || whileArchived.entry?.[field] === before[field];
  return [
    ...['archived', 'read'].flatMap((field) =>
      unless(
        same(field),
        `${a.archive} given another line changed the conversation of ${contact} on ${other.line}: ${field} ${short(before?.[field])} → ${short(whileArchived.entry?.[field])}`,
        whileArchived.list,
      ),
    ),
    ...items.flatMap(({ id, before: was, after }) =>
      unless(
        after.read === was.read,
        `${a.archive} given another line changed item ${id} on ${other.line}: read ${short(was.read)} → ${short(after.read)}`,
        after.exchange,
      ),
    ),
    ...(afterOneUnarchived
      ? unless(
          afterOneUnarchived.entry === undefined ||
            typeof afterOneUnarchived.entry.archived !== 'boolean' ||
            afterOneUnarchived.entry.archived === true,
          `${a.unarchive} given another line, after ${a.archive} on every line, left the conversation of ${contact} on ${other.line} archived ${short(afterOneUnarchived.entry?.archived)}`,
          afterOneUnarchived.list,
        )
      : []),
  ];
}

/** The action to unread on the archived conversation: a 200, and where the entry shows it, unread. */
function unreadWhileArchivedProblems(contact: string, line: string, a: ArchivingOnLine): Problem[] {
  if (!a.unread) return [];
  const { action, exchange, after } = a.unread;
  if (!ok(exchange))
    return [{ message: `${action} given ${line} while archived: expected 200, got ${exchange.status}`, exchange }];
  return unless(
    after.entry === undefined || typeof after.entry.read !== 'boolean' || after.entry.read === false,
    `${action} given ${line} left the archived conversation of ${contact} there read ${short(after.entry?.read)}`,
    after.list,
  );
}

function archivingOnLineProblems(contact: string, line: string, a: ArchivingOnLine): Problem[] {
  const { archive, unarchive, archived, whileArchived, unarchived, afterUnarchive } = a;
  if (!ok(archived))
    return [{ message: `${archive} given ${line}: expected 200, got ${archived.status}`, exchange: archived }];
  if (!ok(unarchived))
    return [{ message: `${unarchive} given ${line}: expected 200, got ${unarchived.status}`, exchange: unarchived }];
  return [
    ...unless(
      whileArchived.entry === undefined || whileArchived.entry.archived === true,
      `${archive} given ${line} left the conversation of ${contact} there archived ${short(whileArchived.entry?.archived)}`,
      whileArchived.list,
    ),
    ...unless(
      afterUnarchive.entry === undefined || afterUnarchive.entry.archived === false,
      `${unarchive} given ${line} left the conversation of ${contact} there archived ${short(afterUnarchive.entry?.archived)}`,
      afterUnarchive.list,
    ),
    ...unreadWhileArchivedProblems(contact, line, a),
    ...otherLineProblems(contact, a),
  ];
}

/** A contact with a conversation on two lines whose entries show a read state, and those lines. */
async function contactOnTwoLines(t: CheckContext): Promise<OneLine> {
  const lines = (await t.fixtures()).lines.slice(0, t.config.fixturesPerKind ?? 20);
  const seen = new Map<string, { line: string; read: boolean }>();
  let listed = 0;
  for (const line of lines)
    for (const e of (await entryOnLine(t, line)).all) {
      listed++;
      if (typeof e.contact_number !== 'string' || typeof e.read !== 'boolean') continue;
      const first = seen.get(e.contact_number);
      if (first && first.line !== line)
        return { contact: e.contact_number, acted: { line, read: e.read }, other: first };
      seen.set(e.contact_number, { line, read: e.read });
    }
  if (listed > 0 && seen.size === 0) return readStateUnshown(t, "no entry of the lines' lists");
  return {};
}

// "When svc_number is omitted the action applies across all of the team's lines; when given, only
// to that line": the action that would change the other line's read state, sent on one line only,
// then without svc_number, when it must reach both lines.
// The description shows no field of a conversation's state: where no entry shows one (the
// sandbox's carry `read`), the check is skipped as not observable; where some do but no contact is
// on two lines, it is reported not exercised.
rule({
  id: 'conversations.action-one-line',
  title:
    "An action given a line (svc_number) leaves the same contact's conversation on another line as it was, and without svc_number changes it on every line (the action to read or to unread, whichever would change the other line); given the line, the actions to archived and to unarchived change it there and nothing on the other line (its entry, its items' read states; archived on every line, then unarchived given one, the other stays archived), and the action to unread makes it unread while archived; each line is put back",
  source:
    'States and transitions: "When svc_number is omitted the action applies across all of the team\'s lines; when given, only to that line"',
  precondition:
    "a contact with a conversation on two of the team's lines (each line's list, svc_number), whose entries show a read state",
  ...statefulWrite(OP),
  requests: async (t): Promise<OneLine> => {
    const found = await contactOnTwoLines(t);
    const { contact, acted, other } = found;
    if (!contact || !acted || !other) return found;
    const [toRead, toUnread] = [actionTo(t, 'read'), actionTo(t, 'unread')];
    if (!toRead || !toUnread) return t.skip('ConversationAction has no transitions to read and to unread');
    const putBack = async () => {
      for (const { line, read } of [acted, other])
        await t.call({
          params: { contact_number: contact },
          body: { action: read ? toRead : toUnread, svc_number: line },
        });
    };
    // Archiving first, while the other line's items are as found (an action without svc_number
    // marks them read); it marks the acted line read, so the read states are put back after it.
    const archiving = await archivingOnLine(t, contact, acted.line, other.line);
    if (archiving) await putBack();
    const action = other.read ? toUnread : toRead;
    const body = (a: string) => ({ params: { contact_number: contact }, body: { action: a, svc_number: acted.line } });
    const exchange = await t.call(body(action));
    const after = await entryOnLine(t, other.line, contact);
    const restored = await t.call(body(acted.read ? toRead : toUnread));
    // Without svc_number, on every line: both lines first hold the other line's state (the acted
    // line moved to it), so that each shows whether the action reached it; each is then put back.
    await t.call(body(other.read ? toRead : toUnread));
    const all = await t.call({ params: { contact_number: contact }, body: { action } });
    const reads = [];
    for (const line of [acted.line, other.line]) reads.push({ line, ...(await entryOnLine(t, line, contact)) });
    await putBack();
    return {
      ...found,
      action,
      exchange,
      after,
      restored,
      everyLine: { exchange: all, reads },
      ...(archiving ? { archiving } : {}),
    };
  },
  problems: ({ contact, acted, other, action, exchange, after, everyLine, archiving }) => {
    if (!exchange || !other || !after) return [];
    if (!ok(exchange)) return [{ message: `${action} on one line: expected 200, got ${exchange.status}`, exchange }];
    const state = !other.read;
    return [
      ...(archiving && contact && acted ? archivingOnLineProblems(contact, acted.line, archiving) : []),
      ...unless(
        after.entry?.read === other.read,
        `${action} given another line changed the conversation of ${contact} on ${other.line}: read ${other.read} → ${short(after.entry?.read)}`,
        after.list,
      ),
      ...(everyLine && ok(everyLine.exchange)
        ? everyLine.reads.flatMap(({ line, list, entry }) =>
            unless(
              entry === undefined || entry.read === state,
              `${action} without svc_number (every line) left the conversation of ${contact} on ${line} read ${short(entry?.read)}`,
              list,
            ),
          )
        : everyLine
          ? [
              {
                message: `${action} without svc_number: expected 200, got ${everyLine.exchange.status}`,
                exchange: everyLine.exchange,
              },
            ]
          : []),
    ];
  },
  notReached: ({ contact, after }) => {
    if (!contact) return "no contact has a conversation on two of the team's lines whose entries show a read state";
    return after && !after.entry
      ? `the conversation of ${contact} is not on the first page of the other line's list`
      : undefined;
  },
  passed: ({ contact, acted, other, action }) =>
    `${action} on ${acted?.line} left ${contact} on ${other?.line} read ${other?.read}; without svc_number it reached both lines`,
});
