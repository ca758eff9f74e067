// Mutants of the person update, reached only through the update the config declares
// (fixtures.person_update): held-out broken servers passed the suite while it sent no update meant
// to succeed. Each is the sandbox broken in one way the description states, caught by name.
import { afterAll, describe } from 'vitest';
import { itCatchesEachByName, itPassesEachAgainstTheSandbox, type Mutant, removeOutputs } from './support/mutants.js';
import { type Mutation, type ProxiedRequest, type ProxiedResponse, pathOf, type Target } from './support/servers.js';

afterAll(removeOutputs);

const isPersonUpdate = (q: ProxiedRequest) => q.method === 'PUT' && pathOf(q).startsWith('/v2/api/crm/people/');
const isPeopleSearch = (q: ProxiedRequest) => q.method === 'POST' && pathOf(q) === '/v2/api/crm/people/search';
const isDealRead = (q: ProxiedRequest) => q.method === 'GET' && pathOf(q).startsWith('/v2/api/crm/deals/');

const withHeader = (r: ProxiedResponse, name: string, value: string): ProxiedResponse => {
  const headers = new Headers(r.headers);
  headers.set(name, value);
  return { ...r, headers };
};

/** A server that marks every keyed person update replayed, the first one too. */
const firstMarkedReplayed: Mutation = {
  response: (r, q) =>
    isPersonUpdate(q) && q.headers.has('idempotency-key') && r.status < 300
      ? withHeader(r, 'idempotency-replayed', 'true')
      : r,
};

/** Answers the requests `which` picks, by the key and request sent, as they were first answered (the run key's only where `alsoRunKey`). */
function keepsFirstAnswers(which: (q: ProxiedRequest) => boolean, alsoRunKey: boolean): (upstream: Target) => Mutation {
  return (upstream) => {
    const first = new Map<string, ProxiedResponse>();
    return {
      response: (r, q) => {
        const key = q.headers.get('authorization') ?? '';
        if (!which(q) || r.status >= 300 || (!alsoRunKey && key === `Api-Key ${upstream.apiKey}`)) return r;
        const seen = `${key} ${q.path} ${q.body ?? ''}`;
        const kept = first.get(seen);
        if (kept) return kept;
        first.set(seen, r);
        return r;
      },
    };
  };
}

/**
 * A server that applies a keyed person update again on every repeat of its key, and marks the
 * answer replayed: the answer is the person as the update leaves it, whatever happened between.
 */
function reappliesKeyedUpdates(): Mutation {
  const used = new Set<string>();
  return {
    request: (q) => {
      const key = q.headers.get('idempotency-key');
      if (!isPersonUpdate(q) || key === null) return q;
      if (!used.has(key)) {
        used.add(key);
        return q;
      }
      const headers = new Headers(q.headers);
      headers.delete('idempotency-key');
      headers.set('x-svc-reapplied', key);
      return { ...q, headers };
    },
    response: (r, q) => {
      const key = q.headers.get('x-svc-reapplied');
      return key === null ? r : withHeader(withHeader(r, 'idempotency-key', key), 'idempotency-replayed', 'true');
    },
  };
}

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
    mutation: reappliesKeyedUpdates,
  },
];

describe('the declared person update (fixtures.person_update): each mutant caught by name', () => {
  itCatchesEachByName(PEOPLE);
  itPassesEachAgainstTheSandbox(PEOPLE);
});
