// The dialer queue of a teammate named by email alone: "email: Teammate's email; used only when
// user_id is absent". The check reaches the state where the email matters: a teammate other than
// the key's owner (whose queue a server ignoring the email would answer), named by email only.
// (dialer-queues.owner-by-default, which renames the owner's queue, is declared in
// dialer-queues.contract.ts, after the checks that must see the queue as found.)
import type { Exchange } from '../http/exchange.js';
import { type CheckContext, type Problem, rule, statefulWrite } from './harness.js';
import { unless } from './problems.js';
import { data, ok, short, type Teammate, teammates } from './support.js';

const OP = 'upsertCurrentDialingQueue';

interface ByEmail {
  owner: string;
  teammate: Teammate;
  exchange: Exchange;
  /** The key owner's queue before; the teammate's renamed by email; the owner's read again after; the name put back. */
  before: Exchange;
  renamed?: { name: string; exchange: Exchange; ownAfter: Exchange; restored: Exchange };
}

/**
 * The teammate's queue renamed by email, then the key owner's read again: "the queue of the API
 * key owner" is the one a request naming no teammate changes, so a change aimed at the teammate
 * leaves it as it was. The teammate's name is put back after.
 */
async function renameByEmail(t: CheckContext, email: string, found: Exchange): Promise<ByEmail['renamed']> {
  const was = data(found)?.name;
  if (!ok(found) || typeof was !== 'string') return undefined;
  const name = `svc-contract queue ${t.config.runId}`;
  const exchange = await t.call({ body: { email, name } }, {}, OP);
  const ownAfter = await t.call({ body: {} }, {}, OP);
  const restored = await t.call({ body: { email, name: was } }, {}, OP);
  return { name, exchange, ownAfter, restored };
}

async function sendByEmail(t: CheckContext): Promise<ByEmail> {
  const before = await t.call({ body: {} }, {}, OP);
  const owner = data(before)?.assignee_id;
  if (!ok(before) || typeof owner !== 'string')
    return t.skip(`reading the queue through an empty update gave no assignee_id (${before.status})`);
  const teammate = (await teammates(t)).find((m) => m.id !== owner);
  if (!teammate)
    return t.skip(
      `no teammate other than the key's owner with a known email: neither GET /v2/api/users nor a user read by id shows one (their shape is not shown); name one in fixtures.teammate_emails`,
      'config',
    );
  const exchange = await t.call({ body: { email: teammate.email } }, {}, OP);
  const renamed = await renameByEmail(t, teammate.email, exchange);
  return { owner, teammate, exchange, before, ...(renamed ? { renamed } : {}) };
}

/** The key owner's queue name after the teammate's was changed by email: as it was before. */
function ownQueueProblems({ teammate, before, renamed }: ByEmail): Problem[] {
  if (!renamed || !ok(renamed.exchange) || !ok(renamed.ownAfter)) return [];
  const [was, now] = [data(before)?.name, data(renamed.ownAfter)?.name];
  return [
    ...unless(
      now === was,
      `renaming the queue of ${teammate.email} (named by email) to ${short(renamed.name)} changed the key owner's queue name too: ${short(was)} → ${short(now)}`,
      renamed.ownAfter,
    ),
    ...unless(
      ok(renamed.restored),
      `putting the name of ${teammate.email}'s queue back failed (${renamed.restored.status})`,
      renamed.restored,
    ),
  ];
}

function byEmailProblems(s: ByEmail): Problem[] {
  return [...selectedProblems(s), ...ownQueueProblems(s)];
}

function selectedProblems({ owner, teammate, exchange }: ByEmail): Problem[] {
  const assignee = data(exchange)?.assignee_id;
  const named = `email ${teammate.email} (${teammate.from}) alone`;
  if (!ok(exchange))
    return [{ message: `${named}: expected 200 with that teammate's queue, got ${exchange.status}`, exchange }];
  if (teammate.id !== undefined && assignee !== teammate.id)
    return [
      { message: `${named}: expected the queue of ${teammate.id}, got assignee_id ${short(assignee)}`, exchange },
    ];
  if (assignee === owner)
    return [{ message: `${named}: answered the key owner's queue (${owner}): the email was not used`, exchange }];
  return [];
}

rule({
  id: 'dialer-queues.by-email',
  title:
    "A teammate's email sent without user_id selects that teammate's queue, and a change sent so leaves the key owner's queue as it was",
  source:
    'UpdateDialingQueueRequest email: "Optional. Teammate\'s email; used only when user_id is absent." (PATCH /v2/api/dialing-queues/current)',
  enforces: ['x-svc-input-rules precedence user_id, email'],
  precondition:
    "a teammate other than the key's owner, named by email alone (fixtures.teammate_emails, or GET /v2/api/users where its entries show emails, else each user read by id); then named with a new queue name, the key owner's queue read again (its name put back after)",
  ...statefulWrite(OP),
  requests: sendByEmail,
  problems: byEmailProblems,
  passed: ({ teammate, exchange }) =>
    `email ${teammate.email} (${teammate.from}): the queue of ${short(data(exchange)?.assignee_id)}`,
});
