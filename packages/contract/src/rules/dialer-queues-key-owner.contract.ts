// "Creates or updates the config of the queue of the API key owner": a key of the team owned by
// another member than the run key's owner (its config entry names its owner, user_id) that names no
// teammate reaches its own owner's queue. A server that takes "the queue" to be the team's one,
// or the run key owner's, answers the queue another member owns.
import type { Exchange } from '../http/exchange.js';
import { type CheckContext, type Problem, rule, statefulWrite } from './harness.js';
import { asKey, data, ok, otherCallers, short } from './support.js';

const OP = 'upsertCurrentDialingQueue';

interface KeyOwner {
  /** The run key's owner, as its empty update answered its queue. */
  owner: string;
  updates: Array<{ key: string; user: string; exchange: Exchange }>;
}

async function eachKeysOwnQueue(t: CheckContext): Promise<KeyOwner> {
  const mine = await t.call({ body: {} }, {}, OP);
  const owner = data(mine)?.assignee_id;
  if (!ok(mine) || typeof owner !== 'string')
    return t.skip(`reading the queue through an empty update gave no assignee_id (${mine.status})`);
  const updates: KeyOwner['updates'] = [];
  for (const key of otherCallers(t).filter((k) => k.user_id !== undefined && k.user_id !== owner))
    updates.push({
      key: key.name,
      user: key.user_id as string,
      exchange: await t.call({ body: {} }, asKey(key), OP),
    });
  return { owner, updates };
}

function keyOwnerProblems({ updates }: KeyOwner): Problem[] {
  return updates.flatMap(({ key, user, exchange }) => {
    if (!ok(exchange))
      return [
        {
          message: `key "${key}" (owned by ${user}), naming no teammate: expected 200, got ${exchange.status}`,
          exchange,
        },
      ];
    const assignee = data(exchange)?.assignee_id;
    return assignee === user
      ? []
      : [
          {
            message: `key "${key}" (owned by ${user}), naming no teammate, got the queue of ${short(assignee)}, not its owner's`,
            exchange,
          },
        ];
  });
}

rule({
  id: 'dialer-queues.key-owner',
  title: "Each key's update naming no teammate reaches its own owner's queue, whoever owns the run key",
  source: 'PATCH /v2/api/dialing-queues/current: "creates or updates the config of the queue of the API key owner"',
  precondition:
    "another key of the team that may write the queue whose owner (its config entry's user_id) is not the run key's owner, sending an empty update",
  ...statefulWrite(OP),
  requests: eachKeysOwnQueue,
  problems: keyOwnerProblems,
  notReached: ({ updates }) =>
    updates.length > 0
      ? undefined
      : "no other key of the team that may write the queue names an owner (user_id) other than the run key's",
  passed: ({ updates }) => updates.map((u) => `key "${u.key}": ${u.user}'s queue`).join('; '),
});
