// Team members, tags and lines. Their fields are not shown; the sandbox uses the contract's examples.

import type { UserRecord } from '../store/model.js';
import { paginate } from '../support/pagination.js';
import { keyMayUseLine } from './common.js';
import { fail, type Handler, ok } from './types.js';

const renderUser = (u: UserRecord) => ({ id: u.id, name: u.name, email: u.email, role: u.role });

// Whether these lists are paged is not shown: one page holds them all (a team has few of each).
const ALL_IN_ONE_PAGE = 100;

export const listUsers: Handler = ({ team }) =>
  ok(paginate(team.users.filter((u) => !u.removed).map(renderUser), 1, ALL_IN_ONE_PAGE));

export const getUser: Handler = ({ team, params }) => {
  const user = team.users.find((u) => u.id === params.id && !u.removed);
  if (!user) return fail('MEMBER_NOT_FOUND', `No team member with id ${params.id}.`, { param: 'id' });
  return ok({ data: renderUser(user) });
};

export const listTags: Handler = ({ team }) => ok({ data: team.tags.map((t) => ({ name: t.name })) });

/** Only the lines the key may use: this is how a client learns which lines it can pass as svc_number. */
export const listNumbers: Handler = ({ team, key }) =>
  ok({
    data: team.lines
      .filter((l) => keyMayUseLine(key, l.number))
      .map((l) => ({ number: l.number, name: l.name, capabilities: l.capabilities })),
  });
