// "Creates or updates the config of the queue of the API key owner": a key of the team owned by
// another member than the run key's owner (its config entry names its owner, user_id) that names no
// teammate reaches its own owner's queue. A server that takes "the queue" to be the team's one,
// or the run key owner's, answers the queue another member owns. Then the run key renames that
// member's queue by user_id ("Teammate whose queue is changed"), and the member's own key reads the
// new name: a change made for a teammate is the teammate's queue, not a copy the other key keeps.
import type { Exchange } from '../http/exchange.js';
import type { ConfigKey } from '../types.js';
import { type CheckContext, type Problem, rule, statefulWrite } from './harness.js';
import { unless } from './problems.js';
import { asKey, data, ok, otherCallers, short } from './support.js';

const OP = 'upsertCurrentDialingQueue';

interface Renamed {
  name: string;
  /** The run key's update naming the member by user_id, the member's own key's empty update after it, the name put back. */
  renamed: Exchange;
  seen: Exchange;
  restored: Exchange;
}

interface KeyOwner {
  /** The run key's owner, as its empty update answered its queue. */
  owner: string;
  updates: Array<{ key: string; user: string; exchange: Exchange; renamed?: Renamed }>;
}

/** The member's queue renamed by the run key (user_id), read by the member's own key, its name put back. */
async function renameForMember(t: CheckContext, key: ConfigKey, own: Exchange): Promise<Renamed | undefined> {
  const was = data(own)?.name;
  if (!ok(own) || typeof was !== 'string') return undefined;
  const name = `${was} (svc-contract)`;
  const renamed = await t.call({ body: { user_id: key.user_id, name } }, {}, OP);
  const seen = await t.call({ body: {} }, asKey(key), OP);
  const restored = await t.call({ body: { user_id: key.user_id, name: was } }, {}, OP);
  return { name, renamed, seen, restored };
}

async function eachKeysOwnQueue(t: CheckContext): Promise<KeyOwner> {
  const mine = await t.call({ body: {} }, {}, OP);
  const owner = data(mine)?.assignee_id;
  if (!ok(mine) || typeof owner !== 'string')
    return t.skip(`reading the queue through an empty update gave no assignee_id (${mine.status})`);
  const updates: KeyOwner['updates'] = [];
  for (const key of otherCallers(t).filter((k) => k.user_id !== undefined && k.user_id !== owner)) {
    const exchange = await t.call({ body: {} }, asKey(key), OP);
    const renamed = await renameForMember(t, key, exchange);
    updates.push({ key: key.name, user: key.user_id as string, exchange, ...(renamed ? { renamed } : {}) });
  }
  return { owner, updates };
}

/** The name the run key gave the member's queue, as the member's own key reads it; the old one put back. */
function renamedProblems(key: string, user: string, r: Renamed | undefined): Problem[] {
  if (!r || !ok(r.renamed)) return [];
  return [
    ...unless(
      ok(r.seen) && data(r.seen)?.name === r.name,
      `${user}'s queue renamed ${short(r.name)} by the run key (user_id ${user}): key "${key}" (owned by ${user}) reads the name ${short(data(r.seen)?.name)} (${r.seen.status})`,
      r.seen,
    ),
    ...unless(ok(r.restored), `putting the name of ${user}'s queue back failed (${r.restored.status})`, r.restored),
  ];
}

function keyOwnerProblems({ updates }: KeyOwner): Problem[] {
  return updates.flatMap(({ key, user, exchange, renamed }) => [
    ...ownQueueProblems(key, user, exchange),
    ...renamedProblems(key, user, renamed),
  ]);
}

function ownQueueProblems(key: string, user: string, exchange: Exchange): Problem[] {
  if (!ok(exchange))
    return [
      {
        message: `key "${key}" (owned by ${user}), naming no teammate: expected 200, got ${exchange.status}`,
        exchange,
      },
    ];
  const assignee = data(exchange)?.assignee_id;
  return unless(
    assignee === user,
    `key "${key}" (owned by ${user}), naming no teammate, got the queue of ${short(assignee)}, not its owner's`,
    exchange,
  );
}

rule({
  id: 'dialer-queues.key-owner',
  title:
    "Each key's update naming no teammate reaches its own owner's queue, whoever owns the run key; that owner's queue renamed by the run key (user_id) reads renamed through the owner's own key",
  source: 'PATCH /v2/api/dialing-queues/current: "creates or updates the config of the queue of the API key owner"',
  precondition:
    "another key of the team that may write the queue whose owner (its config entry's user_id) is not the run key's owner, sending an empty update; then its owner's queue renamed by the run key naming that user_id (the name put back after)",
  ...statefulWrite(OP),
  requests: eachKeysOwnQueue,
  problems: keyOwnerProblems,
  notReached: ({ updates }) =>
    updates.length > 0
      ? undefined
      : "no other key of the team that may write the queue names an owner (user_id) other than the run key's",
  passed: ({ updates }) => updates.map((u) => `key "${u.key}": ${u.user}'s queue`).join('; '),
});
