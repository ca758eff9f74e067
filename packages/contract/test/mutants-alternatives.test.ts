// Mutants of a rule's other side: each alternative a rule allows (a label of digits alone, an update
// that sends no field), each form a refused input takes (an empty options list), each way a body
// names someone (an email of another team), and the details an error owes wherever it comes from
// (the unknown field's name, the parameter that was sent, the request id on a 429). Each is the
// sandbox broken in one way the description states, caught by name.
import { readFileSync } from 'node:fs';
import { afterAll, describe } from 'vitest';
import {
  isQueueWrite,
  itCatchesEachByName,
  itPassesEachAgainstTheSandbox,
  type Mutant,
  otherTeamKey,
  removeOutputs,
} from './support/mutants.js';
import { isAgent, isFieldUpdate } from './support/requests.js';
import { bodyOf, errorIn, json, type Mutation, type ProxiedRequest, type Target } from './support/servers.js';

afterAll(removeOutputs);

type Body = Record<string, unknown>;
const isAgentUpdate = (q: ProxiedRequest) => q.method === 'PATCH' && isAgent(q);
const withBody = (q: ProxiedRequest, body: Body): ProxiedRequest => ({ ...q, body: JSON.stringify(body) });

/** A server whose label rule asks for a letter: a label of digits alone is refused (sent on as one without any). */
const digitsOnlyLabelRefused: Mutation = {
  request: (q) => {
    const label = bodyOf(q).label;
    return isFieldUpdate(q) && typeof label === 'string' && /^[0-9]+$/.test(label)
      ? withBody(q, { ...bodyOf(q), label: '!!!' })
      : q;
  },
};

/** A server whose label rule refuses apostrophes ("Partner's seats"): sent on as a label without a letter, which it refuses. */
const apostropheLabelRefused: Mutation = {
  request: (q) => {
    const label = bodyOf(q).label;
    return isFieldUpdate(q) && typeof label === 'string' && /['\u2019]/.test(label)
      ? withBody(q, { ...bodyOf(q), label: '!!!' })
      : q;
  },
};

/** A server that reads an empty options list as none sent, on every type. */
const emptyOptionsIgnored: Mutation = {
  request: (q) => {
    const body = bodyOf(q);
    if (!isFieldUpdate(q) || !Array.isArray(body.options) || body.options.length > 0) return q;
    const { options: _dropped, ...rest } = body;
    return withBody(q, rest);
  },
};

/** A server that demands at least one field of a custom field update (sent on as a blank label, which it refuses). */
const emptyUpdateRefused: Mutation = {
  request: (q) => (isFieldUpdate(q) && q.body?.trim() === '{}' ? withBody(q, { label: ' ' }) : q),
};

/** The emails of the members of every team but the one of `key`, from the sandbox's seed. */
function otherTeamsEmails(key: string): Set<string> {
  const seed = JSON.parse(readFileSync(new URL('../../sandbox/fixtures/seed.json', import.meta.url), 'utf8')) as {
    keys: Array<{ key: string; team_id: string }>;
    teams: Array<{ id: string; users: Array<{ email: string }> }>;
  };
  const own = seed.keys.find((k) => k.key === key)?.team_id;
  return new Set(seed.teams.filter((t) => t.id !== own).flatMap((t) => t.users.map((u) => u.email)));
}

/** A server that looks a queue's teammate up by email in every team: another team's member's queue is changed. */
function queueOfAnyTeamByEmail(upstream: Target): Mutation {
  const foreign = otherTeamsEmails(upstream.apiKey);
  return {
    request: (q) => {
      const body = bodyOf(q);
      if (!isQueueWrite(q) || body.user_id !== undefined || !foreign.has(String(body.email))) return q;
      const headers = new Headers(q.headers);
      headers.set('authorization', `Api-Key ${otherTeamKey(upstream)}`);
      return { ...q, headers };
    },
  };
}

/** A server whose ASSIGNEE_NOT_FOUND always names user_id, though the teammate was looked up by email. */
const assigneeParamAlwaysUserId: Mutation = {
  response: (r, q) =>
    isQueueWrite(q) && r.status === 404
      ? json(r, (b) => {
          const error = errorIn(b);
          if (error) error.param = 'user_id';
        })
      : r,
};

/** A server whose UNKNOWN_FIELD message is one fixed sentence, naming no field. */
const unknownFieldUnnamed: Mutation = {
  response: (r, q) =>
    isAgentUpdate(q) && r.status === 400
      ? json(r, (b) => {
          const error = errorIn(b);
          if (error?.code === 'UNKNOWN_FIELD')
            error.message = 'The request body contains a field that is not supported.';
        })
      : r,
};

const ALTERNATIVES: Mutant[] = [
  {
    name: 'refuses a custom field label with an apostrophe',
    caughtBy: 'boundary.inside',
    only: ['updateCustomField'],
    allowWrites: true,
    mutation: apostropheLabelRefused,
  },
  {
    name: 'refuses a custom field label of digits alone',
    caughtBy: 'custom-fields.label-digits-only',
    only: ['custom-fields.label-digits-only'],
    allowWrites: true,
    mutation: digitsOnlyLabelRefused,
  },
  {
    name: 'ignores an empty options list on a field without options',
    caughtBy: 'custom-fields.options-not-supported',
    only: ['custom-fields.options-not-supported'],
    allowWrites: true,
    mutation: emptyOptionsIgnored,
  },
  {
    name: 'refuses a custom field update that sends no field',
    caughtBy: 'conformance.empty-update',
    only: ['updateCustomField'],
    allowWrites: true,
    mutation: emptyUpdateRefused,
  },
  {
    name: "changes another team's member's queue, named by email",
    caughtBy: 'tenants.other-teams-resource',
    only: ['tenants.other-teams-resource'],
    allowWrites: true,
    mutation: queueOfAnyTeamByEmail,
  },
  {
    name: 'names user_id in ASSIGNEE_NOT_FOUND for a teammate looked up by email',
    caughtBy: 'response.error-details',
    only: ['dialer-queues.unknown-assignee'],
    allowWrites: true,
    mutation: assigneeParamAlwaysUserId,
  },
  {
    name: 'names no field in the UNKNOWN_FIELD message',
    caughtBy: 'response.error-details',
    only: ['negative.unknown-field'],
    allowWrites: true,
    mutation: unknownFieldUnnamed,
  },
];

describe("mutants of a rule's other side: alternatives, forms, ways of naming, error details", () => {
  itCatchesEachByName(ALTERNATIVES);
  itPassesEachAgainstTheSandbox(ALTERNATIVES, { allowWrites: true });
});
