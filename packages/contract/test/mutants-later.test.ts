// Mutants whose fault shows only in a later read or a second send, from held-out broken servers
// that passed the suite: a read kept per key after a write by another key of the team, a person
// listed twice after an update, another team's data through a batch or a conversation's notes, a
// keyed write run again after its effect was undone, a failed removal that consumed its key, the
// key of a reuse left out of its message, a label of letters outside ASCII refused. Each is the
// sandbox broken in one way the description states, caught by name.
import { afterAll, describe } from 'vitest';
import {
  isOtherTeam,
  itCatchesEachByName,
  itPassesEachAgainstTheSandbox,
  keepsFirstAnswers,
  type Mutant,
  mainKey,
  otherTeamKey,
  reappliesKeyedWrites,
  removeOutputs,
  swapKey,
} from './support/mutants.js';
import { isBatch, isFieldList, isNotesList, isTagAdd, isTagRemoval, isThreadRead } from './support/requests.js';
import { bodyOf, json, type Mutation, type ProxiedResponse, pathOf, type Target } from './support/servers.js';

afterAll(removeOutputs);

/** A server whose people search lists each person updated since it started twice. */
function listsUpdatedTwice(): Mutation {
  const updated = new Set<string>();
  return {
    response: (r, q) => {
      const path = pathOf(q);
      if (q.method === 'PUT' && path.startsWith('/v2/api/crm/people/') && r.status < 300)
        updated.add(decodeURIComponent(path.split('/').at(-1) ?? ''));
      if (q.method !== 'POST' || path !== '/v2/api/crm/people/search' || r.status !== 200) return r;
      return json(r, (b) => {
        if (!Array.isArray(b.data)) return;
        const listed = b.data.length;
        const entries = b.data as Array<{ id?: string }>;
        const doubled = entries.flatMap((p) => (p.id && updated.has(p.id) ? [p, { ...p }] : [p]));
        b.data = doubled;
        // The count follows the entries, as a server listing a record twice counts it twice.
        const paging = b.pagination as { total_count?: number } | undefined;
        if (paging && typeof paging.total_count === 'number') paging.total_count += doubled.length - listed;
      });
    },
  };
}

/** A server that keeps a keyed tag removal's failure (404) and answers it again to every later use of the key. */
function storesFailedRemovals(): Mutation {
  const failed = new Map<string, ProxiedResponse>();
  return {
    response: (r, q) => {
      const key = q.headers.get('idempotency-key');
      if (!isTagRemoval(q) || key === null) return r;
      const kept = failed.get(key);
      if (kept) return kept;
      if (r.status === 404) failed.set(key, r);
      return r;
    },
  };
}

/** A server whose 409 IDEMPOTENCY_KEY_REUSE message names no key. */
const reuseWithoutKey: Mutation = {
  response: (r) =>
    r.status === 409
      ? json(r, (b) => {
          const error = b.error as { code?: string; message?: string } | undefined;
          if (error?.code === 'IDEMPOTENCY_KEY_REUSE')
            error.message = 'This idempotency key was already used for a different endpoint or method.';
        })
      : r,
};

/** A server that refuses a custom field label whose letters are all outside ASCII (it sends the upstream a blank one). */
const asciiLettersOnly: Mutation = {
  request: (q) => {
    if (q.method !== 'PATCH' || !pathOf(q).startsWith('/v2/api/crm/attributes/')) return q;
    const body = bodyOf(q);
    const label = body.label;
    if (typeof label !== 'string' || /[A-Za-z0-9]/.test(label) || !/[\p{L}\p{N}]/u.test(label)) return q;
    return { ...q, body: JSON.stringify({ ...body, label: ' ' }) };
  },
};

/** The run's key listing the notes of a number the team has no conversation with gets another team's. */
function notesOfOtherTeamsNumbers(upstream: Target): Mutation {
  const teamNumbers = new Set(upstream.config.fixtures.contact_numbers ?? []);
  return {
    request: (q) => {
      const number = decodeURIComponent(pathOf(q).split('/')[4] ?? '');
      if (!isNotesList(q) || q.headers.get('authorization') !== `Api-Key ${upstream.apiKey}`) return q;
      if (teamNumbers.size > 0 && teamNumbers.has(number)) return q;
      const headers = new Headers(q.headers);
      headers.set('authorization', `Api-Key ${otherTeamKey(upstream)}`);
      return { ...q, headers };
    },
  };
}

/** A server that answers each line's receptionist to every key as it first answered it (whichever key read it first). */
function receptionistPerLine(): Mutation {
  const first = new Map<string, ProxiedResponse>();
  return {
    response: (r, q) => {
      if (q.method !== 'GET' || !/^\/v2\/api\/numbers\/[^/]+\/agent$/.test(pathOf(q)) || r.status !== 200) return r;
      const kept = first.get(q.path);
      if (kept) return { ...kept, headers: new Headers(r.headers) };
      first.set(q.path, r);
      return r;
    },
  };
}

const LATER: Mutant[] = [
  {
    name: 'lists custom fields to another key of the team as it first listed them (a cache per key)',
    caughtBy: 'custom-fields.label-listed',
    only: ['custom-fields.label-listed'],
    allowWrites: true,
    mutation: keepsFirstAnswers(isFieldList, false),
  },
  {
    name: 'answers a thread to another key of the team as it first answered it (a cache per key)',
    caughtBy: 'threads.comment-then-read',
    only: ['threads.comment-then-read'],
    allowWrites: true,
    mutation: keepsFirstAnswers(isThreadRead, false),
  },
  {
    name: "answers each line's receptionist to every key as the first key read it (is_current_user of another member)",
    caughtBy: 'receptionist.current-user',
    only: ['receptionist.current-user'],
    mutation: receptionistPerLine,
  },
  {
    name: 'lists a person updated since it started twice in the people search',
    caughtBy: 'people.update-shown',
    only: ['people.update-shown'],
    allowWrites: true,
    mutation: listsUpdatedTwice,
    replayRestarted: 'the person the run updated is listed twice from then on, before a replayed update too',
  },
  {
    name: "answers another team's batch with the team's items",
    caughtBy: 'tenants.other-team',
    only: ['batchGetConversationItems'],
    mutation: swapKey(isOtherTeam, mainKey, isBatch),
  },
  {
    name: "lists the team's notes of a conversation to another team's key",
    caughtBy: 'tenants.other-team',
    only: ['listConversationNotes'],
    mutation: swapKey(isOtherTeam, mainKey, isNotesList),
  },
  {
    name: "lists another team's notes to the run's key, by a number only that team talks to",
    caughtBy: 'tenants.other-teams-read',
    only: ['tenants.other-teams-read'],
    mutation: notesOfOtherTeamsNumbers,
  },
  {
    name: 'adds a tag again on a repeat of its key where the item no longer carries it, marked replayed (the stored answer where the add is refused)',
    caughtBy: 'tags.replay-not-rerun',
    only: ['tags.replay-not-rerun'],
    allowWrites: true,
    mutation: reappliesKeyedWrites(isTagAdd, { storedWhenRefused: true }),
  },
  {
    name: 'keeps the 404 of a keyed tag removal for its key',
    caughtBy: 'idempotency.failed-not-consumed',
    only: ['removeConversationItemTag'],
    allowWrites: true,
    mutation: storesFailedRemovals,
  },
  {
    name: 'leaves the key out of the message of a 409 IDEMPOTENCY_KEY_REUSE',
    caughtBy: 'response.error-message',
    only: ['idempotency.key-reuse'],
    allowWrites: true,
    mutation: reuseWithoutKey,
  },
  {
    name: 'refuses a custom field label with no ASCII letter or digit',
    caughtBy: 'custom-fields.label-any-script',
    only: ['custom-fields.label-any-script'],
    allowWrites: true,
    mutation: asciiLettersOnly,
  },
];

describe('faults that show in a later read or a second send: each mutant caught by name', () => {
  itCatchesEachByName(LATER);
  itPassesEachAgainstTheSandbox(LATER, { allowWrites: true });
});
