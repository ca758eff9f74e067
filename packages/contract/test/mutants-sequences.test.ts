// Mutants of rules reached only after a sequence of calls (the queue, the receptionist, replays), from
// held-out broken servers that passed the suite: each a sandbox broken in one way the description
// states, caught by name. Each passed the suite before these checks were changed (its comment says
// how), and the same subsets pass against the sandbox itself.
import { afterAll, describe } from 'vitest';
import {
  isQueueWrite,
  itCatchesEachByName,
  itPassesEachAgainstTheSandbox,
  keepsFirstAnswers,
  type Mutant,
  REMOVED_USER,
  removeOutputs,
  stickyQueueTarget,
} from './support/mutants.js';
import { isAgent, isFieldUpdate } from './support/requests.js';
import {
  bodyOf,
  json,
  type Mutation,
  type ProxiedRequest,
  type ProxiedResponse,
  pathOf,
  type Target,
} from './support/servers.js';

afterAll(removeOutputs);

type Field = Record<string, unknown>;

const isObject = (v: unknown): v is Field => typeof v === 'object' && v !== null && !Array.isArray(v);
const dataOf = (r: ProxiedResponse): Field | undefined => {
  try {
    const body = JSON.parse(r.body) as Field;
    return isObject(body.data) ? body.data : undefined;
  } catch {
    return undefined;
  }
};

/**
 * A server that empties a queue's number entries once one of its settings (do_not_disturb,
 * voicemail_handling) is changed. The old check compared only the name on the write that moved the
 * settings, and every later step with the queue as the step before left it.
 */
function settingChangeEmptiesNumbers(): Mutation {
  const seen = new Map<string, Field>();
  const emptied = new Set<string>();
  return {
    response: (r, q) => {
      if (!isQueueWrite(q) || r.status !== 200) return r;
      const queue = dataOf(r);
      const id = String(queue?.id);
      const was = seen.get(id);
      const sent = bodyOf(q);
      if (was && ['do_not_disturb', 'voicemail_handling'].some((f) => f in sent && sent[f] !== was[f])) emptied.add(id);
      if (queue) seen.set(id, queue);
      return emptied.has(id)
        ? json(r, (b) => {
            (b.data as Field).numbers = [];
          })
        : r;
    },
  };
}

/**
 * A server that rewrites the knowledge block from the body whenever knowledge.text is written (as
 * it is, too): websites and files gone. The old suite wrote the configuration back whole (the
 * generated checks' baseline, receptionist.write-back) before receptionist.merge-rules, which then
 * found no websites or files and reported itself not exercised.
 */
function knowledgeTextEmptiesEntries(): Mutation {
  const hit = new Set<string>();
  return {
    response: (r, q) => {
      if (!isAgent(q) || r.status >= 300) return r;
      const body = bodyOf(q);
      const knowledge = (body.knowledge ?? (isObject(body.agent) ? body.agent.knowledge : undefined)) as
        | Field
        | undefined;
      if (q.method === 'PATCH' && typeof knowledge?.text === 'string') hit.add(pathOf(q));
      if (!hit.has(pathOf(q))) return r;
      return json(r, (b) => {
        const k = (b.data as Field | undefined)?.knowledge as Field | undefined;
        if (k) Object.assign(k, { websites: [], files: [] });
      });
    },
  };
}

const COLLECTIONS = ['capabilities', 'business_hours', 'transfer_rules', 'scheduling'];

/**
 * A server whose next update that changes a value, after a collection was replaced, writes back the
 * collection as it was before (a stale copy merged with the body); an update changing nothing is
 * skipped. The old check wrote the next value as it was.
 */
function nextChangeBringsBackCollection(): Mutation {
  const read = new Map<string, Field>();
  const previous = new Map<string, Field>();
  const changes = (body: Field, config: Field | undefined): boolean => {
    const knowledge = isObject(body.knowledge) ? body.knowledge : {};
    const agent = isObject(config?.agent) ? config.agent : {};
    const text = isObject(config?.knowledge) ? config.knowledge.text : undefined;
    const flat = { ...body, ...(isObject(body.agent) ? body.agent : {}) };
    return (
      ('text' in knowledge && knowledge.text !== text) ||
      Object.entries(flat).some(([k, v]) => typeof v === 'string' && k in agent && agent[k] !== v)
    );
  };
  return {
    request: (q) => {
      if (!isAgent(q) || q.method !== 'PATCH') return q;
      const line = pathOf(q);
      const body = bodyOf(q);
      const sent = COLLECTIONS.filter((c) => c in body);
      const config = read.get(line);
      if (sent.length > 0) {
        previous.set(line, Object.fromEntries(sent.map((c) => [c, config?.[c]])));
        return q;
      }
      const stale = previous.get(line);
      if (!stale || !changes(body, config)) return q;
      previous.delete(line);
      return { ...q, body: JSON.stringify({ ...body, ...stale }) };
    },
    response: (r, q) => {
      if (isAgent(q) && q.method === 'GET' && r.status === 200) {
        const config = dataOf(r);
        if (config) read.set(pathOf(q), config);
      }
      return r;
    },
  };
}

/**
 * A server that keeps a copy of each receptionist read per key, for team-wide keys that may write
 * it, dropped only when that key writes. The old check read with a line-limited key and a read-only
 * one only, which this server never copies for.
 */
function writerKeyCopies(upstream: Target): Mutation {
  const copied = new Set(
    upstream.config.keys
      .filter((k) => k.kind === undefined && k.scopes.includes('AGENTS_WRITE'))
      .map((k) => `Api-Key ${k.key}`),
  );
  const copies = new Map<string, ProxiedResponse>();
  return {
    response: (r, q) => {
      const auth = q.headers.get('authorization') ?? '';
      if (!isAgent(q) || !copied.has(auth)) return r;
      const id = `${auth} ${pathOf(q)}`;
      if (q.method !== 'GET') {
        for (const k of [...copies.keys()]) if (k.startsWith(`${auth} `)) copies.delete(k);
        return r;
      }
      const copy = copies.get(id);
      if (copy) return copy;
      if (r.status === 200) copies.set(id, r);
      return r;
    },
  };
}

/**
 * A server that answers a voice_id update with the value sent but keeps the voice it had: every
 * later read shows the old one. The old check changed only free text and the first agent value.
 */
function voiceNotKept(): Mutation {
  return {
    request: (q) => {
      if (!isAgent(q) || q.method !== 'PATCH') return q;
      const body = bodyOf(q);
      const agent = isObject(body.agent) ? body.agent : {};
      if (body.voice_id === undefined && agent.voice_id === undefined) return q;
      const { voice_id: _flat, ...rest } = body;
      const { voice_id: _nested, ...restAgent } = agent;
      const kept = isObject(body.agent) ? { ...rest, agent: restAgent } : rest;
      return { ...q, body: JSON.stringify(kept) };
    },
  };
}

/**
 * A server that still matches a removed member's id as the queue's teammate: the update lands on
 * the key owner's queue, 200. The old check sent only ids and emails matching no one.
 */
function removedAssigneeAccepted(): Mutation {
  return {
    request: (q) => {
      if (!isQueueWrite(q) || bodyOf(q).user_id !== REMOVED_USER) return q;
      const { user_id: _removed, ...rest } = bodyOf(q);
      return { ...q, body: JSON.stringify(rest) };
    },
  };
}

/**
 * A server that replays a keyed write with the stored response's X-Request-Id (the first request's)
 * instead of the one the repeat was sent with. The old checks sent the repeats with no request id.
 */
function replayAnswersStoredRequestId(): Mutation {
  const first = new Map<string, string>();
  return {
    response: (r, q) => {
      const key = q.headers.get('idempotency-key');
      if (key === null) return r;
      const id = `${q.headers.get('authorization')} ${key} ${q.method} ${pathOf(q)}`;
      const stored = first.get(id);
      if (r.headers.get('idempotency-replayed') === 'true' && stored !== undefined) {
        const headers = new Headers(r.headers);
        headers.set('x-request-id', stored);
        return { ...r, headers };
      }
      if (r.status < 300 && stored === undefined) first.set(id, r.headers.get('x-request-id') ?? '');
      return r;
    },
  };
}

/**
 * A server that keeps a stored response only briefly: a key sent again after four other requests
 * reaches the operation as a new, unkeyed request (executed again, not replayed). Counted in
 * requests, not seconds, so that the mutant does not depend on the machine's speed.
 */
function storedBriefly(): Mutation {
  let seen = 0;
  const firstAt = new Map<string, number>();
  return {
    request: (q) => {
      seen += 1;
      const key = q.headers.get('idempotency-key');
      if (key === null) return q;
      const id = `${q.headers.get('authorization')} ${key}`;
      const at = firstAt.get(id);
      if (at === undefined) firstAt.set(id, seen);
      if (at === undefined || seen - at <= 4) return q;
      const headers = new Headers(q.headers);
      headers.delete('idempotency-key');
      return { ...q, headers };
    },
  };
}

/**
 * A custom field's update that sends no label writes back the label the field's first answered
 * update showed (a stale copy): the update after a label change undoes it.
 */
function staleLabelWrittenBack(): Mutation {
  const first = new Map<string, unknown>();
  return {
    request: (q) => {
      const sent = bodyOf(q);
      if (!isFieldUpdate(q) || sent.label !== undefined || !first.has(pathOf(q))) return q;
      return { ...q, body: JSON.stringify({ ...sent, label: first.get(pathOf(q)) }) };
    },
    response: (r, q) => {
      if (isFieldUpdate(q) && r.status === 200 && !first.has(pathOf(q))) first.set(pathOf(q), dataOf(r)?.label);
      return r;
    },
  };
}

/** A conversation action sent again in the state it already brought moves the conversation's last_activity. */
function repeatTouches(): Mutation {
  const last = new Map<string, unknown>();
  const touched = new Map<string, string>();
  return {
    request: (q) => {
      const action = /^\/v2\/api\/conversations\/([^/]+)\/action$/.exec(pathOf(q));
      if (q.method !== 'PUT' || !action?.[1]) return q;
      const contact = decodeURIComponent(action[1]);
      const sent = bodyOf(q).action;
      if (last.get(contact) === sent) touched.set(contact, new Date(Date.now() + 60_000).toISOString());
      last.set(contact, sent);
      return q;
    },
    response: (r, q) =>
      q.method === 'GET' && pathOf(q) === '/v2/api/conversations' && r.status === 200
        ? json(r, (b) => {
            for (const entry of (b.data ?? []) as Field[]) {
              const at = touched.get(String(entry.contact_number));
              if (at) entry.last_activity = at;
            }
          })
        : r,
  };
}

/** A replayed update of a person is executed again: the people search shows it touched once more. */
function replayedPersonTouched(): Mutation {
  const touched = new Map<string, string>();
  return {
    response: (r, q) => {
      const person = /^\/v2\/api\/crm\/people\/(per-[^/]+)$/.exec(pathOf(q))?.[1];
      if (q.method === 'PUT' && person && r.headers.get('idempotency-replayed') === 'true')
        touched.set(person, new Date(Date.now() + 60_000).toISOString().replace(/\.\d+Z$/, 'Z'));
      if (q.method !== 'POST' || pathOf(q) !== '/v2/api/crm/people/search' || r.status !== 200) return r;
      return json(r, (b) => {
        for (const entry of (b.data ?? []) as Field[]) {
          const at = touched.get(String(entry.id));
          if (at) entry.updated_at = at;
        }
      });
    },
  };
}

/** Tags added through the API show on the item only to the key that added them. */
function tagsSeenByAdderOnly(): Mutation {
  const addedBy = new Map<string, { key: string; tags: unknown[] }[]>();
  const itemOf = (q: ProxiedRequest, suffix: string) =>
    new RegExp(`^/v2/api/conversations/items/([^/]+)${suffix}$`).exec(pathOf(q))?.[1];
  return {
    response: (r, q) => {
      const key = q.headers.get('authorization') ?? '';
      const tagged = q.method === 'POST' ? itemOf(q, '/tags') : undefined;
      if (tagged && r.status < 300) {
        const tags = bodyOf(q).tags;
        addedBy.set(tagged, [...(addedBy.get(tagged) ?? []), { key, tags: Array.isArray(tags) ? tags : [] }]);
      }
      const read = q.method === 'GET' ? itemOf(q, '') : undefined;
      const hidden = (addedBy.get(read ?? '') ?? []).filter((a) => a.key !== key).flatMap((a) => a.tags);
      if (!read || r.status !== 200 || hidden.length === 0) return r;
      return json(r, (b) => {
        const data = b.data as Field | undefined;
        if (data && Array.isArray(data.tags)) data.tags = data.tags.filter((tag) => !hidden.includes(tag));
      });
    },
  };
}

const SEQUENCES: Mutant[] = [
  {
    name: 'applies an update naming no one that changes something to the teammate the key named last',
    caughtBy: 'dialer-queues.owner-by-default',
    only: ['dialer-queues.owner-by-default'],
    allowWrites: true,
    // The old check followed the targeted update with an empty one, which this server leaves to the owner.
    mutation: stickyQueueTarget({ emptyToOwner: true }),
  },
  {
    name: 'empties the queue number entries once a setting of the queue is changed',
    caughtBy: 'dialer-queues.partial-update',
    only: ['upsertCurrentDialingQueue'],
    allowWrites: true,
    mutation: settingChangeEmptiesNumbers,
    replayRestarted:
      'the run moved the settings, so the entries are gone: only a server started again has them to lose',
  },
  {
    name: 'empties the knowledge websites and files whenever knowledge.text is written, as it is too',
    caughtBy: 'receptionist.merge-rules',
    // The whole operation: its generated checks and the write-back write knowledge.text too.
    only: ['updateReceptionist'],
    allowWrites: true,
    mutation: knowledgeTextEmptiesEntries,
    replayRestarted:
      'the run wrote knowledge.text, so the websites and files are gone: only a server started again has them to lose',
  },
  {
    name: 'brings a replaced collection back on the next update that changes another value',
    caughtBy: 'receptionist.collections-replaced',
    only: ['receptionist.collections-replaced'],
    allowWrites: true,
    mutation: nextChangeBringsBackCollection,
  },
  {
    name: 'answers a team-wide key that may write the receptionist copy it read first, until that key writes',
    caughtBy: 'receptionist.merge-rules',
    only: ['receptionist.merge-rules'],
    allowWrites: true,
    mutation: writerKeyCopies,
  },
  {
    name: 'answers a voice_id update as sent but keeps the voice it had',
    caughtBy: 'receptionist.merge-rules',
    only: ['receptionist.merge-rules'],
    allowWrites: true,
    mutation: voiceNotKept,
  },
  {
    name: "takes a removed member's id as the queue's teammate (the owner's queue answered)",
    caughtBy: 'dialer-queues.unknown-assignee',
    only: ['dialer-queues.unknown-assignee'],
    allowWrites: true,
    mutation: removedAssigneeAccepted,
  },
  {
    name: "replays a keyed write with the stored request's X-Request-Id, not the repeat's own",
    caughtBy: 'idempotency.replay',
    only: ['idempotency.replay'],
    allowWrites: true,
    mutation: replayAnswersStoredRequestId,
  },
  {
    name: 'keeps a stored response for four requests, not an hour: a key sent again later is executed again',
    caughtBy: 'idempotency.kept',
    only: ['idempotency.replay', 'idempotency.kept'],
    allowWrites: true,
    mutation: storedBriefly,
  },
  {
    name: 'writes back the label a custom field had before its first change on the update after it',
    caughtBy: 'custom-fields.partial-update',
    only: ['custom-fields.partial-update'],
    allowWrites: true,
    mutation: staleLabelWrittenBack,
  },
  {
    // Another key's own queue, as it first read it: a change the run key made for its owner never shows to it.
    name: "keeps each other key's own queue as it first read it, whatever is changed for its owner",
    caughtBy: 'dialer-queues.key-owner',
    only: ['dialer-queues.key-owner'],
    allowWrites: true,
    mutation: keepsFirstAnswers((q) => isQueueWrite(q) && Object.keys(bodyOf(q)).length === 0, false),
  },
  {
    name: 'shows the tags a key added on the item to that key only',
    caughtBy: 'tags.add-remove',
    only: ['tags.add-remove'],
    allowWrites: true,
    mutation: tagsSeenByAdderOnly,
  },
  {
    name: "moves a conversation's last_activity on an action repeated in the state it brought",
    caughtBy: 'conversations.action-idempotent',
    only: ['conversations.action-idempotent'],
    allowWrites: true,
    mutation: repeatTouches,
  },
  {
    name: 'executes a replayed update of a person again (the search shows it touched)',
    caughtBy: 'idempotency.replay',
    only: ['updatePerson'],
    allowWrites: true,
    mutation: replayedPersonTouched,
  },
];

describe('mutants reached after a sequence of calls: each caught by name', () => {
  itCatchesEachByName(SEQUENCES);
  itPassesEachAgainstTheSandbox(SEQUENCES);
});
