// Conversation notes: listed per conversation (contact number), fetched by not- id. The notes of
// every conversation are listed by discovery (fixtures.discovery fails a refused list), and
// reads.every-fixture fetches each note found there; notes.mention-deleted reads their mentions.
// A note the config names (one a list might leave out: on no line) is looked for in its list.
import { isObject } from '@svc/spec-runtime';
import { need } from '../fixtures.js';
import type { Exchange } from '../http/exchange.js';
import { loadSpec } from '../spec.js';
import { readEachFixture } from './each-fixture.js';
import { type CheckContext, contractOperation, type Problem, rule } from './harness.js';
import { operationChecks } from './operation-checks.js';
import { unless } from './problems.js';
import { morePages, valuesIn } from './search-words.js';
import { data, deepEqual, ok, removedMembers, short } from './support.js';

const LIST_NOTES = 'listConversationNotes';

operationChecks(LIST_NOTES, {
  baseline: (_t, f) => ({
    params: { contact_number: need(f.contacts[0], 'a conversation (GET /v2/api/conversations listed none)') },
  }),
  // Another team's key lists the notes of a conversation of the team that has some: a list falling
  // through to other teams shows them (a conversation with none would show nothing either way).
  otherTeam: async (t, f) => {
    const contacts = f.contacts.slice(0, t.config.fixturesPerKind ?? 20);
    for (const contact_number of contacts) {
      const listed = await t.call({ params: { contact_number } }, {}, LIST_NOTES);
      // The list's shape is not shown: a note of the team known by id is what shows it has some.
      if (f.notes.some((note) => listed.text.includes(note.id))) return { params: { contact_number } };
    }
    return {
      params: { contact_number: need(f.contacts[0], 'a conversation (GET /v2/api/conversations listed none)') },
    };
  },
});

operationChecks('getConversationNote', {
  baseline: (_t, f) => ({
    params: { id: need(f.notes[0], 'a note id (no conversation listed notes; or set fixtures.note_ids)').id },
  }),
});

readEachFixture('getConversationNote', {
  param: 'id',
  ids: (f) => f.notes.map((n) => n.id),
  what: "notes (each conversation's notes, fixtures.note_ids)",
});

interface NoteMentions {
  removed: ReadonlySet<string>;
  teammates: ReadonlySet<string>;
  reads: Array<{ id: string; exchange: Exchange; mentions: Array<Record<string, unknown>> }>;
  /** The notes of each conversation whose note mentions a removed member, listed (the list's shape is not shown). */
  lists: Array<{ contact: string; exchange: Exchange }>;
}

/** The mentions an answer carries anywhere, whatever its shape: objects with a user_id and a boolean deleted. */
function mentionsIn(body: unknown): Array<Record<string, unknown>> {
  return [...valuesIn(body)].filter(
    (v): v is Record<string, unknown> => isObject(v) && typeof v.user_id === 'string' && typeof v.deleted === 'boolean',
  );
}

/** A mention's user as the rule knows it: removed (the config), a teammate (listed), or neither. */
function standing(s: NoteMentions, user: string): 'removed' | 'teammate' | undefined {
  if (s.removed.has(user)) return 'removed';
  return s.teammates.has(user) ? 'teammate' : undefined;
}

/** A note as its conversation lists it mentions what it mentions read by id, each mention alike (name, deleted). */
function listedAsRead(s: NoteMentions, { contact, exchange }: NoteMentions['lists'][number]): Problem[] {
  const listed = [...valuesIn(exchange.body)].filter(
    (v): v is Record<string, unknown> => isObject(v) && typeof v.id === 'string',
  );
  return s.reads.flatMap(({ id, mentions }) => {
    const entry = listed.find((v) => v.id === id);
    if (!entry || !Array.isArray(entry.mentions)) return [];
    return unless(
      deepEqual(entry.mentions, mentions),
      `${id} as the notes of ${contact} list it mentions ${short(entry.mentions)}; read by id, ${short(mentions)}`,
      exchange,
    );
  });
}

// A note is never written by the API: the notes known are read, and each mention of a user whose
// standing is known is judged: removed from the team (named in the config), deleted true; a
// teammate GET /v2/api/users lists, deleted false.
rule({
  id: 'notes.mention-deleted',
  title:
    "Each known note's mentions say whether the user was removed: deleted true for a member since removed (named in --config), false for a listed teammate; its conversation's notes list each mention as the note read by id shows it",
  source:
    'NoteMention deleted: "true when the mentioned user has since been removed from the team"; ConversationNote "mentions (array of NoteMention)"',
  precondition:
    "a known note mentioning a member removed from the team (fixtures.removed_user_ids: no operation removes one), read by id and in its conversation's notes; a note mentioning several, listed too (each mention as read by id)",
  operationId: 'getConversationNote',
  resource: loadSpec().resourceOf(contractOperation('getConversationNote')),
  needs: { stateful: true },
  requests: async (t): Promise<NoteMentions> => {
    const removed = new Set(removedMembers(t));
    const f = await t.fixtures();
    const reads: NoteMentions['reads'] = [];
    for (const { id } of f.notes.slice(0, t.config.fixturesPerKind ?? 20)) {
      const exchange = await t.call({ params: { id } });
      const mentions = data(exchange)?.mentions;
      reads.push({ id, exchange, mentions: Array.isArray(mentions) ? mentions.filter(isObject) : [] });
    }
    // The same notes as their conversation lists them: a mention shown there says the same.
    const lists: NoteMentions['lists'] = [];
    const contacts = new Set(
      reads
        .filter((r) => r.mentions.length > 1 || r.mentions.some((m) => removed.has(String(m.user_id))))
        .map((r) => data(r.exchange)?.contact_number)
        .filter((c): c is string => typeof c === 'string'),
    );
    for (const contact of contacts)
      lists.push({ contact, exchange: await t.call({ params: { contact_number: contact } }, {}, LIST_NOTES) });
    return { removed, teammates: new Set(f.users), reads, lists };
  },
  problems: (s) => [
    ...s.lists.flatMap((list) => listedAsRead(s, list)),
    ...s.lists.flatMap(({ contact, exchange }) =>
      mentionsIn(exchange.body)
        .filter((m) => s.removed.has(String(m.user_id)) && m.deleted !== true)
        .map((m) => ({
          message: `the notes of ${contact} as listed mention ${String(m.user_id)}, removed from the team, with deleted ${short(m.deleted)}`,
          exchange,
        })),
    ),
    ...s.reads.flatMap(({ id, exchange, mentions }) =>
      mentions.flatMap((m) => {
        const user = String(m.user_id);
        const was = standing(s, user);
        if (was === undefined || m.deleted === (was === 'removed')) return [];
        return [
          {
            message: `${id} mentions ${user}, ${was === 'removed' ? 'removed from the team' : 'a listed teammate'}, with deleted ${short(m.deleted)}`,
            exchange,
          },
        ];
      }),
    ),
  ],
  notReached: (s) =>
    s.reads.some((r) => r.mentions.some((m) => s.removed.has(String(m.user_id))))
      ? undefined
      : `no known note (of ${s.reads.length} read) mentions a member named in fixtures.removed_user_ids`,
  passed: (s) => `${s.reads.length} notes read; mentions of removed members deleted true, of teammates false`,
});

interface NoteListed {
  id: string;
  read: Exchange;
  contact?: string;
  list?: Exchange;
}

/** Each note the config names, read by id, then its conversation's notes (by the note's contact number). */
async function namedNotesListed(t: CheckContext): Promise<NoteListed[]> {
  const named = t.config.config.fixtures.note_ids ?? [];
  if (named.length === 0)
    return t.skip(
      'no note is named (fixtures.note_ids): the notes discovery knows are those the lists showed',
      'option',
    );
  const lists = new Map<string, Exchange>();
  const found: NoteListed[] = [];
  for (const id of named.slice(0, t.config.fixturesPerKind ?? 20)) {
    const read = await t.call({ params: { id } }, {}, 'getConversationNote');
    const contact = data(read)?.contact_number;
    if (!ok(read) || typeof contact !== 'string') {
      found.push({ id, read });
      continue;
    }
    const list = lists.get(contact) ?? (await t.call({ params: { contact_number: contact } }, {}, LIST_NOTES));
    lists.set(contact, list);
    found.push({ id, read, contact, list });
  }
  return found;
}

rule({
  id: 'notes.listed-in-conversation',
  title:
    "A note read by id is in its conversation's notes: the list of the note's contact number holds it, a note on no line too",
  source:
    '"GET /v2/api/conversations/{contact_number}/notes | Lists a conversation\'s notes"; ConversationNote: "contact_number | string | Contact\'s phone number", "svc_number | string or null"',
  precondition:
    'notes named in the config (fixtures.note_ids: a sandbox names its notes on no line), read by id 2xx with a contact number, then the notes of that contact listed 2xx',
  operationId: LIST_NOTES,
  resource: loadSpec().resourceOf(contractOperation(LIST_NOTES)),
  needs: {},
  requests: namedNotesListed,
  problems: (found) =>
    found.flatMap(({ id, contact, list }) =>
      list && ok(list) && !morePages(list)
        ? unless(
            list.text.includes(id),
            `${id}, a note of ${contact} read by id, is not in the notes of ${contact}`,
            list,
          )
        : [],
    ),
  passed: (found) => `${found.map((n) => n.id).join(', ')}: each in its conversation's notes`,
  notReached: (found) =>
    found.some((n) => n.list && ok(n.list) && !morePages(n.list))
      ? undefined
      : 'no named note was read with a contact number whose notes then listed 2xx whole (pagination.has_more not true)',
});
