// The dialer queue of the key's owner (or of a teammate by user_id / email).
import { idPrefixes, propertiesOf } from '@svc/spec-runtime';
import { isReplayPromised } from '@svc/spec-runtime/facts';
import { documentedCodes } from '../expectations/expect.js';
import { need } from '../fixtures.js';
import { UNKNOWN_SUFFIX } from '../generate/negatives.js';
import type { Exchange } from '../http/exchange.js';
import { type CheckContext, contractOperation, type Problem, rule, statefulWrite } from './harness.js';
import { documentedHeaders, operationChecks } from './operation-checks.js';
import { errorsOf, unless } from './problems.js';
import {
  data,
  IDEMPOTENCY_REPLAY,
  type Json,
  ok,
  otherCallers,
  type Repeats,
  replayProblems,
  sameEntries,
  sendRepeats,
  short,
  teammates,
  unpromisedRepeatProblems,
  unpromisedRepeatsHeld,
} from './support.js';

const OP = 'upsertCurrentDialingQueue';
const { method } = contractOperation(OP);

function update(t: CheckContext, body: Json, extra: Partial<{ idempotencyKey: string }> = {}): Promise<Exchange> {
  return t.call({ body }, extra, OP);
}

interface QueueRepeats {
  promised: boolean;
  replayed: string;
  repeats: Repeats;
}

// Idempotency is promised for POST, PUT and DELETE; on this PATCH the contract says replay is
// not promised (x-svc-inferred.replay), so a replay and a new execution both pass.
rule({
  ...IDEMPOTENCY_REPLAY,
  ...statefulWrite(OP, method),
  requests: async (t): Promise<QueueRepeats> => {
    const promised = isReplayPromised(t.spec.contract, t.op());
    const repeats = await sendRepeats(t, `${method} an empty update`, promised ? 'replay' : 'repeat', (keyed) =>
      update(t, {}, keyed),
    );
    return { promised, replayed: t.spec.idempotencyReplayedHeader, repeats };
  },
  problems: ({ promised, replayed, repeats }) =>
    promised ? replayProblems(repeats, replayed) : unpromisedRepeatProblems(repeats, replayed),
  passed: ({ promised, replayed, repeats }) =>
    promised ? `${repeats.what}: 3 repeats replayed` : unpromisedRepeatsHeld(repeats, replayed, method),
});

/** One name sent alone, in the state the queue was in (the answer before it shows that state). */
interface NameAlone {
  before: Json;
  name: string;
  changed: Exchange;
}

interface PartialUpdate {
  found: Exchange;
  /** The queue's enum settings (the fields a faulty reset may write a value of). */
  settings: string[];
  /** The name sent alone as found, then with every enum setting moved to another value first. */
  rounds: NameAlone[];
  /** The write that moved the settings (its answer shows whether the state was reached). */
  moved?: { sent: Json; exchange: Exchange };
  restored?: Exchange;
  /** Each setting sent alone with the value it holds, in the moved state and again once put back. */
  alone: SettingAlone[];
}

interface SettingAlone {
  field: string;
  before: Json;
  changed: Exchange;
}

/** Each enum setting sent alone, holding the value it has, from the state `queue` shows. */
async function eachSettingAlone(t: CheckContext, queue: Json | undefined): Promise<SettingAlone[]> {
  const alone: SettingAlone[] = [];
  let before = queue;
  for (const [field] of enumFields(t)) {
    if (!before) break;
    const changed = await update(t, { [field]: before[field] });
    alone.push({ field, before, changed });
    before = data(changed);
  }
  return alone;
}

/** For each enum setting of the queue, a value other than the one it holds (the found state's other side). */
function otherValues(t: CheckContext, queue: Json): Json {
  return Object.fromEntries(
    enumFields(t)
      .map(([field, values]) => [field, values.find((v) => v !== queue[field])] as const)
      .filter(([, v]) => v !== undefined),
  );
}

// "All fields are optional; only supplied fields are touched": a name sent alone must leave every
// other field as the answer before it showed it. A faulty reset writes some value of each enum
// setting (which one a new queue takes is not shown), and shows only where the setting held
// another: so the name is sent alone twice, as found and after every setting was moved to its
// other value; then the queue is put back (and the undo ledger checks it was).
async function nameAloneTwice(t: CheckContext): Promise<PartialUpdate> {
  const found = await update(t, {});
  const queue = data(found);
  const settings = enumFields(t).map(([field]) => field);
  if (!ok(found) || !queue) return { found, settings, rounds: [], alone: [] };
  const name = (n: number) => `svc-contract ${t.config.runId} ${n}`;
  const rounds: NameAlone[] = [{ before: queue, name: name(1), changed: await update(t, { name: name(1) }) }];
  const sent = otherValues(t, queue);
  const exchange = await update(t, sent);
  const moved = data(exchange);
  const alone: SettingAlone[] = [];
  if (ok(exchange) && moved) {
    const second = await update(t, { name: name(2) });
    rounds.push({ before: moved, name: name(2), changed: second });
    alone.push(...(await eachSettingAlone(t, data(second))));
  }
  const back = Object.fromEntries(['name', ...Object.keys(sent)].map((f) => [f, queue[f]]));
  const restored = await update(t, back);
  alone.push(...(await eachSettingAlone(t, data(restored))));
  return { found, settings, rounds, moved: { sent, exchange }, restored, alone };
}

/** A setting sent alone with the value it held: every other field of the queue is kept. */
function settingAloneProblems({ field, before, changed }: SettingAlone): Problem[] {
  const after = data(changed);
  if (!ok(changed) || !after)
    return [{ message: `${field} sent alone: expected 200 with the queue, got ${changed.status}`, exchange: changed }];
  return Object.keys(before)
    .filter((f) => f !== 'updated_at')
    .flatMap((f) =>
      unless(
        sameEntries(after[f], before[f]),
        `${f} changed although only ${field} was sent (with the value it held): ${short(before[f])} → ${short(after[f])}`,
        changed,
      ),
    );
}

/** What the answer to a name sent alone shows wrong: the name not changed, another field not kept. */
function nameAloneProblems({ before, name, changed }: NameAlone): Problem[] {
  const after = data(changed);
  if (!ok(changed) || !after)
    return [
      { message: `updating the name alone: expected 200 with the queue, got ${changed.status}`, exchange: changed },
    ];
  const untouched = Object.keys(before).filter((f) => f !== 'name' && f !== 'updated_at');
  return [
    ...unless(after.name === name, `the name did not change: ${short(after.name)}`, changed),
    ...untouched.flatMap((field) =>
      unless(
        sameEntries(after[field], before[field]),
        `${field} changed although only name was sent: ${short(before[field])} → ${short(after[field])}`,
        changed,
      ),
    ),
  ];
}

/** Every field of the queue other than `sent` (and updated_at), as `before` showed it: kept in `after`. */
function keptProblems(before: Json, after: Json, sent: readonly string[], what: string, exchange: Exchange): Problem[] {
  return Object.keys(before)
    .filter((f) => f !== 'updated_at' && !sent.includes(f))
    .flatMap((f) =>
      unless(
        sameEntries(after[f], before[f]),
        `${f} changed although only ${what}: ${short(before[f])} → ${short(after[f])}`,
        exchange,
      ),
    );
}

/**
 * The settings moved without the name: every other field (the name the round before wrote, the
 * number entries) is kept as that round's answer showed it.
 */
function movedProblems({ rounds, moved }: PartialUpdate): Problem[] {
  const shown = moved && ok(moved.exchange) ? data(moved.exchange) : undefined;
  const before = rounds[0] && ok(rounds[0].changed) ? data(rounds[0].changed) : undefined;
  if (!moved || !shown || !before) return [];
  const sent = Object.keys(moved.sent);
  return keptProblems(before, shown, sent, `${sent.join(', ')} were sent`, moved.exchange);
}

/** The queue put back (its name and settings sent): every field as found, the number entries too. */
function restoredProblems({ found, restored }: PartialUpdate): Problem[] {
  const [before, after] = [data(found), restored ? data(restored) : undefined];
  if (!restored) return [];
  if (!ok(restored) || !after || !before)
    return [{ message: `putting the queue back failed (${restored.status})`, exchange: restored }];
  return keptProblems(before, after, [], 'the name and settings it was found with were sent back', restored);
}

function partialUpdateProblems(state: PartialUpdate): Problem[] {
  const { found, rounds } = state;
  if (rounds.length === 0)
    return [
      {
        message: `reading the queue through an empty update: expected 200 with the queue, got ${found.status}`,
        exchange: found,
      },
    ];
  return [
    ...rounds.flatMap(nameAloneProblems),
    ...movedProblems(state),
    ...state.alone.flatMap(settingAloneProblems),
    ...restoredProblems(state),
  ];
}

/** The queue's enum settings as one state ("do_not_disturb ENABLED and voicemail_handling SKIP"). */
const settingsOf = (queue: Json, settings: readonly string[]): string =>
  settings.map((f) => `${f} ${String(queue[f])}`).join(' and ');

/**
 * Why the number entries never showed what a name sent alone must keep: the queue, as the run found
 * it, shows none (no operation writes them; an earlier write of the run may have lost them).
 */
function noEntries({ found }: PartialUpdate): string | undefined {
  const numbers = data(found)?.numbers;
  return ok(found) && (!Array.isArray(numbers) || numbers.length === 0)
    ? 'the queue, as found, has no number entries: whether a name sent alone keeps them was not seen (no operation writes them)'
    : undefined;
}

/** Why the settings never held their other values while the name was sent alone, if they did not. */
function settingsNotMoved({ moved, rounds }: PartialUpdate): string | undefined {
  if (!moved) return undefined;
  const { sent, exchange } = moved;
  if (!ok(exchange) || rounds.length < 2)
    return `moving ${Object.keys(sent).join(', ')} to ${Object.values(sent).join(', ')} first was answered ${exchange.status}`;
  const held = rounds[1]?.before ?? {};
  const unmoved = Object.keys(sent).filter((f) => held[f] !== sent[f]);
  return unmoved.length === 0
    ? undefined
    : `${unmoved.map((f) => `${f} sent ${short(sent[f])} was answered ${short(held[f])}`).join(', ')}, so the name was never sent alone while they held their other value`;
}

rule({
  id: 'dialer-queues.partial-update',
  title:
    'Only the fields sent are touched: a name sent alone, and each setting sent alone, leave the rest of the queue as it was, with each setting at either of its values',
  source: 'UpdateDialingQueueRequest (all fields optional)',
  // Claimed in the full sentence audit of partial updates and x-svc-response-rules (issue 24, item 5).
  enforces: ['x-svc-merge-rules dialer-queue merged'],
  precondition:
    'the queue has number entries, and each enum setting (do_not_disturb, voicemail_handling) holds, while the name or another setting is sent alone, first the value found, then another value it was moved to first (put back after)',
  ...statefulWrite(OP),
  requests: nameAloneTwice,
  problems: partialUpdateProblems,
  notReached: (s) => noEntries(s) ?? settingsNotMoved(s),
  passed: ({ rounds, settings }) =>
    `name sent alone with ${rounds.map((r) => settingsOf(r.before, settings)).join(', then with ')}: every other field kept`,
});

interface EachValue {
  before?: Json;
  changes: Array<{ field: string; value: string; exchange: Exchange }>;
  restore?: { fields: string[]; exchange: Exchange };
  /** user_id with an email matching no one: the documented precedence. */
  precedence?: { assignee: string; exchange: Exchange };
}

/** The body fields of the update that hold an enum, with their values. */
function enumFields(t: CheckContext): Array<[string, string[]]> {
  const op = t.op();
  const body = op.requestBody ? t.spec.resolve(op.requestBody.schemaPointer) : undefined;
  return Object.entries(propertiesOf(t.spec.contract, body))
    .filter(([, s]) => Array.isArray(s.enum))
    .map(([field, s]) => [field, (s.enum as unknown[]).map(String)]);
}

async function sendEachValue(t: CheckContext): Promise<EachValue> {
  const before = data(await update(t, {}));
  if (!before) return { changes: [] };
  const fields = enumFields(t);
  const changes: EachValue['changes'] = [];
  for (const [field, values] of fields)
    for (const value of values) {
      const extra = documentedHeaders(t.op(), `${t.config.runId}-${field}-${value}`);
      changes.push({ field, value, exchange: await t.call({ body: { [field]: value } }, extra) });
    }
  const restoreBody = Object.fromEntries(fields.map(([f]) => [f, before[f]]).filter(([, v]) => v !== undefined));
  const restore = { fields: Object.keys(restoreBody), exchange: await update(t, restoreBody) };
  const assignee = before.assignee_id;
  if (typeof assignee !== 'string') return { before, changes, restore };
  const email = `svc-contract-${t.config.runId}@example.invalid`;
  return {
    before,
    changes,
    restore,
    precedence: { assignee, exchange: await update(t, { user_id: assignee, email }) },
  };
}

function eachValueProblems({ before, changes, restore, precedence }: EachValue): Problem[] {
  if (!before) return [{ message: 'reading the queue through an empty update gave no queue' }];
  return [
    ...changes.flatMap(({ field, value, exchange }) =>
      unless(
        ok(exchange) && data(exchange)?.[field] === value,
        `${field} ${value}: expected 200 with ${field} ${value}, got ${exchange.status} ${short(data(exchange)?.[field])}`,
        exchange,
      ),
    ),
    ...(restore
      ? unless(
          ok(restore.exchange),
          `restoring ${restore.fields.join(', ')} failed (${restore.exchange.status})`,
          restore.exchange,
        )
      : []),
    ...(precedence
      ? unless(
          ok(precedence.exchange) && data(precedence.exchange)?.assignee_id === precedence.assignee,
          `user_id ${precedence.assignee} with an email matching no one: user_id wins over email, so expected 200 with that queue, got ${precedence.exchange.status} ${short(data(precedence.exchange)?.assignee_id)}`,
          precedence.exchange,
        )
      : []),
  ];
}

// Each value of each enum field, read back from the answer, then the queue as it was; and
// the documented precedence: with user_id and an email matching no one, user_id is used (the
// queue's own assignee: nobody else's queue is touched) and the email ignored.
rule({
  id: 'dialer-queues.each-value',
  title: "Each enum value of the queue's settings is applied and answered; user_id wins over email",
  source: 'UpdateDialingQueueRequest enums + x-svc-input-rules precedence',
  precondition:
    "the queue of the key's owner, each setting sent each of its values; for the precedence, the queue's own assignee (user_id) with an email matching no one",
  enforces: ['x-svc-input-rules precedence user_id, email'],
  ...statefulWrite(OP),
  requests: sendEachValue,
  problems: eachValueProblems,
});

rule({
  id: 'dialer-queues.unknown-assignee',
  title:
    'An unknown teammate is 404 ASSIGNEE_NOT_FOUND: a user_id or an email matching no one, a member removed from the team',
  source:
    'UpdateDialingQueueRequest user_id ("must belong to the same team"); 404 ASSIGNEE_NOT_FOUND "when no teammate matches user_id or email"',
  precondition:
    'a request the server must refuse: a user_id, then an email, matching no teammate; then the id of each member removed from the team (fixtures.removed_user_ids: no operation removes one)',
  ...statefulWrite(OP),
  requests: async (t) => {
    const expected = { status: 404, codes: documentedCodes(t.spec, t.op(), 404), why: 'no teammate matches' };
    if (expected.codes.length === 0) return t.skip('the operation documents no 404');
    const [user = ''] = idPrefixes(t.spec.schema('UserId') ?? {});
    const byId = await update(t, { user_id: `${user}${UNKNOWN_SUFFIX}` });
    const byEmail = await update(t, { email: `svc-contract-${t.config.runId}@example.invalid` });
    // A removed member was a teammate once: a server may still match the id (no operation removes one).
    const removed: Array<{ id: string; exchange: Exchange }> = [];
    for (const id of (t.config.config.fixtures.removed_user_ids ?? []).slice(0, t.config.fixturesPerKind ?? 20))
      removed.push({ id, exchange: await update(t, { user_id: id }) });
    return { expected, byId, byEmail, removed };
  },
  problems: ({ expected, byId, byEmail, removed }) => [
    ...errorsOf(byId, expected, 'an unknown user_id'),
    ...errorsOf(byEmail, expected, 'an unknown email'),
    ...removed.flatMap(({ id, exchange }) =>
      errorsOf(exchange, expected, `user_id ${id}, a member removed from the team`),
    ),
  ],
  passed: ({ removed }) =>
    removed.length > 0 ? `and the removed members ${removed.map((r) => r.id).join(', ')}` : undefined,
});

interface OtherCaller {
  found: Exchange;
  /** Each other key's update of the run key's queue with user_id alone, and what the key is. */
  updates: Array<{ what: string; exchange: Exchange }>;
}

// "Only supplied fields are touched": the queue of the run key's owner updated by another key of
// the team, with user_id alone, is answered as it was. A server that stamps the caller (its
// creator_id, say) on every write shows it only where the caller is not the one who made it.
rule({
  id: 'dialer-queues.other-caller',
  title:
    "Another key of the team updating the run key's queue with user_id alone touches nothing: every field (creator_id too) as the run key's empty update showed it",
  source:
    'PATCH /v2/api/dialing-queues/current: "All fields are optional; only supplied fields are touched"; user_id: "Teammate whose queue is changed"',
  precondition:
    "another key of the team that may write the queue (a config key holding the operation's scope: a line-limited one and an active one), sending the queue's assignee as user_id",
  enforces: ['x-svc-merge-rules dialer-queue merged'],
  ...statefulWrite(OP),
  requests: async (t): Promise<OtherCaller> => {
    const found = await update(t, {});
    const assignee = data(found)?.assignee_id;
    const writers = otherCallers(t);
    if (!ok(found) || typeof assignee !== 'string' || writers.length === 0) return { found, updates: [] };
    const updates: OtherCaller['updates'] = [];
    for (const key of writers)
      updates.push({
        what: `key "${key.name}"`,
        exchange: await t.call({ body: { user_id: assignee } }, { auth: { kind: 'key', key: key.key } }, OP),
      });
    return { found, updates };
  },
  problems: ({ found, updates }) => {
    const before = data(found) ?? {};
    return updates.flatMap(({ what, exchange }) => {
      const after = data(exchange);
      if (!ok(exchange) || !after)
        return [
          { message: `${what} updating the queue with user_id alone: expected 200, got ${exchange.status}`, exchange },
        ];
      return Object.keys(before)
        .filter((f) => f !== 'updated_at')
        .flatMap((f) =>
          unless(
            sameEntries(after[f], before[f]),
            `${f} changed when ${what} sent user_id alone: ${short(before[f])} → ${short(after[f])}`,
            exchange,
          ),
        );
    });
  },
  notReached: ({ found, updates }) =>
    updates.length > 0
      ? undefined
      : ok(found)
        ? "no other key of the team may write the queue (declare one in --config with the operation's scope), or the queue shows no assignee_id"
        : `the run key's empty update was answered ${found.status}`,
  passed: ({ updates }) => `${updates.map((u) => u.what).join(', ')}: the queue answered as it was`,
});

interface ByDefault {
  /** The key owner's queue, as an empty update (naming no one) answered it first. */
  owner: Json;
  /** Each way of naming a teammate: the update naming it, the next naming no one, the teammate's queue read again. */
  rounds: Array<{ named: string; body: Json; targeted: Exchange; name: string; untargeted: Exchange; again: Exchange }>;
  restored: Exchange[];
}

async function ownerAfterTeammate(t: CheckContext): Promise<ByDefault> {
  const before = await update(t, {});
  const owner = data(before);
  const ownerId = owner?.assignee_id;
  if (!ok(before) || !owner || typeof ownerId !== 'string')
    return t.skip(`reading the queue through an empty update gave no assignee_id (${before.status})`);
  const byId = (await t.fixtures()).users.find((id) => id !== ownerId);
  const byEmail = (await teammates(t)).find((m) => m.id !== ownerId);
  const targets: Array<[string, Json]> = [];
  if (byId) targets.push([`user_id ${byId}`, { user_id: byId }]);
  if (byEmail) targets.push([`email ${byEmail.email}`, { email: byEmail.email }]);
  if (targets.length === 0)
    return t.skip(
      "no teammate other than the key's owner is known (GET /v2/api/users, fixtures.teammate_emails)",
      'config',
    );
  const rounds: ByDefault['rounds'] = [];
  for (const [named, body] of targets) {
    const targeted = await update(t, body);
    // The update naming no one changes a value (the name), so that a write landing on the teammate's queue shows there.
    const name = `svc-contract ${t.config.runId} owner ${rounds.length + 1}`;
    const untargeted = await update(t, { name });
    rounds.push({ named, body, targeted, name, untargeted, again: await update(t, body) });
  }
  // Put back: the owner's name (named by user_id, whatever the server applies an update naming no
  // one to), and a teammate's name where the update naming no one reached it.
  const restored = [await update(t, { user_id: ownerId, name: owner.name })];
  for (const { body, targeted, again } of rounds) {
    const was = data(targeted)?.name;
    if (ok(targeted) && ok(again) && data(again)?.name !== was) restored.push(await update(t, { ...body, name: was }));
  }
  return { owner, rounds, restored };
}

function ownerAfterTeammateProblems({ owner, rounds, restored }: ByDefault): Problem[] {
  return [
    ...rounds.flatMap(({ named, targeted, name, untargeted, again }) => {
      const teammate = data(targeted);
      if (!ok(targeted) || !teammate) return [];
      const after = data(untargeted);
      const shown = `${untargeted.status} id ${short(after?.id)} assignee_id ${short(after?.assignee_id)}`;
      const wrong = !ok(untargeted) || !after || after.id !== owner.id || after.assignee_id !== owner.assignee_id;
      const now = data(again);
      return [
        ...(wrong
          ? [
              {
                message: `an update of the name naming no teammate, sent after one naming ${named}: expected the key owner's queue (id ${short(owner.id)}, assignee_id ${short(owner.assignee_id)}), got ${shown}`,
                exchange: untargeted,
              },
            ]
          : unless(
              after.name === name,
              `an update of the name naming no teammate, sent after one naming ${named}: the name did not change (${short(after.name)})`,
              untargeted,
            )),
        ...(ok(again) && now
          ? keptProblems(
              teammate,
              now,
              [],
              `the key owner's queue was updated (naming no teammate) since ${named} read it`,
              again,
            )
          : [
              {
                message: `${named} again: expected 200 with that teammate's queue, got ${again.status}`,
                exchange: again,
              },
            ]),
      ];
    }),
    ...restored.flatMap((r) => unless(ok(r), `putting the names back failed (${r.status})`, r)),
  ];
}

// "Creates or updates the config of the queue of the API key owner": an update that names no
// teammate is the owner's, whatever the key named before (a server may remember the last target and
// apply to it the next updates that name no one). Each update naming no one writes a name, so that
// the write shows where it landed: the answer is the owner's queue (its id and assignee as first
// found) and the teammate's queue, read again, is as it was. Declared after the checks that must see
// the owner's queue as found (its number entries), since it renames it (put back after).
rule({
  id: 'dialer-queues.owner-by-default',
  title: "An update naming no teammate changes the key owner's queue, also right after one that named a teammate",
  source:
    'PATCH /v2/api/dialing-queues/current: "creates or updates the config of the queue of the API key owner"; user_id: "Optional. Teammate whose queue is changed"',
  precondition:
    "a teammate other than the key's owner (GET /v2/api/users; by email: fixtures.teammate_emails or the list), named by user_id, then by email, each followed by an update of the name naming no one and the teammate's queue read again",
  ...statefulWrite(OP),
  requests: ownerAfterTeammate,
  problems: ownerAfterTeammateProblems,
  passed: ({ owner, rounds }) =>
    `after ${rounds.map((r) => r.named).join(' and after ')}: ${String(owner.assignee_id)}'s queue (${String(owner.id)}), the teammate's unchanged`,
});

// The generated checks last: their limits from inside rename the queue, and the rules above must
// first see it as found (its number entries, which no operation writes, still there).
operationChecks(OP, {
  // Only the fields sent are touched: an empty update changes nothing.
  baseline: () => ({ body: {} }),
  // The queue of a teammate of the run's team: with another team's key, no such teammate.
  otherTeam: (_t, f) => ({ body: { user_id: need(f.users[0], 'a user of the team (GET /v2/api/users)') } }),
});
