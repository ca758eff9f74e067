// Mutants of details a rule states but no earlier check reached: the two names of one value, two
// query parameters together, the failing value of a conflict among several, the kind an id names,
// a tag name new to the team seen by another team, a note on no line in its conversation's list, a
// key whose only use failed sent to another endpoint, digits with a tail as a page size, a last
// page exactly filled, a kept option renamed past the limit, an empty knowledge text, a thread on a note on no line. Each is
// the sandbox broken in one way the description states, caught by name.
import { afterAll, describe } from 'vitest';
import {
  itCatchesEachByName,
  itPassesEachAgainstTheSandbox,
  type Mutant,
  otherTeamKey,
  removeOutputs,
} from './support/mutants.js';
import { isAgent, isItemRead, isTagAdd, isTagRemoval, isThreadLookup, isThreadRead } from './support/requests.js';
import { bodyOf, dataIn, json, type Mutation, type ProxiedRequest, pathOf, type Target } from './support/servers.js';

afterAll(removeOutputs);

type Body = Record<string, unknown>;

const queryOf = (q: ProxiedRequest) => new URLSearchParams(q.path.split('?')[1] ?? '');

/** A server that states a deal's value in minor units (cents) where the amount is in major units. */
const valueInCents: Mutation = {
  response: (r, q) =>
    q.method === 'GET' && pathOf(q).startsWith('/v2/api/crm/deals/')
      ? json(r, (b) => {
          const deal = dataIn(b);
          if (deal && typeof deal.value === 'number') deal.value *= 100;
        })
      : r,
};

/** A server that drops the transcript extension when a template key is given too. */
const extendLostWithTemplate: Mutation = {
  request: (q) => {
    const query = queryOf(q);
    if (!isItemRead(q) || !query.has('template_key') || !query.has('extend')) return q;
    query.delete('extend');
    return { ...q, path: `${pathOf(q)}?${query}` };
  },
};

/** A server whose TAG_ALREADY_EXISTS message names the first tag sent, whichever is on the item. */
const conflictNamesFirstSent: Mutation = {
  response: (r, q) => {
    if (!isTagAdd(q) || r.status !== 409) return r;
    const [first] = (bodyOf(q).tags as unknown[] | undefined) ?? [];
    return json(r, (b) => {
      const error = b.error as { code?: string; message?: string } | undefined;
      if (error?.code === 'TAG_ALREADY_EXISTS') error.message = `Tag ${String(first)} is already on the item.`;
    });
  },
};

const KIND_OF_PREFIX: Record<string, string> = { cll: 'CALL', msg: 'TEXT_MESSAGE', not: 'CONVERSATION_NOTE' };

/** A server that creates a thread for an item of another kind than the entity_type sent, and records the type sent. */
function threadOfAnyKind(): Mutation {
  const sentAs = new Map<string, string>();
  return {
    request: (q) => {
      if (q.method !== 'POST' || pathOf(q) !== '/v2/api/threads') return q;
      const body = bodyOf(q);
      const own = KIND_OF_PREFIX[String(body.entity_id).split('-')[0] ?? ''];
      const kinds = Object.values(KIND_OF_PREFIX);
      if (!own || own === body.entity_type || !kinds.includes(String(body.entity_type))) return q;
      sentAs.set(String(body.entity_id), String(body.entity_type));
      return { ...q, body: JSON.stringify({ ...body, entity_type: own }) };
    },
    response: (r, q) =>
      q.method === 'POST' && pathOf(q) === '/v2/api/threads'
        ? json(r, (b) => {
            const thread = dataIn(b);
            const sent = thread && sentAs.get(String(thread.entity_id));
            if (thread && sent) thread.entity_type = sent;
          })
        : r,
  };
}

/** Another team's tag list carries the tag names the run's team added since the server started. */
function tagNamesAcrossTeams(upstream: Target): Mutation {
  const added = new Set<string>();
  return {
    request: (q) => {
      if (isTagAdd(q) && q.headers.get('authorization') === `Api-Key ${upstream.apiKey}`)
        for (const tag of (bodyOf(q).tags as unknown[] | undefined) ?? []) added.add(String(tag));
      return q;
    },
    response: (r, q) =>
      q.method === 'GET' &&
      pathOf(q) === '/v2/api/tags' &&
      q.headers.get('authorization') === `Api-Key ${otherTeamKey(upstream)}`
        ? json(r, (b) => {
            if (Array.isArray(b.data)) b.data.push(...[...added].map((name) => ({ name })));
          })
        : r,
  };
}

/** A server whose notes list leaves out the notes on no line. */
const notesListWithoutLineless: Mutation = {
  response: (r, q) =>
    q.method === 'GET' && /^\/v2\/api\/conversations\/[^/]+\/notes$/.test(pathOf(q))
      ? json(r, (b) => {
          if (Array.isArray(b.data)) b.data = b.data.filter((n: { svc_number?: unknown }) => n.svc_number !== null);
        })
      : r,
};

/** A server that binds a key to the endpoint of its first use, even a failed one. */
function bindsFailedKeys(): Mutation {
  const firstUse = new Map<string, string>();
  return {
    response: (r, q) => {
      const key = q.headers.get('idempotency-key');
      if (key === null || !(isTagAdd(q) || isTagRemoval(q))) return r;
      const endpoint = `${q.method} ${isTagAdd(q) ? 'add' : 'remove'}`;
      const bound = firstUse.get(key);
      if (bound === undefined) firstUse.set(key, endpoint);
      if (bound === undefined || bound === endpoint) return r;
      return {
        ...r,
        status: 409,
        body: JSON.stringify({
          error: {
            type: 'conflict_error',
            code: 'IDEMPOTENCY_KEY_REUSE',
            message: `Idempotency-Key ${key} was already used for another endpoint.`,
            param: 'Idempotency-Key',
            retryable: false,
            request_id: r.headers.get('x-request-id') ?? 'req_bound',
            doc_url: 'https://docs.example.com/errors/IDEMPOTENCY_KEY_REUSE',
          },
        }),
      };
    },
  };
}

/** A server that reads the conversation list's size with parseInt (digits with a tail count as the digits). */
const lenientPageSize: Mutation = {
  request: (q) => {
    const query = queryOf(q);
    const size = query.get('size');
    if (q.method !== 'GET' || pathOf(q) !== '/v2/api/conversations' || size === null || !/^\d+\D/.test(size)) return q;
    query.set('size', String(Number.parseInt(size, 10)));
    return { ...q, path: `${pathOf(q)}?${query}` };
  },
};

/** A server that cuts a kept option's new label to 255 characters instead of refusing it (new options still refused). */
const renamedOptionCut: Mutation = {
  request: (q) => {
    if (q.method !== 'PATCH' || !pathOf(q).startsWith('/v2/api/crm/attributes/')) return q;
    const body = bodyOf(q);
    if (!Array.isArray(body.options)) return q;
    const options = body.options.map((o: { key?: unknown; label?: unknown }) =>
      typeof o.key === 'string' && typeof o.label === 'string' ? { ...o, label: o.label.slice(0, 255) } : o,
    );
    return { ...q, body: JSON.stringify({ ...body, options }) };
  },
};

/** A server that ignores an empty knowledge text on a receptionist update. */
const blankKnowledgeIgnored: Mutation = {
  request: (q) => {
    if (q.method !== 'PATCH' || !isAgent(q)) return q;
    const body = bodyOf(q);
    const drop = (holder: Body | undefined) => {
      const knowledge = holder?.knowledge as Body | undefined;
      if (knowledge?.text === '') delete knowledge.text;
    };
    drop(body);
    drop(body.agent as Body | undefined);
    return { ...q, body: JSON.stringify(body) };
  },
};

/**
 * A server whose thread on a note with no line has no contact number (the line's null carried
 * over). The notes on no line are those the sandbox config names (fixtures.note_ids).
 */
function linelessThreadWithoutContact(upstream: Target): Mutation {
  const lineless = new Set(upstream.config.fixtures.note_ids ?? []);
  return {
    response: (r, q) =>
      (q.method === 'POST' && pathOf(q) === '/v2/api/threads') || isThreadRead(q) || isThreadLookup(q)
        ? json(r, (b) => {
            const thread = dataIn(b);
            if (thread && lineless.has(String(thread.entity_id))) thread.contact_number = null;
          })
        : r,
  };
}

/** A server that says has_more wherever the page reaches the count (page × size ≥ total_count misread as more). */
const hasMoreOnExactLastPage: Mutation = {
  response: (r, q) =>
    q.method === 'GET' && pathOf(q) === '/v2/api/crm/attributes'
      ? json(r, (b) => {
          const p = b.pagination as
            | { page?: number; size?: number; total_count?: number; has_more?: boolean }
            | undefined;
          if (p && [p.page, p.size, p.total_count].every((n) => typeof n === 'number'))
            p.has_more = (p.page as number) * (p.size as number) <= (p.total_count as number);
        })
      : r,
};

/** A thread on an unknown text message refused with TEXT_MESSAGE_NOT_FOUND (the create lists CONVERSATION_ITEM_NOT_FOUND). */
const unknownMessageOwnCode: Mutation = {
  response: (r, q) =>
    r.status === 404 &&
    q.method === 'POST' &&
    pathOf(q) === '/v2/api/threads' &&
    bodyOf(q).entity_type === 'TEXT_MESSAGE'
      ? json(r, (b) => {
          const error = b.error as Body | undefined;
          if (error) error.code = 'TEXT_MESSAGE_NOT_FOUND';
        })
      : r,
};

const DETAILS: Mutant[] = [
  {
    name: "states a deal's value in cents beside its amount",
    caughtBy: 'deals.money-names-agree',
    only: ['deals.money-names-agree'],
    mutation: valueInCents,
  },
  {
    name: 'drops extend=transcript when template_key is given too',
    caughtBy: 'conversation-items.parameters-compose',
    only: ['conversation-items.parameters-compose'],
    mutation: extendLostWithTemplate,
  },
  {
    name: 'names the first tag sent in a TAG_ALREADY_EXISTS of several',
    caughtBy: 'tags.conflict-names-tag',
    only: ['tags.conflict-names-tag'],
    allowWrites: true,
    mutation: conflictNamesFirstSent,
  },
  {
    name: 'creates a thread saying the kind sent for an item of another kind',
    caughtBy: 'threads.kind-of-item',
    only: ['threads.kind-of-item'],
    allowWrites: true,
    mutation: threadOfAnyKind,
    replayRestarted: 'the thread the run created is on the item from then on: a replay finds it taken',
  },
  {
    name: "lists the tag names the team added in another team's tag list",
    caughtBy: 'tenants.tags-of-team',
    only: ['tenants.tags-of-team'],
    allowWrites: true,
    mutation: tagNamesAcrossTeams,
    replayRestarted: 'the name shows only once the run added it to an item',
  },
  {
    name: 'leaves the notes on no line out of the notes list',
    caughtBy: 'notes.listed-in-conversation',
    only: ['notes.listed-in-conversation'],
    mutation: notesListWithoutLineless,
  },
  {
    name: 'binds a key to the endpoint of its first use, a failed one too',
    caughtBy: 'idempotency.failed-not-consumed',
    only: ['removeConversationItemTag'],
    allowWrites: true,
    mutation: bindsFailedKeys,
    replayRestarted: 'the key is bound by the failed removal the run sent first',
  },
  {
    name: 'reads a conversation list size of digits with a tail as the digits',
    caughtBy: 'negative.out-of-range',
    only: ['listConversations'],
    mutation: lenientPageSize,
  },
  {
    name: "cuts a kept option's new label to 255 characters",
    caughtBy: 'negative.too-long',
    only: ['updateCustomField'],
    allowWrites: true,
    mutation: renamedOptionCut,
  },
  {
    name: 'says has_more on a last page exactly filled',
    caughtBy: 'lists.walk',
    only: ['listCustomFields'],
    mutation: hasMoreOnExactLastPage,
  },
  {
    name: 'ignores an empty knowledge text',
    caughtBy: 'receptionist.merge-rules',
    only: ['receptionist.merge-rules'],
    allowWrites: true,
    mutation: blankKnowledgeIgnored,
  },
  {
    // Only an unknown id of each kind, its kind beside it, reaches a lookup of that kind's own.
    name: "refuses a thread on an unknown text message with that kind's own not-found code",
    caughtBy: 'negative.unknown-id',
    only: ['createThread'],
    allowWrites: true,
    mutation: unknownMessageOwnCode,
  },
  {
    name: 'answers a thread on a note on no line without a contact number',
    caughtBy: 'response.schema',
    only: ['threads.create-each-kind'],
    allowWrites: true,
    mutation: linelessThreadWithoutContact,
    replayRestarted: 'the note has its thread from then on: a replay finds it taken',
  },
];

describe('details no earlier check reached: each mutant caught by name', () => {
  itCatchesEachByName(DETAILS);
  itPassesEachAgainstTheSandbox(DETAILS, { allowWrites: true });
});
