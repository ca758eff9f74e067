// Mutants of rules crossed only with another team's key or a second key of the team (issue 34:
// "never crossed"), from held-out broken servers that passed the suite: each a sandbox broken in
// one way the description states, caught by name. And controls where the description leaves an
// order or a shape open: the checks that used to lean on one reading pass.
import { afterAll, describe, expect, it } from 'vitest';
import {
  isOtherTeam,
  itCatchesEachByName,
  type Mutant,
  mainKey,
  otherTeamKey,
  removeOutputs,
  runAgainst,
  swapKey,
} from './support/mutants.js';
import { json, type Mutation, mutatingProxy, pathOf, sandbox, type Target } from './support/servers.js';

afterAll(removeOutputs);

/** The contact of the seed's second team (Bayside Veterinary) that the first team has no conversation with. */
const OTHER_TEAMS_CONTACT = '+16175550188';

/**
 * A server whose thread lookup by item falls through to every team: another team's key finds the
 * team's thread. The old check looked up, with that key, an item that has no thread.
 */
const lookupAcrossTeams = swapKey(isOtherTeam, mainKey, (q) => q.method === 'GET' && pathOf(q) === '/v2/api/threads');

/**
 * A server that applies a conversation action without svc_number by contact number across every
 * team: the run key's action on a contact only another team holds changes that team's conversation.
 */
function actionAcrossTeams(upstream: Target): Mutation {
  return {
    request: (q) => {
      const acted =
        q.method === 'PUT' && pathOf(q) === `/v2/api/conversations/${encodeURIComponent(OTHER_TEAMS_CONTACT)}/action`;
      if (!acted || q.headers.get('authorization') !== `Api-Key ${upstream.apiKey}`) return q;
      const headers = new Headers(q.headers);
      headers.set('authorization', `Api-Key ${otherTeamKey(upstream)}`);
      return { ...q, headers };
    },
  };
}

/**
 * A server that keeps a template's deactivation per key: another key of the team deletes it again
 * (204). The old check deleted it again with the run key only.
 */
function deactivationPerKey(): Mutation {
  const deactivatedBy = new Map<string, string>();
  return {
    response: (r, q) => {
      const path = pathOf(q);
      if (q.method !== 'DELETE' || !path.startsWith('/v2/api/summary_templates/')) return r;
      const auth = q.headers.get('authorization') ?? '';
      if (r.status === 204 && !deactivatedBy.has(path)) deactivatedBy.set(path, auth);
      const by = deactivatedBy.get(path);
      return r.status === 404 && by !== undefined && by !== auth
        ? { status: 204, headers: new Headers(r.headers), body: '' }
        : r;
    },
  };
}

const CROSSED: Mutant[] = [
  {
    name: "finds the team's thread by its item for another team's key",
    caughtBy: 'tenants.other-team',
    only: ['findThread'],
    mutation: lookupAcrossTeams,
  },
  {
    name: "applies the run key's action on a contact only another team holds to that team's conversation",
    caughtBy: 'tenants.action-by-contact',
    only: ['tenants.action-by-contact'],
    allowWrites: true,
    mutation: actionAcrossTeams,
  },
  {
    name: 'keeps a template deactivated for the key that deleted it only',
    caughtBy: 'summary-templates.delete',
    only: ['summary-templates.delete'],
    allowWrites: true,
    mutation: deactivationPerKey,
  },
];

describe("rules crossed with another team's key or another key of the team: each mutant caught by name", () => {
  itCatchesEachByName(CROSSED);
});

/** Runs `only` through the sandbox behind `mutation`: nothing fails, no run error, each named check passed. */
async function expectPasses(mutation: Mutation, only: string[], checks: string[]) {
  const upstream = await sandbox();
  const proxy = await mutatingProxy(upstream, mutation);
  try {
    const { result, failed } = await runAgainst(proxy, { name: 'control', caughtBy: '', only, allowWrites: true });
    expect(failed).toEqual([]);
    expect(result.exitCode).toBe(0);
    const statuses = result.report.operations.flatMap((op) => op.checks).filter((c) => checks.includes(c.id));
    expect(statuses.map((c) => c.status)).toEqual(checks.map(() => 'passed'));
  } finally {
    await proxy.close();
    await upstream.close();
  }
}

describe('controls: an order or a shape the description does not state', () => {
  it('the line list in another order: the receptionist checks reach the same configuration, every input sent', async () => {
    const reversed: Mutation = {
      response: (r, q) =>
        q.method === 'GET' && pathOf(q) === '/v2/api/numbers'
          ? json(r, (b) => {
              if (Array.isArray(b.data)) b.data.reverse();
            })
          : r,
    };
    await expectPasses(reversed, ['updateReceptionist', 'receptionist.large-value'], ['receptionist.large-value']);
  });

  it('tag list entries that show no name: the tags of one item are checked with tags of the run', async () => {
    const nameless: Mutation = {
      response: (r, q) =>
        q.method === 'GET' && pathOf(q) === '/v2/api/tags'
          ? json(r, (b) => {
              if (Array.isArray(b.data)) b.data = b.data.map(() => ({}));
            })
          : r,
    };
    await expectPasses(nameless, ['tags.per-item'], ['tags.per-item']);
  });
});
