// Users: the team's members. GET /v2/api/users/{id} is addressed with a usr- id found in the list;
// reads.every-fixture reads each member the list (or the config) names.
import { listedCode } from '../expectations/expect.js';
import { need } from '../fixtures.js';
import type { Exchange } from '../http/exchange.js';
import { loadSpec } from '../spec.js';
import { readEachFixture } from './each-fixture.js';
import { contractOperation, rule } from './harness.js';
import { operationChecks } from './operation-checks.js';
import { errorsOf } from './problems.js';
import { removedMembers } from './support.js';

const GET = 'getUser';

operationChecks('listUsers', { baseline: () => ({}) });

operationChecks('getUser', {
  baseline: (_t, f) => ({
    params: { id: need(f.users[0], 'a user id (GET /v2/api/users listed none; or set fixtures.user_ids)') },
  }),
});

readEachFixture('getUser', { param: 'id', ids: (f) => f.users, what: 'users (GET /v2/api/users, fixtures.user_ids)' });

// "deleted: true when the mentioned user has since been removed from the team": a removed member is
// no team member, so reading it by id is "MEMBER_NOT_FOUND: no team member with this id". No operation
// removes one, so the removed ids come from the config (a sandbox names its own).
rule({
  id: 'users.removed-not-found',
  title: 'A member removed from the team is not found by id (MEMBER_NOT_FOUND)',
  source: 'NoteMention deleted: "removed from the team"; MEMBER_NOT_FOUND: "No team member with this id"',
  precondition: 'a member removed from the team (fixtures.removed_user_ids: no operation removes one)',
  operationId: GET,
  resource: loadSpec().resourceOf(contractOperation(GET)),
  needs: { stateful: true },
  requests: async (t) => {
    const removed = removedMembers(t);
    const reads: Array<{ id: string; exchange: Exchange }> = [];
    for (const id of removed) reads.push({ id, exchange: await t.call({ params: { id } }) });
    return reads;
  },
  problems: (reads, t) =>
    reads.flatMap(({ id, exchange }) =>
      errorsOf(
        exchange,
        { ...listedCode(t.spec, t.op(), 'MEMBER_NOT_FOUND'), why: `${id} was removed from the team` },
        `GET the removed member ${id}`,
      ),
    ),
  passed: (reads) => `${reads.map((r) => r.id).join(', ')}: not found`,
});
