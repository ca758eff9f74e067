// Mutants of the person update, reached only through the update the config declares
// (fixtures.person_update): held-out broken servers passed the suite while it sent no update meant
// to succeed. Each is the sandbox broken in one way the description states, caught by name.
import { afterAll, describe } from 'vitest';
import {
  itCatchesEachByName,
  itPassesEachAgainstTheSandbox,
  keepsFirstAnswers,
  type Mutant,
  reappliesKeyedWrites,
  removeOutputs,
  withHeader,
} from './support/mutants.js';
import { type Mutation, type ProxiedRequest, pathOf } from './support/servers.js';

afterAll(removeOutputs);

const isPersonUpdate = (q: ProxiedRequest) => q.method === 'PUT' && pathOf(q).startsWith('/v2/api/crm/people/');
const isPeopleSearch = (q: ProxiedRequest) => q.method === 'POST' && pathOf(q) === '/v2/api/crm/people/search';
const isDealRead = (q: ProxiedRequest) => q.method === 'GET' && pathOf(q).startsWith('/v2/api/crm/deals/');

/** A server that marks every keyed person update replayed, the first one too. */
const firstMarkedReplayed: Mutation = {
  response: (r, q) =>
    isPersonUpdate(q) && q.headers.has('idempotency-key') && r.status < 300
      ? withHeader(r, 'idempotency-replayed', 'true')
      : r,
};

const PEOPLE: Mutant[] = [
  {
    name: 'marks the first keyed person update replayed',
    caughtBy: 'idempotency.replay',
    only: ['updatePerson'],
    allowWrites: true,
    mutation: firstMarkedReplayed,
  },
  {
    name: "answers another key's people search as it first answered it (a cache per key)",
    caughtBy: 'people.update-shown',
    only: ['people.update-shown'],
    allowWrites: true,
    mutation: keepsFirstAnswers(isPeopleSearch, false),
  },
  {
    name: "shows a deal's person with the names it had when the deal was first read",
    caughtBy: 'people.update-shown',
    only: ['people.update-shown'],
    allowWrites: true,
    mutation: keepsFirstAnswers(isDealRead, true),
  },
  {
    name: 'applies a keyed person update again on each repeat of its key, marked replayed',
    caughtBy: 'people.replay-not-rerun',
    only: ['people.replay-not-rerun'],
    allowWrites: true,
    mutation: reappliesKeyedWrites(isPersonUpdate),
  },
];

describe('the declared person update (fixtures.person_update): each mutant caught by name', () => {
  itCatchesEachByName(PEOPLE);
  itPassesEachAgainstTheSandbox(PEOPLE);
});
