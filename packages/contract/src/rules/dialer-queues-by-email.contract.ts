// The dialer queue of a teammate named by email alone: "email: Teammate's email; used only when
// user_id is absent". The check reaches the state where the email matters: a teammate other than
// the key's owner (whose queue a server ignoring the email would answer), named by email only.
import { isObject } from '@svc/spec-runtime';
import type { Exchange } from '../http/exchange.js';
import { type CheckContext, type Problem, rule, statefulWrite } from './harness.js';
import { unless } from './problems.js';
import { data, ok, short } from './support.js';

const OP = 'upsertCurrentDialingQueue';

interface Teammate {
  email: string;
  /** Known where the user list shows the teammate's id beside the email (its shape is not shown). */
  id?: string;
  from: string;
}

interface ByEmail {
  owner: string;
  teammate: Teammate;
  exchange: Exchange;
}

/** Teammates with an email, from the config first, then the user list where its entries show one. */
async function teammates(t: CheckContext): Promise<Teammate[]> {
  const configured = (t.config.config.fixtures.teammate_emails ?? []).map((email) => ({
    email,
    from: 'fixtures.teammate_emails',
  }));
  const listed = await t.call({}, {}, 'listUsers');
  const entries = isObject(listed.body) && Array.isArray(listed.body.data) ? listed.body.data : [];
  const shown = entries.flatMap((u) =>
    isObject(u) && typeof u.email === 'string' && u.email !== '' && typeof u.id === 'string'
      ? [{ email: u.email, id: u.id, from: 'GET /v2/api/users' }]
      : [],
  );
  return [...configured, ...shown];
}

async function sendByEmail(t: CheckContext): Promise<ByEmail> {
  const before = await t.call({ body: {} }, {}, OP);
  const owner = data(before)?.assignee_id;
  if (!ok(before) || typeof owner !== 'string')
    return t.skip(`reading the queue through an empty update gave no assignee_id (${before.status})`);
  const teammate = (await teammates(t)).find((m) => m.id !== owner);
  if (!teammate)
    return t.skip(
      `no teammate other than the key's owner with a known email: GET /v2/api/users shows none (its shape is not shown); name one in fixtures.teammate_emails`,
      'config',
    );
  return { owner, teammate, exchange: await t.call({ body: { email: teammate.email } }, {}, OP) };
}

function byEmailProblems({ owner, teammate, exchange }: ByEmail): Problem[] {
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
  title: "A teammate's email sent without user_id selects that teammate's queue",
  source:
    'UpdateDialingQueueRequest email: "Optional. Teammate\'s email; used only when user_id is absent." (PATCH /v2/api/dialing-queues/current)',
  enforces: ['x-svc-input-rules precedence user_id, email'],
  precondition:
    "a teammate other than the key's owner, named by email alone (fixtures.teammate_emails, or GET /v2/api/users where its entries show emails)",
  ...statefulWrite(OP),
  requests: sendByEmail,
  problems: byEmailProblems,
  passed: ({ teammate, exchange }) =>
    `email ${teammate.email} (${teammate.from}): the queue of ${short(data(exchange)?.assignee_id)}`,
});

interface ByDefault {
  owner: string;
  /** Each way of naming a teammate, the update naming it, and the update after it that names no one. */
  rounds: Array<{ named: string; targeted: Exchange; untargeted: Exchange }>;
}

async function ownerAfterTeammate(t: CheckContext): Promise<ByDefault> {
  const before = await t.call({ body: {} }, {}, OP);
  const owner = data(before)?.assignee_id;
  if (!ok(before) || typeof owner !== 'string')
    return t.skip(`reading the queue through an empty update gave no assignee_id (${before.status})`);
  const byId = (await t.fixtures()).users.find((id) => id !== owner);
  const byEmail = (await teammates(t)).find((m) => m.id !== owner);
  const targets: Array<[string, Record<string, string>]> = [
    ...(byId ? ([[`user_id ${byId}`, { user_id: byId }]] as Array<[string, Record<string, string>]>) : []),
    ...(byEmail
      ? ([[`email ${byEmail.email}`, { email: byEmail.email }]] as Array<[string, Record<string, string>]>)
      : []),
  ];
  if (targets.length === 0)
    return t.skip(
      "no teammate other than the key's owner is known (GET /v2/api/users, fixtures.teammate_emails)",
      'config',
    );
  const rounds: ByDefault['rounds'] = [];
  for (const [named, body] of targets)
    rounds.push({
      named,
      targeted: await t.call({ body }, {}, OP),
      untargeted: await t.call({ body: {} }, {}, OP),
    });
  return { owner, rounds };
}

function ownerAfterTeammateProblems({ owner, rounds }: ByDefault): Problem[] {
  return rounds.flatMap(({ named, targeted, untargeted }) =>
    ok(targeted)
      ? unless(
          ok(untargeted) && data(untargeted)?.assignee_id === owner,
          `an update naming no teammate, sent after one naming ${named}: expected the key owner's queue (${owner}), got ${untargeted.status} assignee_id ${short(data(untargeted)?.assignee_id)}`,
          untargeted,
        )
      : [],
  );
}

// "Creates or updates the config of the queue of the API key owner": an update that names no
// teammate is the owner's, whatever the key named before (a server may remember the last target).
rule({
  id: 'dialer-queues.owner-by-default',
  title: "An update naming no teammate changes the key owner's queue, also right after one that named a teammate",
  source:
    'PATCH /v2/api/dialing-queues/current: "creates or updates the config of the queue of the API key owner"; user_id: "Optional. Teammate whose queue is changed"',
  precondition:
    "a teammate other than the key's owner (GET /v2/api/users; by email: fixtures.teammate_emails or the list), named by user_id, then by email, each followed by an empty update",
  ...statefulWrite(OP),
  requests: ownerAfterTeammate,
  problems: ownerAfterTeammateProblems,
  passed: ({ owner, rounds }) => `after ${rounds.map((r) => r.named).join(' and after ')}: ${owner}'s queue`,
});
