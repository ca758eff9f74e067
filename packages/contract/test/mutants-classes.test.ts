// Mutants of the classes broken servers still got past (issue 34: preconditions reached, meaning
// no schema states), each breaking its class somewhere other than the server that showed it: a
// write let through for a read key of the same resource, another team's list carrying the team's
// custom field, a phone number not in E.164 where only a read of every note reaches it, a call
// with several completed summaries answered with another error, summaries gone after a template
// DELETE, the first comment's mentions naming users by a bare id, a lookup answering another item's
// thread. Each is caught by name, and the same subsets pass against the sandbox itself.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSeedFile } from '@svc/sandbox';
import { afterAll, describe, expect, it } from 'vitest';
import { itCatchesEachByName, type Mutant, removeOutputs, runAgainst } from './support/mutants.js';
import { json, type Mutation, type ProxiedRequest, pathOf, sandbox, type Target } from './support/servers.js';

afterAll(removeOutputs);

const queryOf = (q: ProxiedRequest) => new URLSearchParams(q.path.split('?')[1] ?? '');
const keyOf = (upstream: Target, q: ProxiedRequest) =>
  upstream.config.keys.find((k) => q.headers.get('authorization') === `Api-Key ${k.key}`);

/**
 * Checks the resource a scope names on custom field updates, not reading against writing, and only
 * for keys holding more than one scope: a key holding CRM_READ and another scope updates fields.
 */
function readKeysUpdateFields(upstream: Target): Mutation {
  return {
    request: (q) => {
      const key = keyOf(upstream, q);
      const held = key?.scopes ?? [];
      if (q.method !== 'PATCH' || !pathOf(q).startsWith('/v2/api/crm/attributes/')) return q;
      if (!held.includes('CRM_READ') || held.includes('CRM_WRITE') || held.length < 2) return q;
      const headers = new Headers(q.headers);
      headers.set('authorization', `Api-Key ${upstream.apiKey}`);
      return { ...q, headers };
    },
  };
}

/** The team's last live custom field as the seed holds it (key, label, type: what its list shows). */
function aTeamField(): Record<string, unknown> {
  const [team] = loadSeedFile().teams;
  const field = team?.custom_fields?.filter((f) => !f.deleted).at(-1);
  if (!field) throw new Error('The seed has no custom field.');
  return { key: field.key, label: field.label, type: field.type };
}

/** Another team's custom field list carries one of the team's fields (its total count unchanged). */
function otherTeamSeesAField(upstream: Target): Mutation {
  const field = aTeamField();
  return {
    response: (r, q) =>
      q.method === 'GET' &&
      pathOf(q) === '/v2/api/crm/attributes' &&
      r.status === 200 &&
      keyOf(upstream, q)?.kind === 'other-team'
        ? json(r, (b) => {
            (b.data as unknown[]).push(field);
          })
        : r,
  };
}

/** A note read by id shows its line in a display form ("+44-20-7183-8700") when the line is not a US one. */
const notesLineWithDashes: Mutation = {
  response: (r, q) =>
    q.method === 'GET' && pathOf(q).startsWith('/v2/api/conversations/notes/') && r.status === 200
      ? json(r, (b) => {
          const note = b.data as Record<string, unknown>;
          const line = note.svc_number;
          if (typeof line === 'string' && !line.startsWith('+1'))
            note.svc_number = `${line.slice(0, 3)}-${line.slice(3, 5)}-${line.slice(5, 9)}-${line.slice(9)}`;
        })
      : r,
};

/** A call with several completed summaries, read without template_key: 404 SUMMARY_TEMPLATE_NOT_FOUND instead of the 400. */
const severalSummariesNotFound: Mutation = {
  response: (r) =>
    r.status === 400 && r.body.includes('SUMMARY_TEMPLATE_KEY_REQUIRED')
      ? json({ ...r, status: 404 }, (b) => {
          const error = b.error as Record<string, unknown>;
          Object.assign(error, { type: 'not_found_error', code: 'SUMMARY_TEMPLATE_NOT_FOUND', param: undefined });
          delete error.suggestion;
        })
      : r,
};

/** Once a template is deactivated, every item read selecting a summary answers 404 (summaries of every template dropped). */
function forgetsSummariesAfterDelete(): Mutation {
  let deleted = false;
  return {
    response: (r, q) => {
      if (q.method === 'DELETE' && pathOf(q).startsWith('/v2/api/summary_templates/') && r.status === 204)
        deleted = true;
      const selects = q.method === 'GET' && pathOf(q).startsWith('/v2/api/conversations/items/');
      if (!deleted || !selects || !queryOf(q).has('template_key') || r.status !== 200) return r;
      return json({ ...r, status: 404 }, (b) => {
        delete b.data;
        const message = `No completed summary for ${queryOf(q).get('template_key')}.`;
        b.error = { type: 'not_found_error', code: 'SUMMARY_TEMPLATE_NOT_FOUND', message, retryable: false };
        (b.error as Record<string, unknown>).request_id = r.headers.get('x-request-id');
      });
    },
  };
}

/** A new thread's first comment lists each user mentioned by the bare id of the syntax, without its usr- prefix. */
const firstCommentMentionsBareIds: Mutation = {
  response: (r, q) =>
    q.method === 'POST' && pathOf(q) === '/v2/api/threads' && r.status === 201
      ? json(r, (b) => {
          const comments = (b.data as { comments?: Array<Record<string, unknown>> }).comments ?? [];
          for (const c of comments)
            if (Array.isArray(c.mentions))
              c.mentions = c.mentions.map((m: Record<string, unknown>) => ({
                ...m,
                user_id: String(m.user_id).replace(/^usr-/, ''),
              }));
        })
      : r,
};

/** The lookup of a thread by its item answers the first thread it ever answered, for an item with none. */
function lookupFallsBack(): Mutation {
  let first: unknown;
  return {
    response: (r, q) => {
      if (q.method !== 'GET' || pathOf(q) !== '/v2/api/threads' || r.status !== 200) return r;
      return json(r, (b) => {
        if (b.data !== null && first === undefined) first = b.data;
        else if (b.data === null && first !== undefined) b.data = first;
      });
    },
  };
}

const CLASSES: Mutant[] = [
  {
    name: 'lets a key holding CRM_READ and another scope update custom fields',
    caughtBy: 'auth.insufficient-scope',
    only: ['auth.insufficient-scope'],
    // The update is a write: its scope checks run with writes allowed.
    allowWrites: true,
    mutation: readKeysUpdateFields,
  },
  {
    name: "lists one of the team's custom fields to another team's key",
    caughtBy: 'tenants.other-team',
    only: ['tenants.other-team'],
    mutation: otherTeamSeesAField,
  },
  {
    name: 'shows the line of a note outside the US with dashes, on reads by id only',
    caughtBy: 'response.schema',
    only: ['reads.every-fixture'],
    mutation: notesLineWithDashes,
  },
  {
    name: 'answers a call with several completed summaries, read without template_key, with 404 SUMMARY_TEMPLATE_NOT_FOUND',
    caughtBy: 'conversation-items.several-completed-summaries',
    only: ['conversation-items.several-completed-summaries'],
    mutation: severalSummariesNotFound,
  },
  {
    name: 'drops the summaries already generated once a template is deleted',
    caughtBy: 'summary-templates.delete-keeps-summaries',
    only: ['summary-templates.delete-keeps-summaries'],
    allowWrites: true,
    mutation: forgetsSummariesAfterDelete,
    replayRestarted:
      'after its DELETE it answers no summary at all, so the rule run again on the same server never reads one first',
  },
  {
    name: "lists the users a new thread's first comment mentions without their usr- prefix",
    caughtBy: 'threads.create-then-read',
    only: ['threads.create-then-read'],
    allowWrites: true,
    mutation: firstCommentMentionsBareIds,
  },
  {
    name: 'answers the lookup of an item with no thread with the first thread it found',
    caughtBy: 'response.selection',
    only: ['findThread'],
    mutation: lookupFallsBack,
  },
];

/** The checks whose precondition the run reaches through the API first (notReached otherwise). */
const REACHED_FIRST = new Set([
  'conversation-items.several-completed-summaries',
  'summary-templates.delete-keeps-summaries',
  'threads.create-then-read',
]);

describe('the classes broken servers got past: each mutant caught by name', () => {
  itCatchesEachByName(CLASSES);

  it('the same subsets pass against the sandbox itself, each check passing and its precondition reached', async () => {
    for (const mutant of CLASSES) {
      // A fresh sandbox each: a subset with writes leaves nothing for the next to find.
      const upstream = await sandbox();
      try {
        const { result, failed, output } = await runAgainst(upstream, mutant);
        const written = JSON.parse(readFileSync(join(output, 'report.json'), 'utf8')) as { failures: unknown[] };
        expect(failed, `${mutant.only.join(',')}: ${JSON.stringify(written.failures).slice(0, 2000)}`).toEqual([]);
        const checks = result.report.operations.flatMap((op) => op.checks).filter((c) => c.id === mutant.caughtBy);
        expect(checks.length, mutant.caughtBy).toBeGreaterThan(0);
        expect(
          checks.some((c) => c.status === 'passed'),
          mutant.caughtBy,
        ).toBe(true);
        // A check whose precondition the run must reach first is passed, never "not exercised".
        if (REACHED_FIRST.has(mutant.caughtBy))
          expect(
            checks.map((c) => c.status),
            mutant.caughtBy,
          ).toEqual(checks.map(() => 'passed'));
      } finally {
        await upstream.close();
      }
    }
  });
});
