// PATCH /v2/api/dialing-queues/current: creates or updates the dialer queue of the key's owner,
// or of a teammate named by user_id (which wins) or, when user_id is absent, by email.
import { randomBytes } from 'node:crypto';
import type { DialingQueueRecord } from '../store/model.js';
import { fail, type Handler, ok } from './types.js';

export const upsertCurrentDialingQueue: Handler = ({ team, key, body, now }) => {
  let assigneeId = key.owner_user_id;
  if (typeof body.user_id === 'string') {
    const user = team.users.find((u) => u.id === body.user_id && !u.removed);
    if (!user)
      return fail('ASSIGNEE_NOT_FOUND', `No teammate with id ${body.user_id} in this team.`, { param: 'user_id' });
    assigneeId = user.id;
  } else if (typeof body.email === 'string') {
    const email = body.email.toLowerCase();
    const user = team.users.find((u) => u.email.toLowerCase() === email && !u.removed);
    if (!user)
      return fail('ASSIGNEE_NOT_FOUND', `No teammate with email ${body.email} in this team.`, { param: 'email' });
    assigneeId = user.id;
  }
  const at = now();
  let queue = team.dialing_queues.find((q) => q.assignee_id === assigneeId);
  if (!queue) {
    // The values a new queue takes for fields not sent are not shown; these are the sandbox's.
    const owner = team.users.find((u) => u.id === assigneeId);
    queue = {
      // Lower-case hex: the API shows queue ids without a prefix.
      id: randomBytes(8).toString('hex'),
      name: `${owner?.name ?? 'Team member'}'s queue`,
      creator_id: key.owner_user_id,
      assignee_id: assigneeId,
      voicemail_handling: 'NO_SKIP',
      do_not_disturb: 'DISABLED',
      numbers: [],
      created_at: at,
      updated_at: at,
    };
    team.dialing_queues.push(queue);
  }
  if (typeof body.name === 'string') queue.name = body.name;
  if (typeof body.voicemail_handling === 'string')
    queue.voicemail_handling = body.voicemail_handling as DialingQueueRecord['voicemail_handling'];
  if (typeof body.do_not_disturb === 'string')
    queue.do_not_disturb = body.do_not_disturb as DialingQueueRecord['do_not_disturb'];
  queue.updated_at = at;
  return ok({ data: queue });
};
