// Mutants of rules that show only after a sequence of calls (issue 34: "a rule's precondition never
// reached"): a tag on a second item, one of two tags removed, a thread looked up after its
// creation, a description cleared and listed, options changed then a label sent alone, a label
// freed by a rename, a template deleted under a call with two summaries, a removed member read by
// id, the search and the line filter together. Each a sandbox broken in one way the description
// states, caught by name; and a control where the server may answer in another valid way.
import { afterAll, describe, expect, it } from 'vitest';
import {
  isQueueWrite,
  itCatchesEachByName,
  type Mutant,
  REMOVED_USER,
  removeOutputs,
  runAgainst,
  stickyQueueTarget,
} from './support/mutants.js';
import { isAgent, isFieldList } from './support/requests.js';
import {
  bodyOf,
  json,
  type Mutation,
  mutatingProxy,
  type ProxiedRequest,
  type ProxiedResponse,
  pathOf,
  sandbox,
} from './support/servers.js';

afterAll(removeOutputs);

const tagPath = /^\/v2\/api\/conversations\/items\/([^/]+)\/tags(?:\/([^/]+))?$/;
const queryOf = (q: ProxiedRequest) => new URLSearchParams(q.path.split('?')[1] ?? '');

/** An error answer in the API's dialect, in place of `r`. */
function refusal(status: number, type: string, code: string) {
  return (r: Parameters<NonNullable<Mutation['response']>>[0]) =>
    json({ ...r, status }, (b) => {
      delete b.data;
      b.error = {
        type,
        code,
        message: `refused: ${code}`,
        retryable: false,
        request_id: r.headers.get('x-request-id'),
      };
    });
}

/** A server that keeps a tag team-wide: once on one item, adding it to another is TAG_ALREADY_EXISTS. */
function tagOnOneItemOnly(): Mutation {
  const itemOf = new Map<string, string>();
  return {
    response: (r, q) => {
      const [, item, tag] = tagPath.exec(pathOf(q)) ?? [];
      if (!item) return r;
      if (q.method === 'DELETE' && r.status < 300 && tag) itemOf.delete(decodeURIComponent(tag));
      if (q.method !== 'POST') return r;
      const tags = bodyOf(q).tags;
      const taken = Array.isArray(tags) && tags.some((t) => itemOf.has(String(t)) && itemOf.get(String(t)) !== item);
      if (taken) return refusal(409, 'conflict_error', 'TAG_ALREADY_EXISTS')(r);
      if (r.status < 300 && Array.isArray(tags)) for (const t of tags) itemOf.set(String(t), item);
      return r;
    },
  };
}

/** A server whose removal of one tag takes every tag off the item: the item's next removal finds none. */
function removalClearsItem(): Mutation {
  const cleared = new Set<string>();
  return {
    response: (r, q) => {
      const [, item, tag] = tagPath.exec(pathOf(q)) ?? [];
      if (!item) return r;
      if (q.method === 'POST' && r.status < 300) cleared.delete(item);
      if (q.method !== 'DELETE' || !tag) return r;
      if (cleared.has(item)) return refusal(404, 'not_found_error', 'TAG_NOT_FOUND')(r);
      if (r.status < 300) cleared.add(item);
      return r;
    },
  };
}

/** A server whose lookup by item knows only threads on calls created before it started. */
function lookupMissesNewThreads(): Mutation {
  const created = new Set<string>();
  return {
    response: (r, q) => {
      if (q.method === 'POST' && pathOf(q) === '/v2/api/threads' && r.status < 300) {
        const { entity_type, entity_id } = bodyOf(q);
        if (entity_type !== 'CALL') created.add(String(entity_id));
        return r;
      }
      if (q.method !== 'GET' || pathOf(q) !== '/v2/api/threads') return r;
      return created.has(queryOf(q).get('entity_id') ?? '')
        ? json(r, (b) => {
            b.data = null;
          })
        : r;
    },
  };
}

/** A server that lets another user start a second thread on an item (the check looks at the starter). */
function secondThreadByOthers(upstreamKey: string): Mutation {
  return {
    response: (r, q) => {
      if (q.method !== 'POST' || pathOf(q) !== '/v2/api/threads' || r.status < 400) return r;
      if (q.headers.get('authorization') === `Api-Key ${upstreamKey}`) return r;
      return json({ ...r, status: 201 }, (b) => {
        delete b.error;
        b.data = { id: 'cth-Second01', ...bodyOf(q), comment_count: 1, resolved: false, comments: [] };
      });
    },
  };
}

/** The contact number of a conversation action's path ('' for any other request). */
const contactOf = (q: ProxiedRequest) =>
  decodeURIComponent(/^\/v2\/api\/conversations\/([^/]+)\/action$/.exec(pathOf(q))?.[1] ?? '');

/** A server whose UNARCHIVE also marks the conversation unread (its row says "Also: none"). */
function unarchiveMarksUnread(): Mutation {
  const unread = new Set<string>();
  return {
    response: (r, q) => {
      if (q.method === 'PUT' && r.status < 300 && contactOf(q)) {
        const contact = contactOf(q);
        if (bodyOf(q).action === 'UNARCHIVE') unread.add(contact);
        else unread.delete(contact);
        return r;
      }
      if (q.method !== 'GET' || pathOf(q) !== '/v2/api/conversations') return r;
      return json(r, (b) => {
        for (const entry of Array.isArray(b.data) ? (b.data as Array<Record<string, unknown>>) : [])
          if (unread.has(String(entry.contact_number)) && typeof entry.read === 'boolean') entry.read = false;
      });
    },
  };
}

/** UNREAD taken as "back to the inbox": it unarchives the conversation too (its list entry says archived false). */
function unreadUnarchives(): Mutation {
  const unarchived = new Set<string>();
  return {
    response: (r, q) => {
      if (q.method === 'PUT' && r.status < 300 && contactOf(q)) {
        if (bodyOf(q).action === 'UNREAD') unarchived.add(contactOf(q));
        else if (bodyOf(q).action !== 'READ') unarchived.delete(contactOf(q));
        return r;
      }
      if (q.method !== 'GET' || pathOf(q) !== '/v2/api/conversations') return r;
      return json(r, (b) => {
        for (const entry of Array.isArray(b.data) ? (b.data as Array<Record<string, unknown>>) : [])
          if (unarchived.has(String(entry.contact_number)) && typeof entry.archived === 'boolean')
            entry.archived = false;
      });
    },
  };
}

/** UNARCHIVE brings back the unread state ARCHIVE found (until READ or UNREAD is sent): its list entry says read false. */
function unarchiveRestoresUnread(): Mutation {
  const lastRead = new Map<string, unknown>();
  const archivedUnread = new Set<string>();
  const unreadAgain = new Set<string>();
  return {
    response: (r, q) => {
      const contact = contactOf(q);
      if (q.method === 'PUT' && r.status < 300 && contact) {
        const action = bodyOf(q).action;
        if (action === 'ARCHIVE' && lastRead.get(contact) === false) archivedUnread.add(contact);
        if (action === 'UNARCHIVE' && archivedUnread.delete(contact)) unreadAgain.add(contact);
        if (action === 'READ' || action === 'UNREAD') {
          archivedUnread.delete(contact);
          unreadAgain.delete(contact);
        }
        return r;
      }
      if (q.method !== 'GET' || pathOf(q) !== '/v2/api/conversations') return r;
      return json(r, (b) => {
        for (const entry of Array.isArray(b.data) ? (b.data as Array<Record<string, unknown>>) : []) {
          const number = String(entry.contact_number);
          if (unreadAgain.has(number) && typeof entry.read === 'boolean') entry.read = false;
          lastRead.set(number, entry.read);
        }
      });
    },
  };
}

const fieldKeyOf = (q: ProxiedRequest) => /^\/v2\/api\/crm\/attributes\/([^/]+)$/.exec(pathOf(q))?.[1];
type Field = Record<string, unknown>;
const fieldsOf = (b: Record<string, unknown>) => (Array.isArray(b.data) ? (b.data as Field[]) : []);

/** A server whose list shows each field's options as its first listing showed them (a cache never refreshed). */
function listKeepsFirstOptions(): Mutation {
  const first = new Map<string, unknown>();
  return {
    response: (r, q) =>
      isFieldList(q)
        ? json(r, (b) => {
            for (const f of fieldsOf(b)) {
              const key = String(f.key);
              if (!first.has(key)) first.set(key, f.options);
              else if (f.options !== undefined) f.options = first.get(key);
            }
          })
        : r,
  };
}

/** A server whose list keeps showing a description after a blank value cleared it. */
function listKeepsClearedDescription(): Mutation {
  const last = new Map<string, string>();
  return {
    response: (r, q) => {
      const key = fieldKeyOf(q);
      if (q.method === 'PATCH' && key && r.status < 300) {
        const sent = bodyOf(q).description;
        if (typeof sent === 'string' && sent.trim() !== '') last.set(key, sent);
        return r;
      }
      if (!isFieldList(q)) return r;
      return json(r, (b) => {
        for (const f of fieldsOf(b)) if (last.has(String(f.key))) f.description = last.get(String(f.key));
      });
    },
  };
}

/** A server whose update without options answers the options as first seen (a stale copy written back). */
function labelAloneRestoresOptions(): Mutation {
  const first = new Map<string, unknown>();
  return {
    response: (r, q) => {
      const key = fieldKeyOf(q);
      if (q.method !== 'PATCH' || !key || r.status >= 300) return r;
      return json(r, (b) => {
        const d = b.data as Field | undefined;
        if (!d || !Array.isArray(d.options)) return;
        if (!first.has(key)) first.set(key, d.options);
        else if (!('options' in bodyOf(q))) d.options = first.get(key);
      });
    },
  };
}

/** A server that refuses a new option whose label another option of the field ever had. */
function freedLabelRefused(): Mutation {
  const everHeld = new Map<string, Map<string, string>>();
  return {
    response: (r, q) => {
      const key = fieldKeyOf(q);
      const options = bodyOf(q).options;
      if (q.method !== 'PATCH' || !key || !Array.isArray(options)) return r;
      const held = everHeld.get(key) ?? new Map<string, string>();
      everHeld.set(key, held);
      const sent = options as Field[];
      // A new option whose label an option still there (renamed since) once had.
      const taken = sent.some((o) => {
        const was = held.get(String(o.label));
        return o.key === undefined && was !== undefined && sent.some((p) => p.key === was && p.label !== o.label);
      });
      if (taken) return refusal(400, 'validation_error', 'ATTRIBUTE_OPTION_INVALID')(r);
      if (r.status < 300)
        json(r, (b) => {
          for (const o of ((b.data as Field | undefined)?.options as Field[] | undefined) ?? [])
            held.set(String(o.label), String(o.key));
        });
      return r;
    },
  };
}

/** A server that forgets the summaries of a deleted template: a call with two answers without a key. */
function deletedTemplateSummariesForgotten(): Mutation {
  let deleted = false;
  return {
    response: (r, q) => {
      if (q.method === 'DELETE' && pathOf(q).startsWith('/v2/api/summary_templates/') && r.status < 300) deleted = true;
      const read = q.method === 'GET' && pathOf(q).startsWith('/v2/api/conversations/items/');
      if (!deleted || !read || queryOf(q).has('template_key') || r.status !== 400) return r;
      return json({ ...r, status: 200 }, (b) => {
        delete b.error;
        b.data = { id: pathOf(q).split('/').pop() };
      });
    },
  };
}

/** A server that still answers a removed member by id. */
const removedMemberFound: Mutation = {
  response: (r, q) =>
    q.method === 'GET' && pathOf(q) === `/v2/api/users/${REMOVED_USER}` && r.status === 404
      ? json({ ...r, status: 200 }, (b) => {
          delete b.error;
          b.data = { id: REMOVED_USER, name: 'Removed member' };
        })
      : r,
};

/** A server that drops one of the list's search and line filter when both are given. */
const dropsWhenBothGiven = (dropped: 'search' | 'svc_number'): Mutation => ({
  request: (q) => {
    if (q.method !== 'GET' || pathOf(q) !== '/v2/api/conversations') return q;
    const query = queryOf(q);
    if (!query.has('search') || !query.has('svc_number')) return q;
    query.delete(dropped);
    return { ...q, path: `${pathOf(q)}?${query}` };
  },
});

/** A server whose notes list flags no mention as deleted. */
const listedMentionsNotDeleted: Mutation = {
  response: (r, q) => {
    if (q.method !== 'GET' || !/^\/v2\/api\/conversations\/[^/]+\/notes$/.test(pathOf(q))) return r;
    return json(r, (b) => {
      for (const note of Array.isArray(b.data) ? (b.data as Field[]) : [])
        for (const m of Array.isArray(note.mentions) ? (note.mentions as Field[]) : []) m.deleted = false;
    });
  },
};

/** A server that runs a conversation action again on a replay of its key, and only marks the answer replayed. */
function replayRunsAgain(): Mutation {
  const seen = new Set<string>();
  const rerun = new WeakMap<ProxiedRequest, string>();
  return {
    request: (q) => {
      const key = q.headers.get('idempotency-key');
      if (q.method !== 'PUT' || !pathOf(q).endsWith('/action') || key === null) return q;
      if (!seen.has(key)) {
        seen.add(key);
        return q;
      }
      const headers = new Headers(q.headers);
      headers.delete('idempotency-key');
      const again = { ...q, headers };
      rerun.set(again, key);
      return again;
    },
    response: (r, q) => {
      const key = rerun.get(q);
      if (key === undefined) return r;
      const headers = new Headers(r.headers);
      headers.set('idempotency-replayed', 'true');
      headers.set('idempotency-key', key);
      return { ...r, headers };
    },
  };
}

/** A server whose rename of a queue empties its number entries from then on. */
function renameEmptiesNumbers(): Mutation {
  // Per queue (its assignee): renaming a teammate's queue empties that one only.
  const renamed = new Set<unknown>();
  return {
    response: (r, q) => {
      if (!isQueueWrite(q) || r.status !== 200) return r;
      return json(r, (b) => {
        const queue = b.data as Field;
        if (typeof bodyOf(q).name === 'string') renamed.add(queue.assignee_id);
        if (renamed.has(queue.assignee_id)) queue.numbers = [];
      });
    },
  };
}

/** A server whose next update after a replaced business_hours answers the hours as they were before. */
function hoursComeBack(): Mutation {
  const previous = new Map<string, unknown>();
  const pending = new Set<string>();
  return {
    response: (r, q) => {
      if (!isAgent(q) || r.status !== 200) return r;
      const line = pathOf(q);
      if (q.method === 'GET') {
        if (pending.has(line) && previous.has(line))
          return json(r, (b) => {
            (b.data as Field).business_hours = previous.get(line);
          });
        if (!previous.has(line)) json(r, (b) => previous.set(line, (b.data as Field).business_hours));
        return r;
      }
      if ('business_hours' in bodyOf(q)) pending.delete(line);
      else if (previous.has(line)) pending.add(line);
      return r;
    },
  };
}

/** A server that keeps each key's copy of a receptionist read, answered until that key writes. */
function copyPerKey(): Mutation {
  const copies = new Map<string, ProxiedResponse>();
  return {
    response: (r, q) => {
      if (!isAgent(q)) return r;
      const id = `${q.headers.get('authorization')} ${pathOf(q)}`;
      if (q.method !== 'GET') {
        for (const k of [...copies.keys()]) if (k.startsWith(`${q.headers.get('authorization')} `)) copies.delete(k);
        return r;
      }
      const copy = copies.get(id);
      if (copy) return copy;
      if (r.status === 200) copies.set(id, r);
      return r;
    },
  };
}

const SEQUENCES: Mutant[] = [
  {
    name: 'keeps a tag team-wide: on one item, it cannot be added to another',
    caughtBy: 'tags.per-item',
    only: ['tags.per-item'],
    allowWrites: true,
    mutation: tagOnOneItemOnly,
  },
  {
    name: 'removes every tag of the item when one is removed',
    caughtBy: 'tags.per-item',
    only: ['tags.per-item'],
    allowWrites: true,
    mutation: removalClearsItem,
  },
  {
    name: 'does not find by its item a thread created on a message or a note',
    caughtBy: 'threads.create-content-limits',
    only: ['threads.create-content-limits'],
    allowWrites: true,
    mutation: lookupMissesNewThreads,
  },
  {
    name: 'lets another key of the team start a second thread on an item',
    caughtBy: 'threads.duplicate',
    only: ['threads.duplicate'],
    allowWrites: true,
    mutation: (upstream) => secondThreadByOthers(upstream.apiKey),
  },
  {
    name: 'marks the conversation unread on UNARCHIVE',
    caughtBy: 'conversations.archive',
    only: ['conversations.archive'],
    allowWrites: true,
    mutation: unarchiveMarksUnread,
  },
  {
    name: 'unarchives a conversation on UNREAD',
    caughtBy: 'conversations.archive',
    only: ['conversations.archive'],
    allowWrites: true,
    mutation: unreadUnarchives,
  },
  {
    name: 'brings back on UNARCHIVE the unread state ARCHIVE found',
    caughtBy: 'conversations.archive',
    only: ['conversations.archive'],
    allowWrites: true,
    mutation: unarchiveRestoresUnread,
  },
  {
    name: "lists each custom field's options as its first listing showed them",
    caughtBy: 'custom-fields.options-listed',
    only: ['custom-fields.options-listed'],
    allowWrites: true,
    mutation: listKeepsFirstOptions,
  },
  {
    name: 'lists a custom field with the description a blank value cleared',
    caughtBy: 'custom-fields.description',
    only: ['custom-fields.description'],
    allowWrites: true,
    mutation: listKeepsClearedDescription,
  },
  {
    name: 'writes back the options as first seen on an update without options',
    caughtBy: 'custom-fields.option-rules',
    only: ['custom-fields.option-rules'],
    allowWrites: true,
    mutation: labelAloneRestoresOptions,
  },
  {
    name: 'refuses a new option whose label a renamed option once had',
    caughtBy: 'custom-fields.option-rules',
    only: ['custom-fields.option-rules'],
    allowWrites: true,
    mutation: freedLabelRefused,
  },
  {
    name: 'answers a call with two summaries without a template key once a template is deleted',
    caughtBy: 'summary-templates.delete-keeps-summaries',
    only: ['summary-templates.delete-keeps-summaries'],
    allowWrites: true,
    mutation: deletedTemplateSummariesForgotten,
    replayRestarted:
      'the run deactivates the template; a server started again has it active, so the replay can delete it',
  },
  {
    name: 'runs a keyed conversation action again on its replay, marking the answer replayed',
    caughtBy: 'conversations.replay-not-rerun',
    only: ['conversations.replay-not-rerun'],
    allowWrites: true,
    mutation: replayRunsAgain,
  },
  {
    name: 'keeps updating the teammate a key named last when the next update names no one',
    caughtBy: 'dialer-queues.owner-by-default',
    only: ['dialer-queues.owner-by-default'],
    allowWrites: true,
    mutation: stickyQueueTarget({ emptyToOwner: false }),
  },
  {
    name: 'empties the queue number entries once the queue is renamed',
    caughtBy: 'dialer-queues.partial-update',
    // The whole operation: its generated checks rename the queue too, and must not do so first.
    only: ['upsertCurrentDialingQueue'],
    allowWrites: true,
    mutation: renameEmptiesNumbers,
    replayRestarted: 'the run renamed the queue, so the entries are gone: only a server started again has them to lose',
  },

  {
    name: 'brings business_hours back as they were when the next update sends something else',
    caughtBy: 'receptionist.collections-replaced',
    only: ['receptionist.collections-replaced'],
    allowWrites: true,
    mutation: hoursComeBack,
  },
  {
    name: 'answers each key the receptionist copy it read first, until that key writes',
    caughtBy: 'receptionist.merge-rules',
    only: ['receptionist.merge-rules'],
    allowWrites: true,
    mutation: copyPerKey,
  },
  {
    name: 'answers a member removed from the team by id',
    caughtBy: 'users.removed-not-found',
    only: ['users.removed-not-found'],
    mutation: removedMemberFound,
  },
  {
    name: 'drops the line filter when a search is given too',
    caughtBy: 'conversations.search-on-line',
    only: ['conversations.search-on-line'],
    mutation: dropsWhenBothGiven('svc_number'),
  },
  {
    name: 'drops the search when the line filter is given too',
    caughtBy: 'conversations.search-on-line',
    only: ['conversations.search-on-line'],
    mutation: dropsWhenBothGiven('search'),
  },
  {
    name: "flags no mention deleted in a conversation's notes list",
    caughtBy: 'notes.mention-deleted',
    only: ['notes.mention-deleted'],
    mutation: listedMentionsNotDeleted,
  },
];

describe('rules reached through a sequence of calls: each mutant caught by name', () => {
  itCatchesEachByName(SEQUENCES);
});

describe('controls', () => {
  it('custom fields listed in another order (by label): the description checks pass, none skipped', async () => {
    const upstream = await sandbox();
    const byLabel: Mutation = {
      response: (r, q) =>
        isFieldList(q)
          ? json(r, (b) => {
              fieldsOf(b).sort((x, y) => String(x.label).localeCompare(String(y.label)));
            })
          : r,
    };
    const proxy = await mutatingProxy(upstream, byLabel);
    try {
      const only = ['custom-fields.description', 'custom-fields.partial-update'];
      const { result, failed } = await runAgainst(proxy, { name: 'by label', caughtBy: '', only, allowWrites: true });
      expect(failed).toEqual([]);
      const statuses = result.report.operations
        .flatMap((op) => op.checks)
        .filter((c) => only.includes(c.id))
        .map((c) => [c.id, c.status]);
      expect(statuses).toEqual(only.map((id) => [id, 'passed']));
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });
});
