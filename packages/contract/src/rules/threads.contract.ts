// Threads and their comments, with the idempotency rules exercised on comments (a write whose
// effect is easy to count). Staging servers keep what earlier runs left, so thread creation
// looks for an item without a thread and, when every known item has one, checks the documented
// path instead: 409 THREAD_ALREADY_EXISTS, find the thread, add a comment.
import { deref, isObject, type Operation, propertiesOf } from '@svc/spec-runtime';
import { type Expected, errorProblems, expectedFor, listedCode, ownCodes } from '../expectations/expect.js';
import {
  entityTypeOf,
  type Fixtures,
  type ItemFixture,
  MissingFixture,
  need,
  type ThreadFixture,
} from '../fixtures.js';
import { textOfLength } from '../generate/boundaries.js';
import { constraintId } from '../generate/constraints.js';
import { MALFORMED_BODY } from '../generate/negative-values.js';
import { type Exchange, errorOf, header, lookedUpOf } from '../http/exchange.js';
import { loadSpec } from '../spec.js';
import type { ConfigKey } from '../types.js';
import { replayTarget } from './conversation-items.contract.js';
import { type CheckContext, contractOperation, type Held, type Problem, rule, statefulWrite } from './harness.js';
import { documentedHeaders, operationChecks } from './operation-checks.js';
import { afterEarlier, errorsOf, unless } from './problems.js';
import {
  asKey,
  data,
  FAILED_NOT_CONSUMED,
  IDEMPOTENCY_REPLAY,
  type Keyed,
  lengthLimits,
  ok,
  otherCallers,
  probeText,
  type Repeats,
  replayProblems,
  sendRepeats,
  short,
  teamReaders,
} from './support.js';
import { usedUp } from './used-up.js';

export function entities(f: Fixtures): ItemFixture[] {
  return [...f.items, ...f.notes];
}

/** Where a new thread may go: the items the config names as free first, then every known one. */
function candidates(f: Fixtures): ItemFixture[] {
  const named = new Set(f.threadless.map((i) => i.id));
  return [...f.threadless, ...entities(f).filter((i) => !named.has(i.id))];
}

/** The thread of an item, through the lookup operation (its response shape is not shown: data, or data's first entry). */
async function findThread(t: CheckContext, item: ItemFixture): Promise<{ id?: string; exchange: Exchange }> {
  const exchange = await t.call({ query: { entity_type: item.entityType, entity_id: item.id } }, {}, 'findThread');
  const d = lookedUpOf(exchange);
  return { ...(typeof d?.id === 'string' ? { id: d.id } : {}), exchange };
}

export interface ThreadRead {
  exchange: Exchange;
  thread?: Record<string, unknown>;
  comments: Array<Record<string, unknown>>;
}

export async function readThread(t: CheckContext, id: string, key?: ConfigKey): Promise<ThreadRead> {
  const exchange = await t.call({ params: { id } }, asKey(key), 'getThread');
  const thread = data(exchange);
  const comments = Array.isArray(thread?.comments) ? thread.comments.filter(isObject) : [];
  return { exchange, ...(thread ? { thread } : {}), comments };
}

/** The thread comments go on: the one threads.create-then-read created, else a known one, else one created here. */
export function probeThread(t: CheckContext): Promise<string> {
  return t.once('probe-thread', async () => {
    const f = await t.fixtures();
    const known = f.threads.find((th) => th.id);
    if (known) return known.id;
    for (const item of entities(f)) {
      const created = await t.call(
        { body: { entity_type: item.entityType, entity_id: item.id, content: probeText(t, 'thread') } },
        {},
        'createThread',
      );
      const id = data(created)?.id;
      if (ok(created) && typeof id === 'string') return id;
    }
    throw new MissingFixture('no fixture: a thread (none is known and none could be created)');
  });
}

export function comment(
  t: CheckContext,
  thread: string,
  content: string,
  extra: Partial<Keyed> = {},
): Promise<Exchange> {
  const headers = documentedHeaders(t.op('addThreadComment'), `${t.config.runId}-comment-${thread}-${content.length}`);
  return t.call({ params: { id: thread }, body: { content } }, { ...headers, ...extra }, 'addThreadComment');
}

operationChecks('findThread', {
  baseline: (_t, f) => {
    const item = need(entities(f)[0], 'a conversation item or note');
    return { query: { entity_type: item.entityType, entity_id: item.id } };
  },
  // Another team's key looks up an item of the team that has a thread: a lookup falling through to
  // other teams answers it (an item with none would answer nothing either way).
  otherTeam: (_t, f) => {
    // A thread found by its item (a configured thread id names no item).
    const thread = f.threads.find((th) => th.entityType !== '' && th.entityId !== '');
    const item = thread
      ? { entityType: thread.entityType, id: thread.entityId }
      : need(entities(f)[0], 'a conversation item or note');
    return { query: { entity_type: item.entityType, entity_id: item.id } };
  },
});

operationChecks('getThread', {
  baseline: (_t, f) => ({
    params: { id: need(f.threads[0], 'a thread (no known item has one; or set fixtures.thread_ids)').id },
  }),
});

operationChecks('createThread', {
  success: false,
  // An item of another team, of whichever kind its id names.
  naming: (t, id) => {
    const kind = entityTypeOf(t, id);
    return kind ? { body: { entity_type: kind, entity_id: id, content: probeText(t, 'thread') } } : undefined;
  },
  baseline: (t, f) => {
    const item = need(entities(f)[0], 'a conversation item or note');
    return { body: { entity_type: item.entityType, entity_id: item.id, content: probeText(t, 'thread') } };
  },
});

/** A thread created on an item that had none, and read back. */
interface Created {
  kind: 'created';
  item: ItemFixture;
  content: string;
  created: Exchange;
  read?: ThreadRead;
  /** The item's thread looked up by the item (GET /v2/api/threads), after the creation. */
  lookedUp?: Exchange;
  /** The user the first comment mentions inline, where one is known. */
  mentioned?: string;
  /** The creation and its key sent again three times: each repeat the stored answer, replayed. */
  repeats?: Repeats;
}

/** A probe text that mentions a user inline (the description's syntax: @[<display_name>](usr-<id>)). */
function mentioning(t: CheckContext, what: string, user: string): string {
  return `${probeText(t, what)} @[Svc Contract](${user})`;
}

/** The first comment of a created thread lists the user its content mentions. */
function firstMentionProblems({ mentioned, created }: Created, first: unknown): Problem[] {
  if (mentioned === undefined) return [];
  const mentions = isObject(first) ? first.mentions : undefined;
  return unless(
    Array.isArray(mentions) && mentions.some((m) => isObject(m) && m.user_id === mentioned),
    `the first comment mentions ${mentioned} inline, but the 201's comments[0].mentions does not list it: ${short(mentions)}`,
    created,
  );
}

/** Whether a value holds `id` as a string anywhere (the lookup's response shape is not shown). */
function holdsId(value: unknown, id: string, depth = 0): boolean {
  if (value === id) return true;
  if (depth > 8 || value === null || typeof value !== 'object') return false;
  return Object.values(value as Record<string, unknown>).some((v) => holdsId(v, id, depth + 1));
}

/** Every known item already has a thread: the 409, the thread found, a comment added and read back. */
interface AlreadyThreaded {
  kind: 'existing';
  item: ItemFixture;
  content: string;
  refused: Exchange;
  expected: Expected;
  found?: { id?: string; exchange: Exchange };
  added?: Exchange;
  read?: ThreadRead;
}

async function createOnFreeItem(t: CheckContext, content: string): Promise<Created | undefined> {
  for (const item of candidates(await t.fixtures())) {
    const existing = await findThread(t, item);
    if (existing.id !== undefined || !ok(existing.exchange)) continue;
    const request = { body: { entity_type: item.entityType, entity_id: item.id, content } };
    const headers = documentedHeaders(t.op(), `${t.config.runId}-create-${item.id}`);
    // The creation's key sent again before anything else touches the thread: a server that runs
    // it again finds the thread there (409), one that replays answers the stored 201.
    const repeats = await sendRepeats(t, `a keyed thread on ${item.id}`, 'replay', (keyed) =>
      t.call(request, { ...headers, ...keyed }),
    );
    const created = repeats.first;
    const id = data(created)?.id;
    if (!ok(created) || typeof id !== 'string') return { kind: 'created', item, content, created };
    // The run's comments go on the thread it created, not on one it found.
    await t.once('probe-thread', async () => id);
    const read = await readThread(t, id);
    const lookedUp = (await findThread(t, item)).exchange;
    return { kind: 'created', item, content, created, repeats, read, lookedUp };
  }
  return undefined;
}

async function commentOnExisting(t: CheckContext, content: string): Promise<AlreadyThreaded> {
  const item = need(entities(await t.fixtures())[0], 'a conversation item or note');
  const refused = await t.call({ body: { entity_type: item.entityType, entity_id: item.id, content } });
  const why = `every known item already has a thread, ${item.id} too`;
  const expected = { status: 409, codes: ownCodes(t.spec, t.op(), 409), why };
  const state: AlreadyThreaded = { kind: 'existing', item, content, refused, expected };
  if (errorProblems(refused, expected).length > 0) return state;
  const found = await findThread(t, item);
  if (found.id === undefined) return { ...state, found };
  const added = await comment(t, found.id, content);
  return { ...state, found, added, read: await readThread(t, found.id) };
}

/** The thread created is what the lookup by its item finds: a 2xx naming its id, in whatever shape. */
function lookupProblems({ item, created, lookedUp }: Pick<Created, 'item' | 'created' | 'lookedUp'>): Problem[] {
  const id = data(created)?.id;
  if (!lookedUp || typeof id !== 'string') return [];
  return unless(
    ok(lookedUp) && holdsId(lookedUp.body, id),
    `GET /v2/api/threads?entity_type=${item.entityType}&entity_id=${item.id} does not find the thread ${id} just created on it: ${lookedUp.status} ${short(lookedUp.body)}`,
    lookedUp,
  );
}

function createdProblems(state: Created): Problem[] {
  const { item, content, created, read } = state;
  if (!ok(created))
    return [
      {
        message: `creating a thread on ${item.id} (which has none): expected 2xx, got ${created.status}`,
        exchange: created,
      },
    ];
  const thread = data(created);
  const first = Array.isArray(thread?.comments) ? thread.comments[0] : undefined;
  return [
    ...unless(
      thread?.comment_count === 1 && Array.isArray(thread?.comments) && thread.comments.length === 1,
      `a new thread holds its first comment and comment_count 1; got ${short({ comment_count: thread?.comment_count, comments: thread?.comments })}`,
      created,
    ),
    ...unless(
      isObject(first) && first.content === content,
      `the first comment's content is not what was sent: ${short(isObject(first) ? first.content : first)}`,
      created,
    ),
    ...unless(
      thread?.entity_id === item.id && thread?.entity_type === item.entityType,
      `the thread is on ${short([thread?.entity_type, thread?.entity_id])}, not ${item.entityType} ${item.id}`,
      created,
    ),
    ...firstMentionProblems(state, first),
    ...(read
      ? unless(
          ok(read.exchange) && read.thread?.id === thread?.id && read.comments[0]?.content === content,
          `reading ${String(thread?.id)} back does not show the thread as created: ${short(read.thread)}`,
          read.exchange,
        )
      : []),
    ...lookupProblems(state),
  ];
}

function alreadyThreadedProblems(s: AlreadyThreaded): Problem[] {
  const refusal = errorsOf(s.refused, s.expected, 'creating a second thread');
  if (refusal.length > 0 || !s.found) return refusal;
  const { found, added, read } = s;
  if (!added || !read)
    return [
      {
        message: `GET /v2/api/threads did not find the thread of ${s.item.id}: ${short(found.exchange.body)}`,
        exchange: found.exchange,
      },
    ];
  return [
    ...unless(ok(added), `adding a comment to ${found.id}: expected 2xx, got ${added.status}`, added),
    ...unless(
      read.comments.at(-1)?.content === s.content,
      `the comment added to ${found.id} is not the last one read back`,
      read.exchange,
    ),
  ];
}

/**
 * A thread created on a free item, its key sent again, read back and looked up; where every known
 * item has a thread, the documented refusal instead (once per run: two checks judge it).
 */
function createdOrExisting(t: CheckContext): Promise<Created | AlreadyThreaded> {
  return t.once('thread-created', async () => {
    // The first comment mentions a teammate: mentions inline in a thread's content are parsed as
    // in any comment (the 201 shows the first comment, with its mentions).
    const user = (await t.fixtures()).users[0];
    const content = user ? mentioning(t, 'thread', user) : probeText(t, 'thread');
    const created = await createOnFreeItem(t, content);
    if (created) return user ? { ...created, mentioned: user } : created;
    return commentOnExisting(t, content);
  });
}

// A thread created on an item without one holds its first comment and reads back as created;
// where every known item already has a thread (earlier runs), the documented path instead.
rule({
  id: 'threads.create-then-read',
  title:
    'A created thread holds its first comment (its inline mentions parsed into mentions), reads back the same, and is what a lookup by its item finds',
  source:
    'createThread / getThread / findThread; "content | first comment; ... mentions inline", ThreadComment "mentions (array of NoteMention)", Mention syntax "Inline in content text: @[<display_name>](usr-<id>)"',
  precondition:
    'an item without a thread (fixtures.threadless_item_ids, else a known item found to have none), given one by the run with a first comment mentioning a teammate, then looked up by that item',
  // Claimed in the full sentence audit of partial updates and x-svc-response-rules (issue 24, item 5).
  enforces: ['x-svc-response-rules CREATED_WITH_FIRST_COMMENT'],
  ...statefulWrite('createThread'),
  requests: createdOrExisting,
  problems: (s) => (s.kind === 'created' ? createdProblems(s) : alreadyThreadedProblems(s)),
  passed: (s) => {
    if (s.kind === 'existing') return `every known item has a thread: 409, found ${s.found?.id}, commented`;
    const id = data(s.created)?.id;
    return s.read ? `created ${String(id)} on ${s.item.id}, read it back and found it by its item` : undefined;
  },
});

// The creation of the thread above, its key sent three times more: the stored 201, replayed.
rule({
  ...IDEMPOTENCY_REPLAY,
  ...statefulWrite('createThread'),
  requests: createdOrExisting,
  problems: (s, t) =>
    s.kind === 'created' && s.repeats ? replayProblems(s.repeats, t.spec.idempotencyReplayedHeader) : [],
  passed: (s) => (s.kind === 'created' && s.repeats ? `${s.repeats.what}: 3 repeats replayed` : undefined),
  notReached: (s) =>
    s.kind === 'existing'
      ? 'every known item already has a thread: no thread was created to send its key again'
      : s.repeats
        ? undefined
        : `creating a thread on ${s.item.id} was not answered 2xx (${s.created.status})`,
});

/** Items without a thread, one per length to try (the threadless fixtures first). */
async function freeItems(t: CheckContext, count: number): Promise<ItemFixture[]> {
  const f = await t.fixtures();
  const free: ItemFixture[] = [];
  for (const item of unsentKindsFirst(t, t.op(), candidates(f))) {
    if (free.length === count) break;
    if (free.some((i) => i.id === item.id)) continue;
    const existing = await findThread(t, item);
    if (ok(existing.exchange) && existing.id === undefined) free.push(item);
  }
  return free;
}

interface FirstComment {
  item: ItemFixture;
  lookedUp?: Exchange;
  length: number;
  text: string;
  constraint: Held['constraint'];
  created: Exchange;
}

const characters = (n: number) => `${n} character${n === 1 ? '' : 's'}`;

// The limits of the first comment from inside: each accepted value takes an item that has no
// thread yet (a thread per item), so it needs two of them (fixtures.threadless_item_ids).
rule({
  id: 'threads.create-content-limits',
  title:
    'A new thread whose content is exactly the maximum, or exactly the minimum, length is accepted, holds it and is found by its item (one free item each)',
  source: 'CreateThreadRequest content maxLength/minLength',
  precondition: 'two items without a thread (fixtures.threadless_item_ids, else known items found to have none)',
  ...statefulWrite('createThread'),
  requests: async (t) => {
    const body = deref(t.spec.contract, t.spec.resolve(t.op().requestBody?.schemaPointer ?? ''));
    const lengths = lengthLimits(propertiesOf(t.spec.contract, body).content, ['maxLength', 'minLength']);
    if (lengths.length === 0) return t.skip('the thread content has no length limits in the contract');
    const free = await freeItems(t, lengths.length);
    if (free.length < lengths.length)
      return t.skip(
        usedUp(t, `${lengths.length} items without a thread are needed, ${free.length} found`, 'threadless_item_ids'),
        'config',
      );
    const cases: FirstComment[] = [];
    for (const [index, { keyword, n: length }] of lengths.entries()) {
      const item = free[index] as ItemFixture;
      const text = length > 20 ? textOfLength(`${probeText(t, 'limit')} `, length) : 'x'.repeat(length);
      const created = await t.call({ body: { entity_type: item.entityType, entity_id: item.id, content: text } });
      // Found by its item afterwards, whatever its kind (a lookup may know one kind of item only).
      const lookedUp = ok(created) ? (await findThread(t, item)).exchange : undefined;
      cases.push({
        item,
        length,
        text,
        created,
        ...(lookedUp ? { lookedUp } : {}),
        constraint: { id: constraintId('body', 'content', keyword, length), side: 'inside' },
      });
    }
    return cases;
  },
  problems: (cases) =>
    cases.flatMap(({ item, length, text, created, lookedUp }) => {
      if (!ok(created))
        return [
          {
            message: `a thread whose content is exactly ${characters(length)} must be accepted, got ${created.status}`,
            exchange: created,
          },
        ];
      const first = data(created)?.comments;
      return [
        ...unless(
          Array.isArray(first) && isObject(first[0]) && first[0].content === text,
          `the first comment of the thread does not hold the ${length} characters sent`,
          created,
        ),
        ...lookupProblems({ item, created, ...(lookedUp ? { lookedUp } : {}) }),
      ];
    }),
  held: (cases) =>
    cases
      .filter((c) => ok(c.created))
      .map((c) => ({ detail: `thread content of ${characters(c.length)}`, constraint: c.constraint })),
});

interface EachKind {
  done: string[];
  created: Array<{ kind: string; item: string; answer: Exchange; lookedUp?: Exchange }>;
  /** Kinds with no free item known. */
  none: string[];
}

async function createOnEachKind(t: CheckContext): Promise<EachKind> {
  const f = await t.fixtures();
  const op = t.op();
  const kinds = enumAt(t, op, 'entity_type');
  const state: EachKind = { done: [], created: [], none: [] };
  state.done = kinds.filter((kind) => t.everSent(op.operationId, `body entity_type=${kind}`));
  for (const kind of kinds.filter((k) => !state.done.includes(k))) {
    const ofKind = candidates(f)
      .filter((i) => i.entityType === kind)
      .slice(0, t.config.fixturesPerKind ?? 20);
    let made = false;
    for (const item of ofKind) {
      if ((await findThread(t, item)).id !== undefined) continue;
      const body = { entity_type: kind, entity_id: item.id, content: probeText(t, 'thread') };
      const answer = await t.call({ body }, documentedHeaders(op, `${t.config.runId}-thread-${item.id}`));
      // Found by its item afterwards (a lookup that knows one kind of item only misses the others).
      const lookedUp = ok(answer) ? (await findThread(t, item)).exchange : undefined;
      state.created.push({ kind, item: item.id, answer, ...(lookedUp ? { lookedUp } : {}) });
      made = true;
      break;
    }
    if (!made) state.none.push(kind);
  }
  return state;
}

// Each kind of item the contract lets a thread be on (entity_type's enum) that no thread of
// this run was created on yet, on a free item of that kind; kinds with no free item are named.
// After the other creations, so that a run leaves as few threads as its reach needs.
rule({
  id: 'threads.create-each-kind',
  title: 'A thread can be created on each kind of item (entity_type), with every documented header',
  source: 'CreateThreadRequest.entity_type enum',
  precondition:
    'a free item of each entity_type no thread of the run was created on (fixtures.threadless_item_ids, else known items found to have none)',
  ...statefulWrite('createThread'),
  requests: createOnEachKind,
  problems: ({ created, none }, t) => {
    const found = created.flatMap(({ kind, item, answer, lookedUp }) => [
      ...unless(
        ok(answer) && data(answer)?.entity_type === kind,
        `a thread on ${kind} ${item}: got ${answer.status} ${short(data(answer)?.entity_type)}`,
        answer,
      ),
      ...lookupProblems({ item: { id: item, entityType: kind }, created: answer, ...(lookedUp ? { lookedUp } : {}) }),
    ]);
    // A kind left unexercised is a skip for want of fixtures, unless what was sent already failed.
    if (found.length === 0 && none.length > 0)
      t.skip(usedUp(t, `no item without a thread is known of ${none.join(', ')}`, 'threadless_item_ids'), 'config');
    return found;
  },
  passed: ({ done, created }) =>
    `threads on ${[...done.map((k) => `${k} (earlier in the run)`), ...created.map((c) => `${c.kind} ${c.item}`)].join(', ')}`,
});

/** An item of `kind` with a thread: a discovered one, else a known item the lookup finds one on. */
async function threadedItemOf(t: CheckContext, kind: string): Promise<ItemFixture | undefined> {
  const f = await t.fixtures();
  const known = f.threads.find((th) => th.entityId !== '' && th.entityType === kind);
  if (known) return { id: known.entityId, entityType: kind };
  const ofKind = entities(f)
    .filter((i) => i.entityType === kind)
    .slice(0, t.config.fixturesPerKind ?? 20);
  for (const item of ofKind) if ((await findThread(t, item)).id) return item;
  return undefined;
}

interface Duplicate {
  item: ItemFixture;
  again: Exchange;
  /** The same, by another key of the team: the item has its thread, whoever started it. */
  byOthers: Array<{ key: string; exchange: Exchange }>;
}

/**
 * The look-up a 409 THREAD_ALREADY_EXISTS suggests ("find it with GET /v2/api/threads"), where its
 * suggestion or message fills in entity_type or entity_id: the item's own, so that it finds the thread.
 */
function suggestedLookupProblems(refusal: Exchange, item: ItemFixture): Problem[] {
  const error = errorOf(refusal);
  return ['suggestion', 'message'].flatMap((field) => {
    const text = typeof error?.[field] === 'string' ? (error[field] as string).slice(0, 2000) : '';
    const kind = /entity_type=([A-Z_]+)/.exec(text)?.[1];
    const id = /entity_id=([A-Za-z0-9_-]+)/.exec(text)?.[1];
    const wrong = [
      kind !== undefined && kind !== item.entityType ? `entity_type=${kind}` : '',
      id !== undefined && id !== item.id ? `entity_id=${id}` : '',
    ].filter(Boolean);
    return wrong.length === 0
      ? []
      : [
          {
            message: `the ${field} of the 409 on ${item.entityType} ${item.id} suggests a look-up with ${wrong.join(' and ')}, which does not find this item's thread`,
            exchange: refusal,
          },
        ];
  });
}

// One item of each kind (entity_type's enum): a server may check for an existing thread on
// one kind of item only. After threads.create-each-kind, every kind it reached has a thread.
rule({
  id: 'threads.duplicate',
  title:
    'A second thread on an item of any kind is 409 THREAD_ALREADY_EXISTS, by the run key and by other keys of the team; a look-up its suggestion or message fills in names that item',
  source: 'createThread 409',
  precondition:
    'an item of each entity_type that has a thread (the run created it, else one found); other keys of the team that may create threads (line-limited, active) where the config declares them',
  ...statefulWrite('createThread'),
  requests: async (t) => {
    const tried: Duplicate[] = [];
    const none: string[] = [];
    for (const kind of enumAt(t, t.op(), 'entity_type')) {
      const item = await threadedItemOf(t, kind);
      if (!item) {
        none.push(kind);
        continue;
      }
      const body = { entity_type: kind, entity_id: item.id, content: probeText(t, 'duplicate thread') };
      const again = await t.call({ body });
      const byOthers: Duplicate['byOthers'] = [];
      for (const other of otherCallers(t))
        byOthers.push({
          key: other.kind ?? 'active',
          exchange: await t.call({ body }, { auth: { kind: 'key', key: other.key } }),
        });
      tried.push({ item, again, byOthers });
    }
    if (tried.length === 0) return t.skip(`no item with a thread is known (${none.join(', ')})`, 'config');
    const expected = { ...listedCode(t.spec, t.op(), 'THREAD_ALREADY_EXISTS'), codes: ownCodes(t.spec, t.op(), 409) };
    return { tried, none, expected };
  },
  problems: ({ tried, expected }) =>
    afterEarlier(
      tried.flatMap(({ item, again, byOthers }) => [
        ...errorsOf(again, expected, `a second thread on ${item.entityType} ${item.id}`),
        ...suggestedLookupProblems(again, item),
        // Refused either way: 409, or the other key's own refusal (a line-limited key may not reach the item's line).
        ...byOthers.flatMap(({ key, exchange }) =>
          unless(
            !ok(exchange),
            `a second thread on ${item.entityType} ${item.id} was created by another (${key}) key of the team: ${exchange.status}`,
            exchange,
          ),
        ),
      ]),
    ),
  passed: ({ tried, none }) =>
    `409 on ${tried.map(({ item }) => `${item.entityType} ${item.id}`).join(', ')}${none.length ? `; no item with a thread known of ${none.join(', ')}` : ''}`,
});

interface OtherKindLookup {
  thread: ThreadFixture;
  /** The thread's item id looked up under each other entity_type. */
  lookups: Array<{ kind: string; exchange: Exchange }>;
}

// The thread of an item is found by its kind and its id together: the id of an item that has a
// thread, given with another entity_type, names no item of that kind, so no thread is found. A
// refusal (400, 404) or an answer without the thread both pass; the thread itself does not.
rule({
  id: 'threads.lookup-by-kind',
  title: "The thread lookup of an item's id under another entity_type does not answer that item's thread",
  source: 'GET /v2/api/threads "finds the thread of an item by query parameters entity_type and entity_id"',
  precondition: 'a thread known with its item (discovered, or fixtures.thread_ids), looked up under each other kind',
  operationId: 'findThread',
  resource: loadSpec().resourceOf(contractOperation('findThread')),
  needs: { stateful: true },
  requests: async (t): Promise<OtherKindLookup> => {
    const thread = (await t.fixtures()).threads.find((th) => th.entityId !== '' && th.entityType !== '');
    if (!thread) return t.skip('no thread is known with its item (set fixtures.thread_ids)', 'config');
    const lookups: OtherKindLookup['lookups'] = [];
    for (const kind of enumAt(t, t.op(), 'entity_type').filter((k) => k !== thread.entityType))
      lookups.push({ kind, exchange: await t.call({ query: { entity_type: kind, entity_id: thread.entityId } }) });
    return { thread, lookups };
  },
  problems: ({ thread, lookups }) =>
    lookups.flatMap(({ kind, exchange }) =>
      unless(
        !(ok(exchange) && holdsId(exchange.body, thread.id)),
        `looked up as ${kind} ${thread.entityId}, the thread ${thread.id} of ${thread.entityType} ${thread.entityId} was answered: an item is found by its kind and id together`,
        exchange,
      ),
    ),
  passed: ({ thread, lookups }) =>
    `${thread.entityId} (${thread.entityType}) looked up as ${lookups.map((l) => `${l.kind}: ${l.exchange.status}`).join(', ')}, its thread not answered`,
});

operationChecks('addThreadComment', {
  success: false,
  baseline: async (t, f) => ({
    params: {
      // With writes, the thread the run created (probeThread); without, any thread (nothing is sent).
      id: t.config.allowWrites ? await probeThread(t) : need(f.threads[0], 'a thread').id,
    },
    body: { content: probeText(t, 'comment') },
  }),
});

const COMMENT = 'addThreadComment';

interface CommentRead {
  thread: string;
  content: string;
  before: ThreadRead;
  added: Exchange;
  after?: ThreadRead;
  /** The thread as the team's other keys that may read it read it, before the comment and after it. */
  others: Array<{ name: string; before: ThreadRead; after?: ThreadRead }>;
}

/** A comment added reads back last, counted, as the key reading it read the thread before plus one. */
function commentShownProblems(before: ThreadRead, after: ThreadRead, content: string, by: string): Problem[] {
  return [
    ...unless(
      after.comments.at(-1)?.content === content,
      `the new comment is not the last one of${by}: ${short(after.comments.at(-1))}`,
      after.exchange,
    ),
    ...countProblems(before, after, `${by}, not ${Number(before.thread?.comment_count) + 1}`),
  ];
}

/** The count of comments read before, plus one, is the count read after. */
function countProblems(before: ThreadRead, after: ThreadRead, how: string): Problem[] {
  const count = before.thread?.comment_count;
  if (typeof count !== 'number') return [];
  return unless(
    after.thread?.comment_count === count + 1,
    `comment_count went from ${count} to ${String(after.thread?.comment_count)}${how}`,
    after.exchange,
  );
}

/**
 * Comments a thread holds before one more is added: a server may order a short list right and a
 * longer one wrong, so the comment added is at least the fourth.
 */
const EARLIER_COMMENTS = 3;

/** Comments added to a thread of the run until it holds `count` (read first; the run's own thread). */
async function commentsUpTo(t: CheckContext, thread: string, count: number): Promise<void> {
  const held = (await readThread(t, thread)).comments.length;
  // Each of its own length: comment() keys a write by the thread and the content's length.
  for (let n = held; n < count; n++) await comment(t, thread, probeText(t, `earlier comment${'.'.repeat(n + 1)}`));
}

// A comment added is the thread's last, and comment_count counts it.
rule({
  id: 'threads.comment-then-read',
  title:
    "An added comment (the fourth or later) reads back at the end of the thread, comment_count follows, for the run's key and the team's other keys that may read the thread",
  source: 'addThreadComment / getThread; "A key belongs to a single team"',
  precondition: `a thread the run created (else one found), given ${EARLIER_COMMENTS} comments first where it has fewer, read before and after the comment by the run's key and the team's other keys that may read threads (--config: a thread kept per key shows)`,
  ...statefulWrite(COMMENT),
  requests: async (t): Promise<CommentRead> => {
    const thread = await probeThread(t);
    await commentsUpTo(t, thread, EARLIER_COMMENTS);
    const before = await readThread(t, thread);
    const readers = teamReaders(t, t.op('getThread'), t.op(COMMENT), '');
    const others: CommentRead['others'] = [];
    for (const reader of readers) others.push({ name: reader.name, before: await readThread(t, thread, reader) });
    const content = probeText(t, 'comment');
    const added = await comment(t, thread, content);
    if (!ok(added)) return { thread, content, before, added, others };
    const after = await readThread(t, thread);
    for (const [i, reader] of readers.entries()) {
      const other = others[i];
      if (other) other.after = await readThread(t, thread, reader);
    }
    return { thread, content, before, added, after, others };
  },
  problems: ({ thread, content, before, added, after, others }) => {
    if (!after) return [{ message: `adding a comment: expected 2xx, got ${added.status}`, exchange: added }];
    return [
      ...commentShownProblems(before, after, content, ` ${thread}`),
      ...others.flatMap((o) =>
        o.after ? commentShownProblems(o.before, o.after, content, ` ${thread} as key ${o.name} reads it`) : [],
      ),
      ...unless(
        after.thread?.comment_count === after.comments.length,
        `comment_count ${String(after.thread?.comment_count)} but ${after.comments.length} comments`,
        after.exchange,
      ),
    ];
  },
});

/** A comment of a length at a limit: accepted from inside, refused (as the contract says) from outside. */
interface CommentCase {
  label: string;
  exchange: Exchange;
  /** For a refusal: what the contract expects. */
  expected?: Expected;
  held?: Held;
}

/** The comment lengths inside the limits: exactly the maximum, and the minimum where it binds. */
async function commentsInside(t: CheckContext, thread: string, limit: number): Promise<CommentCase[]> {
  const exact = textOfLength(`${probeText(t, 'limit')} `, limit);
  const id = constraintId('body', 'content', 'maxLength', limit);
  const cases: CommentCase[] = [
    {
      label: `content of exactly ${limit} characters`,
      exchange: await comment(t, thread, exact),
      held: { detail: `content of ${limit} characters`, constraint: { id, side: 'inside' } },
    },
  ];
  const shortest = t.spec.schema('NoteContent')?.minLength;
  if (typeof shortest === 'number' && shortest > 0)
    cases.push({
      label: `content of exactly ${characters(shortest)}`,
      exchange: await comment(t, thread, 'x'.repeat(shortest)),
      held: {
        detail: `content of ${shortest} characters`,
        constraint: { id: constraintId('body', 'content', 'minLength', shortest), side: 'inside' },
      },
    });
  return cases;
}

/** Over the maximum, and blank: each refused where the contract refuses it. */
async function commentsOutside(t: CheckContext, thread: string, limit: number): Promise<CommentCase[]> {
  const id = constraintId('body', 'content', 'maxLength', limit);
  const cases: CommentCase[] = [];
  // A teammate's mention counts as written: its markup is content like any other character.
  const [teammate] = (await t.fixtures()).users;
  const mention = teammate ? `@[Teammate](${teammate}) ` : undefined;
  const overs = [
    textOfLength(`${probeText(t, 'limit')} `, limit + 1),
    ...(mention ? [textOfLength(`${mention}${probeText(t, 'limit')} `, limit + 1)] : []),
  ];
  for (const content of [...overs, '   ']) {
    const expected = expectedFor(t.spec, t.op(), { params: { id: thread }, body: { content } });
    if (!expected) continue;
    const over = content.trim() !== '';
    const marked = mention && content.startsWith(mention) ? ", a mention's markup among them" : '';
    const label = over ? `content of ${content.length} characters${marked}` : 'blank content';
    const held = over ? { held: { detail: label, constraint: { id, side: 'outside' as const } } } : {};
    cases.push({ label, expected, exchange: await comment(t, thread, content), ...held });
  }
  return cases;
}

const commentCaseProblems = ({ label, exchange, expected }: CommentCase): Problem[] =>
  expected
    ? errorsOf(exchange, expected, label)
    : unless(ok(exchange), `${label} must be accepted, got ${exchange.status}`, exchange);

rule({
  id: 'threads.content-limits',
  title: 'Content of exactly the limit (and of the minimum length) is accepted; one more, or blank, is refused',
  source: 'NoteContent maxLength + x-svc-error-code',
  precondition: 'a thread to comment on (the one the run created, else one found)',
  ...statefulWrite(COMMENT),
  requests: async (t) => {
    const thread = await probeThread(t);
    const body = deref(t.spec.contract, t.spec.resolve(t.op().requestBody?.schemaPointer ?? ''));
    const limit = propertiesOf(t.spec.contract, body).content?.maxLength;
    if (typeof limit !== 'number') return t.skip('the comment content has no maxLength in the contract');
    return [...(await commentsInside(t, thread, limit)), ...(await commentsOutside(t, thread, limit))];
  },
  problems: (cases) => cases.flatMap(commentCaseProblems),
  held: (cases) => cases.flatMap((c) => (c.held && commentCaseProblems(c).length === 0 ? [c.held] : [])),
});

/** Characters of content past which a body is one servers often read apart (16 KiB and more: a worker, a stream). */
const LARGE_CONTENT = 20_000;

/** The same fault sent in a small body and in a large one: the large one must get the small one's error. */
interface SizedFault {
  label: string;
  expected: Expected;
  small: Exchange;
  large: Exchange;
}

/** A comment's body sent as written (JSON cut short), so that no server can execute it. */
function rawComment(t: CheckContext, thread: string, rawBody: string): Promise<Exchange> {
  return t.call({ params: { id: thread } }, { rawBody, unparseable: true });
}

/** Content over the limit and JSON cut short, each in a small body and in one of 16 KiB or more. */
async function sizedFaults(t: CheckContext, thread: string, limit: number): Promise<SizedFault[]> {
  const faults: SizedFault[] = [];
  const long = `${probeText(t, 'large body')} `.padEnd(LARGE_CONTENT, 'x');
  const tooLong = expectedFor(t.spec, t.op(), { params: { id: thread }, body: { content: long } });
  if (tooLong) {
    const small = await comment(t, thread, `${`${probeText(t, 'limit')} `.padEnd(limit, 'x')}x`);
    const label = `content of ${LARGE_CONTENT} characters`;
    faults.push({ label, expected: tooLong, small, large: await comment(t, thread, long) });
  }
  const unparseable = expectedFor(t.spec, t.op(), { params: { id: thread }, body: undefined });
  if (unparseable) {
    const small = await rawComment(t, thread, MALFORMED_BODY);
    const large = await rawComment(t, thread, JSON.stringify({ content: long }).slice(0, -2));
    faults.push({ label: `JSON cut short after ${LARGE_CONTENT} characters`, expected: unparseable, small, large });
  }
  return faults;
}

/** The large body's error, judged as documented, then beside the small one's: the same type and param. */
function sizedFaultProblems({ label, expected, small, large }: SizedFault): Problem[] {
  const documented = errorsOf(large, expected, label);
  if (documented.length > 0 || errorProblems(small, expected).length > 0) return documented;
  const [was, now] = [errorOf(small), errorOf(large)];
  return (['type', 'param'] as const).flatMap((field) =>
    unless(
      now?.[field] === was?.[field],
      `${label}: error.${field} ${short(now?.[field])}, where the same fault in a small body gives ${short(was?.[field])}`,
      large,
    ),
  );
}

// The description's body rules hold whatever the body's size: a server that reads large bodies
// apart (a worker thread, a stream) must answer them as it answers small ones.
rule({
  id: 'threads.large-body',
  title: 'A body of 16 KiB or more is refused as a small one with the same fault is (code, type, param)',
  source:
    'NoteContent maxLength + x-svc-error-code ("Note, comment and thread content: at most 4,000 characters"; INVALID_REQUEST_BODY: "Body unparseable")',
  precondition:
    'a request body of 16 KiB or more (content of 20 000 characters; JSON cut short after as many) beside the same fault in a small body',
  ...statefulWrite(COMMENT),
  requests: async (t) => {
    const thread = await probeThread(t);
    const body = deref(t.spec.contract, t.spec.resolve(t.op().requestBody?.schemaPointer ?? ''));
    const limit = propertiesOf(t.spec.contract, body).content?.maxLength;
    if (typeof limit !== 'number') return t.skip('the comment content has no maxLength in the contract');
    return sizedFaults(t, thread, limit);
  },
  problems: (faults) => faults.flatMap(sizedFaultProblems),
  passed: (faults) => `refused as their small counterparts: ${faults.map((f) => f.label).join('; ')}`,
});

// A mention written in a comment's text is listed in the comment's mentions, read back.
rule({
  id: 'threads.mentions',
  title: 'Inline mentions come back parsed in mentions',
  source: 'NoteContent / NoteMention',
  precondition: 'a comment whose content mentions a user of the team inline, written by the check',
  ...statefulWrite(COMMENT),
  requests: async (t) => {
    const thread = await probeThread(t);
    const user = need((await t.fixtures()).users[0], 'a user id to mention');
    const added = await comment(t, thread, mentioning(t, 'mention', user));
    return { user, added, ...(ok(added) ? { read: await readThread(t, thread) } : {}) };
  },
  problems: ({ user, added, read }) => {
    if (!read)
      return [{ message: `adding a comment with a mention: expected 2xx, got ${added.status}`, exchange: added }];
    const mentions = read.comments.at(-1)?.mentions;
    return unless(
      Array.isArray(mentions) && mentions.some((m) => isObject(m) && m.user_id === user),
      `the mention of ${user} is not in the comment's mentions: ${short(mentions)}`,
      read.exchange,
    );
  },
});

interface KeyedComment {
  replayed: string;
  content: string;
  before: ThreadRead;
  repeats: Repeats;
  after?: ThreadRead;
}

// Every repeat of a keyed comment replays, not only the first (the description states it for
// each), and the thread holds the comment once.
rule({
  ...IDEMPOTENCY_REPLAY,
  ...statefulWrite(COMMENT),
  requests: async (t): Promise<KeyedComment> => {
    const thread = await probeThread(t);
    const before = await readThread(t, thread);
    const content = probeText(t, 'idempotent comment');
    const repeats = await sendRepeats(t, 'a keyed comment', 'replay', (keyed) => comment(t, thread, content, keyed));
    const state = { replayed: t.spec.idempotencyReplayedHeader, content, before, repeats };
    return ok(repeats.first) ? { ...state, after: await readThread(t, thread) } : state;
  },
  problems: ({ replayed, content, before, repeats, after }) => {
    const replays = replayProblems(repeats, replayed);
    if (!after) return replays;
    const copies = after.comments.filter((c) => c.content === content).length;
    return [
      ...replays,
      ...unless(copies === 1, `the keyed comment was executed ${copies} times`, after.exchange),
      ...countProblems(before, after, ' after a write and its replay'),
    ];
  },
  passed: ({ repeats }) => `${repeats.what}: 3 repeats replayed`,
});

interface KeyReuse {
  first: Exchange;
  /** The key sent to another endpoint, then with another method: each refused as reused. */
  reuses: Array<{ label: string; exchange: Exchange; expected: Expected }>;
}

/** The comment's key on createThread: a new thread on the item that already has the probe thread. */
async function reuseOnCreate(t: CheckContext, thread: string, key: string) {
  const create = t.op('createThread');
  const probe = (await readThread(t, thread)).thread;
  const body = { entity_type: probe?.entity_type, entity_id: probe?.entity_id, content: probeText(t, 'reused key') };
  return {
    label: `the key of a comment sent to ${create.method} ${create.path}`,
    exchange: await t.call({ body }, { idempotencyKey: key }, create.operationId),
    expected: listedCode(t.spec, create, 'IDEMPOTENCY_KEY_REUSE'),
  };
}

/** The comment's key with another method (a PUT): the description names the method as well as the endpoint. */
async function reuseWithPut(t: CheckContext, key: string, contact: string) {
  const action = t.op('applyConversationAction');
  const actions = t.spec.schema('ConversationAction')?.enum;
  const body = { action: Array.isArray(actions) ? actions[0] : undefined };
  return {
    label: `the key of a comment sent with ${action.method} to ${action.path}`,
    exchange: await t.call({ params: { contact_number: contact }, body }, { idempotencyKey: key }, action.operationId),
    expected: listedCode(t.spec, action, 'IDEMPOTENCY_KEY_REUSE'),
  };
}

/**
 * A key first used on a DELETE (a probe tag added for it, then removed with the key), then sent
 * with a comment: a server may keep the keys of one method apart from the others'.
 */
async function reuseAfterDelete(t: CheckContext, thread: string) {
  if ((await t.fixtures()).items.length === 0) return [];
  // A team tag the item does not carry, so that the team's tag list is left as found.
  const { item, tag } = await replayTarget(t, 'reuse');
  const key = `svc-contract-${t.config.runId}-reuse-after-delete`;
  const added = await t.call({ params: { id: item }, body: { tags: [tag] } }, {}, 'addConversationItemTags');
  if (!ok(added)) return [];
  const removal = t.op('removeConversationItemTag');
  const removed = await t.call({ params: { id: item, tag } }, { idempotencyKey: key }, removal.operationId);
  if (!ok(removed)) return [];
  return [
    {
      label: `the key of a ${removal.method} of ${removal.path}, sent with a comment`,
      exchange: await comment(t, thread, probeText(t, 'comment with a key used on a delete'), { idempotencyKey: key }),
      expected: listedCode(t.spec, t.op(COMMENT), 'IDEMPOTENCY_KEY_REUSE'),
    },
  ];
}

// The same key on another endpoint whose idempotency is promised (not the read-only item
// search: that it takes part is only inferred, x-svc-inferred.idempotency): a new thread on
// the item that already has the probe thread, so a server that ignored the key would only
// answer 409 THREAD_ALREADY_EXISTS and create nothing; then on a PUT.
rule({
  id: 'idempotency.key-reuse',
  title: 'The same key on another endpoint or with another method is 409 IDEMPOTENCY_KEY_REUSE',
  source: 'IdempotencyConflict',
  precondition:
    'a key used once on a comment, then sent to another endpoint and with another method; and a key first used on a DELETE, then sent with a comment',
  ...statefulWrite(COMMENT),
  requests: async (t): Promise<KeyReuse> => {
    const thread = await probeThread(t);
    const key = `svc-contract-${t.config.runId}-reuse`;
    const first = await comment(t, thread, probeText(t, 'keyed comment'), { idempotencyKey: key });
    if (!ok(first)) return { first, reuses: [] };
    const reuses = [await reuseOnCreate(t, thread, key)];
    const contact = (await t.fixtures()).contacts[0];
    if (contact !== undefined) reuses.push(await reuseWithPut(t, key, contact));
    reuses.push(...(await reuseAfterDelete(t, thread)));
    return { first, reuses };
  },
  problems: ({ first, reuses }) =>
    ok(first)
      ? reuses.flatMap((r) => afterEarlier(errorsOf(r.exchange, r.expected, r.label)))
      : [{ message: `the keyed comment: expected 2xx, got ${first.status}`, exchange: first }],
});

// A key whose request failed (a blank comment) stays usable: the retry executes, not replayed.
rule({
  ...FAILED_NOT_CONSUMED,
  ...statefulWrite(COMMENT),
  requests: async (t) => {
    const thread = await probeThread(t);
    const key = `svc-contract-${t.config.runId}-failed`;
    const blank = '   ';
    const expected = expectedFor(t.spec, t.op(), { params: { id: thread }, body: { content: blank } });
    if (!expected) return t.skip('the contract accepts blank content');
    const failed = await comment(t, thread, blank, { idempotencyKey: key });
    const replayed = t.spec.idempotencyReplayedHeader;
    if (errorProblems(failed, expected).length > 0) return { expected, failed, replayed };
    // Failed again with the same key: executed again, not answered as a stored response (none was stored).
    const failedAgain = await comment(t, thread, blank, { idempotencyKey: key });
    const retried = await comment(t, thread, probeText(t, 'retried comment'), { idempotencyKey: key });
    return { expected, failed, replayed, failedAgain, retried };
  },
  problems: ({ expected, failed, replayed, failedAgain, retried }) => {
    if (!retried) return errorsOf(failed, expected, 'a blank comment');
    return [
      ...(failedAgain ? errorsOf(failedAgain, expected, 'the blank comment again, with the same key') : []),
      ...unless(
        ok(retried),
        `the key of a failed request must stay usable: expected 2xx, got ${retried.status}`,
        retried,
      ),
      ...unless(header(retried, replayed) !== 'true', 'the failed response was replayed', retried),
    ];
  },
});

/** The enum of a top-level body field, read from the operation's request schema. */
/** The enum of a body field of the operation, else of its query parameter of that name. */
function enumAt(t: CheckContext, op: Operation, field: string): string[] {
  const body = op.requestBody ? t.spec.resolve(op.requestBody.schemaPointer) : undefined;
  const parameter = op.parameters.find((p) => p.in === 'query' && p.name === field)?.schema;
  const schema = deref(t.spec.contract, propertiesOf(t.spec.contract, body)[field] ?? parameter);
  return Array.isArray(schema.enum) ? schema.enum.map(String) : [];
}

/**
 * Items with one of each kind no thread of this run was created on first, then the rest: the
 * threads a run must create anyway also show every entity_type, so it leaves as few as it can.
 */
function unsentKindsFirst(t: CheckContext, op: Operation, items: ItemFixture[]): ItemFixture[] {
  const unsent = (i: ItemFixture) => !t.everSent(op.operationId, `body entity_type=${i.entityType}`);
  const first: ItemFixture[] = [];
  for (const item of items.filter(unsent)) if (!first.some((i) => i.entityType === item.entityType)) first.push(item);
  return [...first, ...items.filter((i) => !first.includes(i))];
}

interface OtherKind {
  item: ItemFixture;
  sentType: string;
  answer: Exchange;
}

/** A free item, sent with an entity_type of another kind than the one its id names. */
async function createWithOtherKind(t: CheckContext): Promise<OtherKind> {
  const f = await t.fixtures();
  const op = t.op();
  const kinds = enumAt(t, op, 'entity_type');
  for (const item of candidates(f).slice(0, t.config.fixturesPerKind ?? 20)) {
    const sentType = kinds.find((kind) => kind !== item.entityType);
    if (!sentType || !kinds.includes(item.entityType)) continue;
    if ((await findThread(t, item)).id !== undefined) continue;
    const body = { entity_type: sentType, entity_id: item.id, content: probeText(t, 'thread') };
    return {
      item,
      sentType,
      answer: await t.call({ body }, documentedHeaders(op, `${t.config.runId}-kind-${item.id}`)),
    };
  }
  return t.skip(usedUp(t, 'no item without a thread is known', 'threadless_item_ids'), 'config');
}

rule({
  id: 'threads.kind-of-item',
  title:
    "A thread is never created saying another kind than its item's: entity_type sent with an item of another kind is refused, or the thread answered names the item's own kind",
  source:
    'Thread: "One thread per conversation item (a call, a text message or a conversation note)", entity_type "CALL, TEXT_MESSAGE or CONVERSATION_NOTE" and entity_id "cll-*, msg-* or not-*"',
  precondition:
    'a free item of one kind (fixtures.threadless_item_ids, else known items found to have none), sent with another entity_type',
  ...statefulWrite('createThread'),
  requests: createWithOtherKind,
  problems: ({ item, sentType, answer }) =>
    unless(
      !ok(answer) || data(answer)?.entity_type === item.entityType,
      `a thread on ${item.entityType} ${item.id} sent as ${sentType}: answered ${answer.status} with entity_type ${short(data(answer)?.entity_type)}`,
      answer,
    ),
  passed: ({ item, sentType, answer }) => `${item.id} sent as ${sentType}: answered ${answer.status}`,
});
