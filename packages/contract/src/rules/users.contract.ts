// Users: the team's members. GET /v2/api/users/{id} is addressed with a usr- id found in the list;
// reads.every-fixture reads each member the list (or the config) names.
import { need } from '../fixtures.js';
import { readEachFixture } from './each-fixture.js';
import { operationChecks } from './operation-checks.js';

operationChecks('listUsers', { baseline: () => ({}) });

operationChecks('getUser', {
  baseline: (_t, f) => ({
    params: { id: need(f.users[0], 'a user id (GET /v2/api/users listed none; or set fixtures.user_ids)') },
  }),
});

readEachFixture('getUser', { param: 'id', ids: (f) => f.users, what: 'users (GET /v2/api/users, fixtures.user_ids)' });
