// Mutants of rules whose precondition the suite used not to reach (issue 34: "never crossed", a
// neighbouring scope, an assignment by email): each a sandbox broken in one way the description
// states, caught by name; and, where a server may answer in another valid way, a control that
// passes.
import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { UNKNOWN_SUFFIX } from '../src/generate/negative-values.js';
import { itCatchesEachByName, type Mutant, mainKey, removeOutputs, runAgainst, swapKey } from './support/mutants.js';
import { isAgent, isFieldList } from './support/requests.js';
import {
  bodyOf,
  forgetsKeys,
  json,
  type Mutation,
  mutatingProxy,
  type ProxiedRequest,
  pathOf,
  sandbox,
  type Target,
} from './support/servers.js';

afterAll(removeOutputs);

/** The one user of the seed's second team (Bayside Veterinary), whose key is the config's other-team key. */
const OTHER_TEAM_USER = 'usr-8Bv3Nm2q';
/** The kind each item id prefix names (Identifier prefixes). */
const KIND_OF_PREFIX: Record<string, string> = { 'cll-': 'CALL', 'msg-': 'TEXT_MESSAGE', 'not-': 'CONVERSATION_NOTE' };
const isNoteRead = (q: ProxiedRequest) => q.method === 'GET' && pathOf(q).startsWith('/v2/api/conversations/notes/');

/** Every mention an answer's data lists, with deleted false. */
function mentionsNotDeleted(r: Parameters<NonNullable<Mutation['response']>>[0]) {
  if (r.status >= 300) return r;
  return json(r, (b) => {
    const data = b.data as {
      mentions?: Array<Record<string, unknown>>;
      comments?: Array<{ mentions?: Array<Record<string, unknown>> }>;
    };
    for (const m of [...(data.mentions ?? []), ...(data.comments ?? []).flatMap((c) => c.mentions ?? [])])
      m.deleted = false;
  });
}
/** GETs of `path` sent with the run's key reach the server with the other team's key: another team's resource read as its own. */
function readAsOtherTeam(path: string): (upstream: Target) => Mutation {
  return (upstream) => {
    const other = upstream.config.keys.find((k) => k.kind === 'other-team');
    return {
      request: (q) => {
        if (!other || q.method !== 'GET' || pathOf(q) !== path) return q;
        if (!q.headers.get('authorization')?.includes(upstream.apiKey)) return q;
        const headers = new Headers(q.headers);
        headers.set('authorization', `Api-Key ${other.key}`);
        return { ...q, headers };
      },
    };
  };
}
const isThreadCreation = (q: ProxiedRequest) => q.method === 'POST' && pathOf(q) === '/v2/api/threads';
const isQueue = (q: ProxiedRequest) => q.method === 'PATCH' && pathOf(q) === '/v2/api/dialing-queues/current';

/** An error answer in the API's dialect, quoting the request's target. */
function refuse(status: number, type: string, code: string): NonNullable<Mutation['response']> {
  return (r, q) =>
    json({ ...r, status }, (b) => {
      delete b.data;
      const message = `refused: ${decodeURIComponent(q.path)}`;
      b.error = { type, code, message, retryable: false, request_id: r.headers.get('x-request-id') };
    });
}

/** The keys the upstream knows: the run's and the config's. */
const knownKeys = (upstream: Target) => [upstream.apiKey, ...upstream.config.keys.map((k) => k.key)];

/** A server that takes the last word of the Authorization header as the key, whatever the scheme (or none). */
function anyScheme(upstream: Target): Mutation {
  return {
    request: (q) => {
      const sent = q.headers.get('authorization') ?? '';
      const key = sent.trim().split(/\s+/).pop() ?? '';
      if (!knownKeys(upstream).includes(key) || sent.startsWith('Api-Key ')) return q;
      const headers = new Headers(q.headers);
      headers.set('authorization', `Api-Key ${key}`);
      return { ...q, headers };
    },
  };
}

/** A queue update aimed at a teammate (email or user_id) that also renames the key owner's own queue. */
function teammateChangeAlsoOwn(): Mutation {
  let ownName: unknown;
  return {
    response: (r, q) => {
      if (!isQueue(q) || r.status >= 300) return r;
      const body = bodyOf(q);
      const aimed = typeof body.email === 'string' || typeof body.user_id === 'string';
      if (aimed && typeof body.name === 'string') ownName = body.name;
      if (aimed || ownName === undefined) return r;
      return json(r, (b) => {
        if (b.data && typeof b.data === 'object') (b.data as Record<string, unknown>).name = ownName;
      });
    },
  };
}

/** A note whose mentions are joined on the note's author: each carries the author's name. */
const mentionsNamedAfterAuthor: Mutation = {
  response: (r, q) =>
    isNoteRead(q)
      ? json(r, (b) => {
          const note = b.data as Record<string, unknown> | undefined;
          const author = (note?.user as Record<string, unknown> | undefined)?.name;
          for (const m of Array.isArray(note?.mentions) ? (note.mentions as Array<Record<string, unknown>>) : [])
            m.name = author;
        })
      : r,
};

/** A server that looks keys up without their case: a key in another case is taken as the key. */
function keyInAnyCase(upstream: Target): Mutation {
  return {
    request: (q) => {
      const sent = q.headers.get('authorization') ?? '';
      const key = sent.trim().split(/\s+/).pop() ?? '';
      const known = knownKeys(upstream).find((k) => k !== key && k.toLowerCase() === key.toLowerCase());
      if (known === undefined) return q;
      const headers = new Headers(q.headers);
      headers.set('authorization', `Api-Key ${known}`);
      return { ...q, headers };
    },
  };
}

/**
 * A server that checks the resource a scope names, not reading against writing: a tag write sent
 * with a key holding TAGS_READ goes through (as the all-scopes key); any other key is refused.
 */
function readScopeWritesTags(upstream: Target): Mutation {
  return {
    request: (q) => {
      if (q.method === 'GET' || !pathOf(q).includes('/tags')) return q;
      const sent = q.headers.get('authorization');
      const key = upstream.config.keys.find((k) => sent === `Api-Key ${k.key}`);
      if (!key?.scopes.includes('TAGS_READ')) return q;
      const headers = new Headers(q.headers);
      headers.set('authorization', `Api-Key ${upstream.apiKey}`);
      return { ...q, headers };
    },
  };
}

/** A server whose idempotency store is keyed by the key and the body: the same key with another body runs again. */
const keyedByBody: Mutation = {
  request: (q) => {
    const key = q.headers.get('idempotency-key');
    if (key === null) return q;
    const headers = new Headers(q.headers);
    headers.set(
      'idempotency-key',
      `${key}-${createHash('sha256')
        .update(q.body ?? '')
        .digest('hex')
        .slice(0, 12)}`,
    );
    return { ...q, headers };
  },
  response: (r, q) => {
    const sent = q.headers.get('idempotency-key');
    if (sent === null) return r;
    const headers = new Headers(r.headers);
    // Echoes the key the client sent, as the contract asks: only the replay is missing.
    headers.set('idempotency-key', sent.replace(/-[0-9a-f]{12}$/, ''));
    return { ...r, headers };
  },
};

/** The seed's deleted custom field (the sandbox names it in fixtures.deleted_field_keys). */
const DELETED_FIELD = 'legacy_code';
/** The seed's one live TEXT field: the type the options check reached only once it tried each type. */
const TEXT_FIELD = 'account_notes';
/** The seed's call with one completed summary and one pending (fixtures.one_completed_summary_call_ids). */
const MIXED_CALL = 'cll-2Vb7cX1z';

/** A list that shows each field with the label it had when first listed (a stale copy of the labels). */
function staleLabels(): Mutation {
  const first = new Map<unknown, unknown>();
  return {
    response: (r, q) =>
      isFieldList(q) && r.status === 200
        ? json(r, (b) => {
            for (const field of b.data as Array<Record<string, unknown>>) {
              if (!first.has(field.key)) first.set(field.key, field.label);
              field.label = first.get(field.key);
            }
          })
        : r,
  };
}

/**
 * A receptionist update that writes read-only values (`taken`, sent where `where` says: at the top
 * of the body or inside `agent`): the proxy takes them out of the body (so the sandbox accepts the
 * rest) and shows them on every later read of that line. A body holding another read-only value
 * goes through as it is, and the sandbox refuses it.
 */
function writesReadOnly(taken: string[] = ['status', 'is_default'], where: Array<'top' | 'agent'> = ['top']): Mutation {
  const written = new Map<string, Record<string, unknown>>();
  const split = (block: Record<string, unknown>) => {
    const values = Object.fromEntries(Object.entries(block).filter(([k]) => taken.includes(k)));
    const rest = Object.fromEntries(Object.entries(block).filter(([k]) => !taken.includes(k)));
    return { values, rest };
  };
  return {
    request: (q) => {
      const body = bodyOf(q);
      const agent = body.agent as Record<string, unknown> | undefined;
      const readOnly = (b: Record<string, unknown> | undefined) => ['status', 'is_default'].filter((k) => b && k in b);
      const sent = [...readOnly(body), ...readOnly(agent)];
      const top = where.includes('top') ? split(body) : { values: {}, rest: body };
      const inner = where.includes('agent') && agent ? split(agent) : { values: {}, rest: agent };
      const values = { ...top.values, ...inner.values };
      if (q.method !== 'PATCH' || !isAgent(q) || sent.length !== Object.keys(values).length || sent.length === 0)
        return q;
      written.set(pathOf(q), { ...written.get(pathOf(q)), ...values });
      const rest = inner.rest === undefined ? top.rest : { ...top.rest, agent: inner.rest };
      return { ...q, body: JSON.stringify(rest) };
    },
    response: (r, q) => {
      const values = written.get(pathOf(q));
      return q.method === 'GET' && values && r.status === 200
        ? json(r, (b) => Object.assign((b.data as { agent: object }).agent, values))
        : r;
    },
  };
}

/**
 * Idempotency looked up before the scope check: a write whose Idempotency-Key another key used on
 * a success is sent upstream as that key's (so the stored answer comes back to any key of the team).
 */
function replaysBeforeScope(): Mutation {
  const firstKeyOf = new Map<string, string>();
  const auth = (q: ProxiedRequest) => q.headers.get('authorization') ?? q.headers.get('x-api-key') ?? '';
  return {
    request: (q) => {
      const key = q.headers.get('idempotency-key');
      const first = key ? firstKeyOf.get(key) : undefined;
      if (!key || q.method === 'GET') return q;
      if (first === undefined) {
        firstKeyOf.set(key, auth(q));
        return q;
      }
      const headers = new Headers(q.headers);
      headers.delete('x-api-key');
      headers.set('authorization', first);
      return { ...q, headers };
    },
  };
}

/**
 * A receptionist that books on every calendar it was ever given: each read shows the calendars of
 * every earlier read of the line besides those now selected (a collection holding more than was selected).
 */
function keepsCalendars(): Mutation {
  const seen = new Map<string, Map<unknown, unknown>>();
  return {
    response: (r, q) =>
      q.method === 'GET' && isAgent(q) && r.status === 200
        ? json(r, (b) => {
            const scheduling = (b.data as { scheduling?: { calendars?: Array<Record<string, unknown>> } }).scheduling;
            if (!Array.isArray(scheduling?.calendars)) return;
            const kept = seen.get(pathOf(q)) ?? new Map<unknown, unknown>();
            for (const c of scheduling.calendars) kept.set(c.calendar_connection_id, c);
            seen.set(pathOf(q), kept);
            scheduling.calendars = [...kept.values()] as Array<Record<string, unknown>>;
          })
        : r,
  };
}

/** A second DELETE of what the first removed answered as the first (204): the removal not kept. */
function deletesAgain(path: RegExp): Mutation {
  return {
    response: (r, q) => {
      if (q.method !== 'DELETE' || r.status !== 404 || !path.test(pathOf(q))) return r;
      const headers = new Headers(r.headers);
      headers.delete('content-type');
      return { status: 204, headers, body: '' };
    },
  };
}

/** A refusal turned into a 200 with `data` (a field the server wrongly lets through). */
function answeredWith(r: Parameters<typeof json>[0], data: Record<string, unknown>) {
  return json({ ...r, status: 200 }, (b) => {
    delete b.error;
    b.data = data;
  });
}

/** Conversations archived on a line (contact|line), as the actions given a line say. */
function unreadSkipsArchived(): Mutation {
  const archived = new Set<string>();
  return {
    request: (q) => {
      const contact = /^\/v2\/api\/conversations\/([^/]+)\/action$/.exec(pathOf(q))?.[1];
      const body = bodyOf(q);
      if (q.method !== 'PUT' || !contact || typeof body.svc_number !== 'string') return q;
      const at = `${decodeURIComponent(contact)}|${body.svc_number}`;
      if (body.action === 'ARCHIVE') archived.add(at);
      if (body.action === 'UNARCHIVE') archived.delete(at);
      // UNREAD on an archived conversation skipped: it stays read.
      if (body.action === 'UNREAD' && archived.has(at))
        return { ...q, body: JSON.stringify({ ...body, action: 'READ' }) };
      return q;
    },
  };
}

/** A custom field update that takes the type sent: answered and listed with it from then on. */
function typeChangeTaken(): Mutation {
  const types = new Map<string, unknown>();
  const fieldKey = (q: ProxiedRequest) => /^\/v2\/api\/crm\/attributes\/([^/]+)$/.exec(pathOf(q))?.[1];
  return {
    request: (q) => {
      const key = fieldKey(q);
      const { type, ...rest } = bodyOf(q);
      if (q.method !== 'PATCH' || !key || type === undefined) return q;
      types.set(decodeURIComponent(key), type);
      return { ...q, body: JSON.stringify(rest) };
    },
    response: (r, q) => {
      if (r.status !== 200 || !pathOf(q).startsWith('/v2/api/crm/attributes')) return r;
      return json(r, (b) => {
        for (const field of (Array.isArray(b.data) ? b.data : [b.data]) as Array<Record<string, unknown>>)
          if (types.has(String(field.key))) field.type = types.get(String(field.key));
      });
    },
  };
}

/** Keyed answers stored by Idempotency-Key, method and path, whoever sent them: another team's request gets them. */
function idempotencyStoreOfAllTeams(): Mutation {
  const stored = new Map<string, { auth: string; response: Parameters<NonNullable<Mutation['response']>>[0] }>();
  return {
    response: (r, q) => {
      const key = q.headers.get('idempotency-key');
      if (!key || r.status >= 300) return r;
      const id = `${key} ${q.method} ${pathOf(q)}`;
      const auth = q.headers.get('authorization') ?? '';
      const first = stored.get(id);
      if (!first) stored.set(id, { auth, response: r });
      if (!first || first.auth === auth) return r;
      const headers = new Headers(first.response.headers);
      headers.set('idempotency-replayed', 'true');
      return { ...first.response, headers };
    },
  };
}

/** A new comment's user taken from the thread's first comment (its starter), as the thread's last read showed it. */
function commentByStarter(): Mutation {
  const starters = new Map<string, unknown>();
  const threadOf = (q: ProxiedRequest) => /^\/v2\/api\/threads\/([^/]+)(\/comments)?$/.exec(pathOf(q));
  return {
    response: (r, q) => {
      const m = threadOf(q);
      if (!m?.[1] || r.status >= 300) return r;
      return json(r, (b) => {
        const data = b.data as { comments?: Array<{ user?: unknown }>; user?: unknown };
        if (q.method === 'GET' && !m[2] && data.comments?.[0]) starters.set(m[1] as string, data.comments[0].user);
        if (q.method === 'POST' && m[2] && starters.has(m[1] as string)) data.user = starters.get(m[1] as string);
      });
    },
  };
}

const CROSSED: Mutant[] = [
  {
    name: "accepts the run's key after any scheme (Bearer, bearer, Token) or none",
    caughtBy: 'auth.malformed-header',
    only: ['listTags', 'auth.malformed-header'],
    mutation: anyScheme,
  },
  {
    name: "renames the key owner's queue too when a teammate's is renamed by email",
    caughtBy: 'dialer-queues.by-email',
    only: ['dialer-queues.by-email'],
    allowWrites: true,
    mutation: teammateChangeAlsoOwn,
  },
  {
    name: "names each mention of a note after the note's author",
    caughtBy: 'notes.mention-name',
    only: ['notes.mention-name'],
    mutation: mentionsNamedAfterAuthor,
  },
  {
    name: 'takes a key written in another case as the key',
    caughtBy: 'auth.unknown-key',
    only: ['listTags', 'auth.unknown-key'],
    mutation: keyInAnyCase,
  },
  {
    name: 'lets a key holding the read scope of a resource write it (TAGS_READ adds tags)',
    caughtBy: 'auth.insufficient-scope',
    only: ['addConversationItemTags', 'auth.insufficient-scope'],
    allowWrites: true,
    mutation: readScopeWritesTags,
  },
  {
    name: 'parses the body before routing: a write to an unknown path is 400 INVALID_REQUEST_BODY',
    caughtBy: 'routing.unknown-path',
    only: ['routing.unknown-path'],
    mutation: {
      response: (r, q) =>
        r.status === 404 && q.method !== 'GET' && pathOf(q).includes('svc-contract-unknown')
          ? refuse(400, 'validation_error', 'INVALID_REQUEST_BODY')(r, q)
          : r,
    },
  },
  {
    name: 'runs a key again when it comes with another body (the store keyed by key and body)',
    caughtBy: 'idempotency.replay',
    only: ['applyConversationAction', 'idempotency.replay'],
    allowWrites: true,
    mutation: keyedByBody,
  },
  {
    name: "never matches a teammate's email (ASSIGNEE_NOT_FOUND for every email)",
    caughtBy: 'dialer-queues.by-email',
    only: ['dialer-queues.by-email'],
    allowWrites: true,
    mutation: {
      response: (r, q) =>
        isQueue(q) && typeof bodyOf(q).email === 'string' && bodyOf(q).user_id === undefined
          ? refuse(404, 'not_found_error', 'ASSIGNEE_NOT_FOUND')(r, q)
          : r,
    },
  },
  {
    name: "ignores the email (answers the key owner's queue)",
    caughtBy: 'dialer-queues.by-email',
    only: ['dialer-queues.by-email'],
    allowWrites: true,
    mutation: {
      request: (q) => {
        if (!isQueue(q)) return q;
        const { email: _ignored, ...rest } = bodyOf(q);
        return { ...q, body: JSON.stringify(rest) };
      },
    },
  },
  {
    name: 'lists each custom field with the label it first had (a label change never shows in the list)',
    caughtBy: 'custom-fields.label-listed',
    only: ['custom-fields.label-listed'],
    allowWrites: true,
    mutation: () => staleLabels(),
  },
  {
    name: 'lists a deleted custom field',
    caughtBy: 'custom-fields.deleted',
    only: ['custom-fields.deleted'],
    allowWrites: true,
    mutation: {
      response: (r, q) =>
        isFieldList(q) && r.status === 200
          ? json(r, (b) => {
              (b.data as unknown[]).push({ key: DELETED_FIELD, label: 'Legacy code', type: 'TEXT' });
            })
          : r,
    },
  },
  {
    name: 'finds a deleted custom field by its key (an update answers 200)',
    caughtBy: 'custom-fields.deleted',
    only: ['custom-fields.deleted'],
    allowWrites: true,
    mutation: {
      response: (r, q) =>
        q.method === 'PATCH' && pathOf(q) === `/v2/api/crm/attributes/${DELETED_FIELD}`
          ? answeredWith(r, { key: DELETED_FIELD, label: 'Legacy code', type: 'TEXT', source: 'SVC' })
          : r,
    },
  },
  {
    name: 'guards only the label and options of a field synced from an integration (its description is taken)',
    caughtBy: 'custom-fields.managed-by-integration',
    only: ['custom-fields.managed-by-integration'],
    allowWrites: true,
    mutation: {
      response: (r, q) =>
        q.method === 'PATCH' &&
        pathOf(q).startsWith('/v2/api/crm/attributes/') &&
        r.status === 409 &&
        Object.keys(bodyOf(q)).join() === 'description'
          ? answeredWith(r, {
              key: decodeURIComponent(pathOf(q).split('/').pop() ?? ''),
              type: 'TEXT',
              source: 'HUBSPOT',
            })
          : r,
    },
  },
  {
    name: 'counts pending summaries: a call with one completed summary and one pending asks for template_key',
    caughtBy: 'conversation-items.one-completed-summary',
    only: ['conversation-items.one-completed-summary'],
    mutation: {
      response: (r, q) =>
        q.method === 'GET' &&
        pathOf(q) === `/v2/api/conversations/items/${MIXED_CALL}` &&
        !q.path.includes('template_key=')
          ? refuse(400, 'validation_error', 'SUMMARY_TEMPLATE_KEY_REQUIRED')(r, q)
          : r,
    },
  },
  {
    name: "writes the agent's read-only status and is_default on an update",
    caughtBy: 'receptionist.read-only',
    only: ['receptionist.read-only'],
    allowWrites: true,
    mutation: () => writesReadOnly(),
  },
  {
    name: 'replays a stored Idempotency-Key to a key of the team lacking the scope',
    caughtBy: 'auth.scope-before-replay',
    only: ['auth.scope-before-replay'],
    allowWrites: true,
    mutation: () => replaysBeforeScope(),
  },
  {
    name: "writes the agent's status sent alone, at the top or inside agent, and refuses is_default",
    caughtBy: 'receptionist.read-only',
    only: ['receptionist.read-only'],
    allowWrites: true,
    mutation: () => writesReadOnly(['status'], ['top', 'agent']),
  },
  {
    name: "writes the agent's is_default sent inside agent, and refuses it at the top",
    caughtBy: 'receptionist.read-only',
    only: ['receptionist.read-only'],
    allowWrites: true,
    mutation: () => writesReadOnly(['is_default'], ['agent']),
  },
  {
    name: "answers a thread's entity_type as another kind than its entity_id's prefix names",
    caughtBy: 'response.id-kind',
    only: ['getThread'],
    mutation: {
      response: (r, q) =>
        q.method === 'GET' && r.status === 200 && /^\/v2\/api\/threads\/cth-/.test(pathOf(q))
          ? json(r, (b) => {
              const thread = b.data as Record<string, unknown>;
              thread.entity_type = thread.entity_type === 'CALL' ? 'TEXT_MESSAGE' : 'CALL';
            })
          : r,
    },
  },
  {
    // Only the other direction was crossed: another team's key naming the team's teammate.
    name: "takes another team's user by user_id on the dialer queue (answers the key owner's queue)",
    caughtBy: 'tenants.other-teams-resource',
    only: ['upsertCurrentDialingQueue', 'tenants.other-teams-resource'],
    allowWrites: true,
    mutation: (upstream) => ({
      request: (q) => {
        if (
          !isQueue(q) ||
          bodyOf(q).user_id !== OTHER_TEAM_USER ||
          !q.headers.get('authorization')?.includes(upstream.apiKey)
        )
          return q;
        const { user_id: _ignored, ...rest } = bodyOf(q);
        return { ...q, body: JSON.stringify(rest) };
      },
    }),
  },
  {
    name: 'answers a second thread on a call as not found (404), other kinds at 409',
    caughtBy: 'threads.duplicate',
    only: ['threads.create-each-kind', 'threads.duplicate'],
    allowWrites: true,
    mutation: {
      response: (r, q) =>
        isThreadCreation(q) && r.status === 409 && bodyOf(q).entity_type === 'CALL'
          ? refuse(404, 'not_found_error', 'CONVERSATION_ITEM_NOT_FOUND')(r, q)
          : r,
    },
  },
  {
    name: 'deactivates again a template deactivated before the run (DELETE answers 204)',
    caughtBy: 'summary-templates.inactive',
    only: ['summary-templates.inactive'],
    allowWrites: true,
    // The seed's templates deactivated before any run, found again (hex ids: nothing to escape).
    mutation: (upstream) =>
      deletesAgain(
        new RegExp(
          `^/v2/api/summary_templates/(${(upstream.config.fixtures.inactive_summary_template_ids ?? []).join('|')})$`,
        ),
      ),
  },
  {
    name: "finds a thread by its item's id alone, whatever entity_type is sent",
    caughtBy: 'threads.lookup-by-kind',
    only: ['threads.lookup-by-kind'],
    mutation: {
      request: (q) => {
        if (q.method !== 'GET' || pathOf(q) !== '/v2/api/threads') return q;
        const params = new URLSearchParams(q.path.split('?')[1] ?? '');
        const kind = KIND_OF_PREFIX[(params.get('entity_id') ?? '').slice(0, 4)];
        if (kind) params.set('entity_type', kind);
        return { ...q, path: `${pathOf(q)}?${params.toString()}` };
      },
    },
  },
  {
    name: 'lists the mention of a removed member with deleted false on a note read by id',
    caughtBy: 'notes.mention-deleted',
    only: ['notes.mention-deleted'],
    mutation: { response: (r, q) => (isNoteRead(q) ? mentionsNotDeleted(r) : r) },
  },
  {
    name: 'answers a comment written with its mentions all deleted false (read back right)',
    caughtBy: 'threads.mention-removed',
    only: ['threads.mention-removed'],
    allowWrites: true,
    mutation: {
      response: (r, q) => (q.method === 'POST' && /\/comments$/.test(pathOf(q)) ? mentionsNotDeleted(r) : r),
    },
  },
  {
    name: "answers a thread's comments newest first once it holds four",
    caughtBy: 'threads.comment-then-read',
    only: ['threads.comment-then-read'],
    allowWrites: true,
    mutation: {
      response: (r, q) =>
        q.method === 'GET' && /^\/v2\/api\/threads\/[^/]+$/.test(pathOf(q)) && r.status === 200
          ? json(r, (b) => {
              const comments = (b.data as { comments?: unknown[] }).comments;
              if (Array.isArray(comments) && comments.length >= 4) comments.reverse();
            })
          : r,
    },
  },
  {
    name: 'lets a key holding the write scope of tags read them (TAGS_WRITE lists tags)',
    caughtBy: 'auth.insufficient-scope',
    only: ['listTags'],
    mutation: swapKey(
      (k) => k.scopes.length === 1 && k.scopes[0] === 'TAGS_WRITE',
      mainKey,
      (q) => q.method === 'GET' && pathOf(q) === '/v2/api/tags',
    ),
  },
  {
    name: 'lets a key holding CONTACTS_READ but not USERS_READ read a teammate (teammates taken for contacts)',
    caughtBy: 'auth.insufficient-scope',
    only: ['getUser'],
    mutation: swapKey(
      (k) => k.scopes.includes('CONTACTS_READ') && !k.scopes.includes('USERS_READ'),
      mainKey,
      (q) => q.method === 'GET' && /^\/v2\/api\/users\/[^/]+$/.test(pathOf(q)),
    ),
  },
  {
    name: 'looks a deal up before checking the key: an unknown key on an unknown id gets the 404',
    caughtBy: 'auth.unknown-key',
    only: ['getDeal'],
    mutation: {
      response: (r, q) =>
        r.status === 401 && q.path.includes(UNKNOWN_SUFFIX) ? refuse(404, 'not_found_error', 'NOT_FOUND')(r, q) : r,
    },
  },
  {
    name: 'UNREAD given a line skips an archived conversation: it stays read',
    caughtBy: 'conversations.action-one-line',
    only: ['conversations.action-one-line'],
    allowWrites: true,
    mutation: unreadSkipsArchived,
  },
  {
    name: 'takes a type sent to a custom field: answered and listed with the new type',
    caughtBy: 'custom-fields.key-and-type-immutable',
    only: ['custom-fields.key-and-type-immutable'],
    allowWrites: true,
    mutation: typeChangeTaken,
  },
  {
    name: 'links THREAD_NOT_FOUND to the page of NOTE_NOT_FOUND',
    caughtBy: 'response.error-details',
    only: ['getThread'],
    mutation: {
      response: (r) =>
        json(r, (b) => {
          const error = b.error as Record<string, unknown> | undefined;
          if (error?.code === 'THREAD_NOT_FOUND' && typeof error.doc_url === 'string')
            error.doc_url = error.doc_url.replace('THREAD_NOT_FOUND', 'NOTE_NOT_FOUND');
        }),
    },
  },
  {
    name: 'answers every template_key of a call with its classic summary',
    caughtBy: 'conversation-items.template-key-selects',
    only: ['conversation-items.template-key-selects'],
    mutation: {
      request: (q) =>
        q.method === 'GET' && pathOf(q).startsWith('/v2/api/conversations/items/cll-')
          ? { ...q, path: q.path.replace('template_key=MARKDOWN_SHORT_CALL', 'template_key=MARKDOWN_CLASSIC') }
          : q,
    },
  },
  {
    name: 'stamps the caller as creator_id of the queue on every update',
    caughtBy: 'dialer-queues.other-caller',
    only: ['dialer-queues.other-caller'],
    allowWrites: true,
    mutation: {
      response: (r, q) =>
        isQueue(q) && r.status === 200
          ? json(r, (b) => {
              const caller = createHash('sha256')
                .update(q.headers.get('authorization') ?? '')
                .digest('hex');
              (b.data as Record<string, unknown>).creator_id = `usr-${caller.slice(0, 8)}`;
            })
          : r,
    },
  },
  {
    name: 'counts the content limit of a comment in UTF-8 bytes',
    caughtBy: 'threads.content-limits',
    only: ['threads.content-limits'],
    allowWrites: true,
    mutation: {
      request: (q) => {
        const { content } = bodyOf(q);
        if (q.method !== 'POST' || !/\/comments$/.test(pathOf(q)) || typeof content !== 'string') return q;
        if (Buffer.byteLength(content, 'utf8') <= 4000) return q;
        return { ...q, body: JSON.stringify({ content: 'x'.repeat(4001) }) };
      },
    },
  },
  {
    name: "replays one team's keyed answer to another team's request with the same Idempotency-Key",
    caughtBy: 'idempotency.replay',
    only: ['idempotency.replay'],
    allowWrites: true,
    mutation: idempotencyStoreOfAllTeams,
  },
  {
    name: "names the thread's starter as the author of every new comment",
    caughtBy: 'threads.comment-author',
    only: ['threads.comment-author'],
    allowWrites: true,
    mutation: commentByStarter,
  },
  {
    name: 'never finds a tag whose name the path percent-encodes (the path segment not decoded)',
    caughtBy: 'tags.add-remove',
    only: ['tags.add-remove'],
    allowWrites: true,
    mutation: {
      request: (q) => {
        const m = /^(\/v2\/api\/conversations\/items\/[^/]+\/tags\/)([^?]+)$/.exec(q.path);
        if (q.method !== 'DELETE' || !m?.[2]?.includes('%')) return q;
        return { ...q, path: `${m[1]}${m[2].replace(/%/g, '%25')}` };
      },
    },
  },
  {
    name: 'refuses JSON sent with a charset parameter as another media type (415)',
    caughtBy: 'negative.malformed-json',
    only: ['negative.malformed-json'],
    mutation: {
      response: (r, q) =>
        q.headers.get('content-type')?.includes(';')
          ? refuse(415, 'validation_error', 'UNSUPPORTED_MEDIA_TYPE')(r, q)
          : r,
    },
  },
  {
    name: 'blanks the closing message of a receptionist whenever the greeting is sent without it',
    caughtBy: 'receptionist.merge-rules',
    only: ['receptionist.merge-rules'],
    allowWrites: true,
    mutation: {
      request: (q) => {
        const body = bodyOf(q);
        if (q.method !== 'PATCH' || !isAgent(q) || !('greeting_message' in body) || 'closing_message' in body) return q;
        return { ...q, body: JSON.stringify({ ...body, closing_message: '' }) };
      },
    },
  },
  {
    name: 'applies an action given a line to every line of the conversation (svc_number dropped)',
    caughtBy: 'conversations.action-one-line',
    only: ['conversations.action-one-line'],
    allowWrites: true,
    mutation: {
      request: (q) => {
        if (q.method !== 'PUT' || !/^\/v2\/api\/conversations\/[^/]+\/action$/.test(pathOf(q))) return q;
        const { svc_number: _dropped, ...rest } = bodyOf(q);
        return { ...q, body: JSON.stringify(rest) };
      },
    },
  },
  {
    name: "lets the run's key read another team's user by id",
    caughtBy: 'tenants.other-teams-read',
    only: ['tenants.other-teams-read'],
    mutation: readAsOtherTeam(`/v2/api/users/${OTHER_TEAM_USER}`),
  },
  {
    // A thread no list shows: its id comes from the other-team key's `ids` in the sandbox's config.
    name: "lets the run's key read another team's thread by id",
    caughtBy: 'tenants.other-teams-read',
    only: ['tenants.other-teams-read'],
    mutation: readAsOtherTeam('/v2/api/threads/cth-7Mb2vK5p'),
  },
  {
    name: 'applies an action without svc_number to the first line of the conversation only',
    caughtBy: 'conversations.action-one-line',
    only: ['conversations.action-one-line'],
    allowWrites: true,
    mutation: (upstream) => ({
      request: (q) => {
        if (q.method !== 'PUT' || !/^\/v2\/api\/conversations\/[^/]+\/action$/.test(pathOf(q))) return q;
        const body = bodyOf(q);
        if (body.svc_number !== undefined) return q;
        const first = upstream.config.fixtures.lines?.[0] ?? '+14155550100';
        return { ...q, body: JSON.stringify({ ...body, svc_number: first }) };
      },
    }),
  },
  {
    name: 'resets voicemail_handling to NO_SKIP whenever do_not_disturb is sent without it',
    caughtBy: 'dialer-queues.partial-update',
    only: ['dialer-queues.partial-update'],
    allowWrites: true,
    mutation: {
      request: (q) => {
        const body = bodyOf(q);
        if (!isQueue(q) || !('do_not_disturb' in body) || 'voicemail_handling' in body) return q;
        return { ...q, body: JSON.stringify({ ...body, voicemail_handling: 'NO_SKIP' }) };
      },
    },
  },
  {
    name: 'keeps the keys of DELETEs apart: one reused with a comment executes it',
    caughtBy: 'idempotency.key-reuse',
    only: ['idempotency.key-reuse'],
    allowWrites: true,
    // The key of a DELETE never reaches the store the other methods consult.
    mutation: {
      request: (q) => {
        if (q.method !== 'DELETE' || q.headers.get('idempotency-key') === null) return q;
        const headers = new Headers(q.headers);
        headers.delete('idempotency-key');
        return { ...q, headers };
      },
    },
  },
  {
    name: 'takes a note id on the items endpoint for a known kind (404 where the contract refuses the prefix)',
    caughtBy: 'negative.id-prefix',
    only: ['getConversationItem'],
    mutation: {
      response: (r, q) =>
        q.method === 'GET' && pathOf(q).startsWith('/v2/api/conversations/items/not-') && r.status === 400
          ? refuse(404, 'not_found_error', 'CONVERSATION_ITEM_NOT_FOUND')(r, q)
          : r,
    },
  },
  {
    name: 'drops options sent to a TEXT field silently (the other types still refuse them)',
    caughtBy: 'custom-fields.options-not-supported',
    only: ['custom-fields.options-not-supported'],
    allowWrites: true,
    mutation: {
      response: (r, q) =>
        q.method === 'PATCH' && pathOf(q) === `/v2/api/crm/attributes/${TEXT_FIELD}` && r.status === 400
          ? answeredWith(r, { key: TEXT_FIELD, label: 'Account notes', type: 'TEXT', source: 'SVC' })
          : r,
    },
  },
  {
    name: 'forgets to save an UNARCHIVE given a line (the line-scoped branch answers 200 and changes nothing)',
    caughtBy: 'conversations.action-one-line',
    only: ['conversations.action-one-line'],
    allowWrites: true,
    mutation: {
      request: (q) => {
        const body = bodyOf(q);
        if (q.method !== 'PUT' || body.action !== 'UNARCHIVE' || typeof body.svc_number !== 'string') return q;
        // A READ on that line stands in for the save it forgets: 200, and still archived.
        return { ...q, body: JSON.stringify({ ...body, action: 'READ' }) };
      },
    },
  },
  {
    name: 'replays a keyed thread creation as 200 (the stored 201 otherwise kept)',
    caughtBy: 'idempotency.replay',
    only: ['createThread'],
    allowWrites: true,
    mutation: {
      response: (r, q) =>
        q.method === 'POST' && pathOf(q) === '/v2/api/threads' && r.headers.get('idempotency-replayed') === 'true'
          ? { ...r, status: 200 }
          : r,
    },
  },
  {
    name: 'ignores the key of a summary template DELETE (a keyed retry runs it again: 404)',
    caughtBy: 'idempotency.replay',
    only: ['deleteSummaryTemplate'],
    allowWrites: true,
    mutation: forgetsKeys((q) => q.method === 'DELETE' && pathOf(q).startsWith('/v2/api/summary_templates/')),
  },
  {
    name: 'answers a deal without a company with an empty company object',
    caughtBy: 'response.schema',
    only: ['getDeal'],
    mutation: {
      response: (r, q) =>
        q.method === 'GET' && pathOf(q).startsWith('/v2/api/crm/deals/') && r.status === 200
          ? json(r, (b) => {
              const deal = b.data as Record<string, unknown>;
              if (deal.company === null) deal.company = { id: null, name: null };
            })
          : r,
    },
  },
  // Already reached, kept as tests: a collection holding only what was selected; what a DELETE
  // removed is gone for the next request.
  {
    name: 'shows every calendar the receptionist was ever given, not only the ones selected',
    caughtBy: 'receptionist.collections-replaced',
    only: ['receptionist.collections-replaced'],
    allowWrites: true,
    mutation: () => keepsCalendars(),
  },
  {
    name: 'finds a deactivated summary template again (a second DELETE answers 204)',
    caughtBy: 'summary-templates.delete',
    only: ['summary-templates.delete'],
    allowWrites: true,
    mutation: deletesAgain(/^\/v2\/api\/summary_templates\//),
  },
  {
    name: 'finds a removed tag on the item again (a second DELETE answers 204)',
    caughtBy: 'tags.add-remove',
    only: ['tags.add-remove'],
    allowWrites: true,
    mutation: deletesAgain(/\/tags\/[^/]+$/),
  },
];

/** The sandbox behind a relay that lists the team's users without their email (a shape the description leaves open). */
/** Users shown without their email anywhere: in the list and read by id. */
function usersWithoutEmail(upstream: Awaited<ReturnType<typeof sandbox>>) {
  return mutatingProxy(upstream, {
    response: (r, q) =>
      r.status === 200 && q.method === 'GET' && pathOf(q).startsWith('/v2/api/users')
        ? json(r, (b) => {
            for (const user of [b.data].flat() as Array<Record<string, unknown>>) delete user.email;
          })
        : r,
  });
}

describe('rules whose precondition is now reached: each mutant caught by name', () => {
  itCatchesEachByName(CROSSED);

  it('the same subsets pass against the sandbox itself, each check passing (the mutation is what fails them)', async () => {
    const upstream = await sandbox();
    try {
      for (const mutant of new Map(CROSSED.map((m) => [m.only.join(','), m])).values()) {
        const { result, failed } = await runAgainst(upstream, mutant);
        expect(failed, mutant.only.join(',')).toEqual([]);
        const checks = result.report.operations.flatMap((op) => op.checks);
        expect(
          checks.some((c) => c.id === mutant.caughtBy && c.status === 'passed'),
          mutant.caughtBy,
        ).toBe(true);
      }
    } finally {
      await upstream.close();
    }
  });
});

describe('controls: a harmless variation of each open point passes', () => {
  it("a call's last item typed with a value beyond the example CALL (VOICEMAIL, or none at all) passes", async () => {
    const upstream = await sandbox();
    try {
      for (const type of ['VOICEMAIL', '']) {
        const proxied = await mutatingProxy(upstream, {
          response: (r, q) =>
            q.method === 'GET' && pathOf(q) === '/v2/api/conversations' && r.status === 200
              ? json(r, (b) => {
                  for (const entry of b.data as Array<{ last_item?: { id?: string; type?: string } }>)
                    if (entry.last_item?.id?.startsWith('cll-')) entry.last_item.type = type;
                })
              : r,
        });
        try {
          const only = ['listConversations', 'conversations.search'];
          const { failed } = await runAgainst(proxied, { name: `typed ${type}`, caughtBy: '', only });
          expect(failed, type).toEqual([]);
        } finally {
          await proxied.close();
        }
      }
    } finally {
      await upstream.close();
    }
  });

  it('status and is_default sent on a receptionist update: accepted and ignored (the other reading) passes', async () => {
    const upstream = await sandbox();
    const proxied = await mutatingProxy(upstream, {
      request: (q) => {
        const body = bodyOf(q);
        if (q.method !== 'PATCH' || !isAgent(q)) return q;
        const withoutReadOnly = ({ status: _status, is_default: _default, ...rest }: Record<string, unknown>) => rest;
        const agent = body.agent as Record<string, unknown> | undefined;
        const rest = withoutReadOnly(body);
        return { ...q, body: JSON.stringify(agent ? { ...rest, agent: withoutReadOnly(agent) } : rest) };
      },
    });
    try {
      const only = ['receptionist.read-only'];
      const { result, failed } = await runAgainst(proxied, { name: 'ignored', caughtBy: '', only, allowWrites: true });
      expect(failed).toEqual([]);
      const check = result.report.operations.flatMap((op) => op.checks).find((c) => c.id === only[0]);
      expect(check?.status).toBe('passed');
      // Each of the four writes (either value alone, at the top and inside agent) accepted and ignored.
      expect(check?.details.join(' ').match(/accepted, unchanged/g)).toHaveLength(4);
    } finally {
      await proxied.close();
      await upstream.close();
    }
  });

  it("users listed without their email: the teammate's email named in fixtures.teammate_emails serves", async () => {
    const upstream = await sandbox();
    const proxied = await usersWithoutEmail(upstream);
    const target = {
      ...proxied,
      config: {
        ...proxied.config,
        fixtures: { ...proxied.config.fixtures, teammate_emails: ['sam.ortiz@harbordental.com'] },
      },
    };
    try {
      const only = ['dialer-queues.by-email'];
      const { result, failed } = await runAgainst(target, { name: 'no emails', caughtBy: '', only, allowWrites: true });
      expect(failed).toEqual([]);
      const check = result.report.operations.flatMap((op) => op.checks).find((c) => c.id === only[0]);
      expect(check?.status).toBe('passed');
      expect(check?.details.join(' ')).toContain('fixtures.teammate_emails');
    } finally {
      await proxied.close();
      await upstream.close();
    }
  });

  it('users shown without their email, listed or read by id, and no fixture: the check is skipped for the configuration, never passed', async () => {
    const upstream = await sandbox();
    const proxied = await usersWithoutEmail(upstream);
    try {
      const only = ['dialer-queues.by-email'];
      const { result, failed } = await runAgainst(proxied, {
        name: 'no emails',
        caughtBy: '',
        only,
        allowWrites: true,
      });
      expect(failed).toEqual([]);
      const check = result.report.operations.flatMap((op) => op.checks).find((c) => c.id === only[0]);
      expect(check?.status).toBe('skipped');
      expect(check?.skipReasons.join(' ')).toContain('fixtures.teammate_emails');
      // A want of configuration: counted against --max-skipped, so the run does not pass.
      expect(result.exitCode).toBe(1);
    } finally {
      await proxied.close();
      await upstream.close();
    }
  });
});
