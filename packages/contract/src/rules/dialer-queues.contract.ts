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
  deepEqual,
  IDEMPOTENCY_REPLAY,
  type Json,
  ok,
  type Repeats,
  replayProblems,
  sendRepeats,
  short,
  unpromisedRepeatProblems,
  unpromisedRepeatsHeld,
} from './support.js';

const OP = 'upsertCurrentDialingQueue';
const { method } = contractOperation(OP);

operationChecks(OP, {
  // Only the fields sent are touched: an empty update changes nothing.
  baseline: () => ({ body: {} }),
  // The queue of a teammate of the run's team: with another team's key, no such teammate.
  otherTeam: (_t, f) => ({ body: { user_id: need(f.users[0], 'a user of the team (GET /v2/api/users)') } }),
});

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
    const repeats = await sendRepeats(t, `${method} an empty update`, promised ? 'replay' : 'repeat', (key) =>
      update(t, {}, { idempotencyKey: key }),
    );
    return { promised, replayed: t.spec.idempotencyReplayedHeader, repeats };
  },
  problems: ({ promised, replayed, repeats }) =>
    promised ? replayProblems(repeats, replayed) : unpromisedRepeatProblems(repeats, replayed),
  passed: ({ promised, replayed, repeats }) =>
    promised ? `${repeats.what}: 3 repeats replayed` : unpromisedRepeatsHeld(repeats, replayed, method),
});

interface PartialUpdate {
  before: Exchange;
  name: string;
  changed?: Exchange;
  restored?: Exchange;
}

// "All fields are optional; only supplied fields are touched": the update answers the queue,
// so a name sent alone must leave every other field as the previous answer showed it.
rule({
  id: 'dialer-queues.partial-update',
  title: 'Only the fields sent are touched: a name sent alone leaves the rest of the queue as it was',
  source: 'UpdateDialingQueueRequest (all fields optional)',
  // Claimed in the full sentence audit of partial updates and x-svc-response-rules (issue 24, item 5).
  enforces: ['x-svc-merge-rules dialer-queue merged'],
  ...statefulWrite(OP),
  requests: async (t): Promise<PartialUpdate> => {
    const before = await update(t, {});
    const name = `svc-contract ${t.config.runId}`;
    const queue = data(before);
    if (!ok(before) || !queue) return { before, name };
    const changed = await update(t, { name });
    const restored = await update(t, { name: queue.name });
    return { before, name, changed, restored };
  },
  problems: partialUpdateProblems,
});

function partialUpdateProblems({ before, name, changed, restored }: PartialUpdate): Problem[] {
  const queue = data(before);
  if (!changed || !restored || !queue)
    return [
      {
        message: `reading the queue through an empty update: expected 200 with the queue, got ${before.status}`,
        exchange: before,
      },
    ];
  const after = data(changed);
  const restoring = unless(ok(restored), `restoring the queue name failed (${restored.status})`, restored);
  if (!ok(changed) || !after)
    return [
      { message: `updating the name alone: expected 200 with the queue, got ${changed.status}`, exchange: changed },
      ...restoring,
    ];
  const untouched = Object.keys(queue).filter((f) => f !== 'name' && f !== 'updated_at');
  return [
    ...unless(after.name === name, `the name did not change: ${short(after.name)}`, changed),
    ...untouched.flatMap((field) =>
      unless(
        deepEqual(after[field], queue[field]),
        `${field} changed although only name was sent: ${short(queue[field])} → ${short(after[field])}`,
        changed,
      ),
    ),
    ...restoring,
  ];
}

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
  enforces: ['x-svc-input-rules precedence user_id, email'],
  ...statefulWrite(OP),
  requests: sendEachValue,
  problems: eachValueProblems,
});

rule({
  id: 'dialer-queues.unknown-assignee',
  title: 'An unknown teammate is 404 ASSIGNEE_NOT_FOUND',
  source: 'UpdateDialingQueueRequest user_id',
  ...statefulWrite(OP),
  requests: async (t) => {
    const expected = { status: 404, codes: documentedCodes(t.spec, t.op(), 404), why: 'no teammate matches' };
    if (expected.codes.length === 0) return t.skip('the operation documents no 404');
    const [user = ''] = idPrefixes(t.spec.schema('UserId') ?? {});
    const byId = await update(t, { user_id: `${user}${UNKNOWN_SUFFIX}` });
    const byEmail = await update(t, { email: `svc-contract-${t.config.runId}@example.invalid` });
    return { expected, byId, byEmail };
  },
  problems: ({ expected, byId, byEmail }) => [
    ...errorsOf(byId, expected, 'an unknown user_id'),
    ...errorsOf(byEmail, expected, 'an unknown email'),
  ],
});
