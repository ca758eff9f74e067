// What a mention lists (NoteMention: user_id, name, deleted), from the states a run's own mentions
// never reached before (issue 34): a current teammate other than the one every check mentions, a
// member since removed from the team, and a user id the team never had. Each is a comment on the
// run's probe thread, read back with GET /v2/api/threads/{id} (whose comments show their mentions).
//
// The name of a mention is not defined beyond "string or null", and the syntax writes a display
// name inline: a teammate is mentioned under the name the API itself shows for them (the author of a
// note or comment, NoteUser), so that the name written and the teammate's name agree, and either
// reading (the name written, the teammate's name) expects the same value; null is accepted too.
import { isObject } from '@svc/spec-runtime';
import type { Exchange } from '../http/exchange.js';
import { type CheckContext, type Problem, rule, statefulWrite } from './harness.js';
import { data, ok, probeText, removedMembers, short } from './support.js';
import { comment, probeThread, readThread, type ThreadRead } from './threads.contract.js';

const COMMENT = 'addThreadComment';

/** At most this many notes and threads are read to learn teammates' names, and teammates mentioned. */
const READS = 2;
const MENTIONED = 3;

interface Teammate {
  id: string;
  name: string;
}

/** A name the inline syntax can carry: no bracket or parenthesis that would end it early. */
const writable = (name: unknown): name is string =>
  typeof name === 'string' && name.trim() !== '' && !/[[\]()]/.test(name);

/** The authors (NoteUser: id, name) of a note or of a thread's comments. */
function authorsIn(exchange: Exchange): Teammate[] {
  const d = data(exchange);
  const comments = Array.isArray(d?.comments) ? d.comments : [];
  return [d, ...comments].flatMap((node) => {
    const user = isObject(node) ? node.user : undefined;
    return isObject(user) && typeof user.id === 'string' && writable(user.name)
      ? [{ id: user.id, name: user.name }]
      : [];
  });
}

/** Current teammates (listed by GET /v2/api/users) whose name the API shows as the author of a note or comment. */
async function namedTeammates(t: CheckContext): Promise<Teammate[]> {
  const f = await t.fixtures();
  const current = new Set(f.users);
  const reads = [
    ...f.notes.slice(0, READS).map((n) => t.call({ params: { id: n.id } }, {}, 'getConversationNote')),
    ...f.threads.slice(0, READS).map((th) => t.call({ params: { id: th.id } }, {}, 'getThread')),
  ];
  const found = new Map<string, Teammate>();
  for (const read of reads)
    for (const author of authorsIn(await read))
      if (current.has(author.id) && !found.has(author.id)) found.set(author.id, author);
  return [...found.values()].slice(0, MENTIONED);
}

/** A comment on the probe thread mentioning `who`, and the thread read back after it. */
interface Mentioning {
  who: Array<{ id: string; written: string }>;
  content: string;
  added: Exchange;
  read?: ThreadRead;
}

async function mentionIn(t: CheckContext, what: string, who: Mentioning['who']): Promise<Mentioning> {
  const thread = await probeThread(t);
  const content = `${probeText(t, what)} ${who.map((w) => `@[${w.written}](${w.id})`).join(' ')}`;
  const added = await comment(t, thread, content, { idempotencyKey: `svc-contract-${t.config.runId}-${what}` });
  return { who, content, added, ...(ok(added) ? { read: await readThread(t, thread) } : {}) };
}

/** The mentions of the comment read back, by user_id; or the problem that there is none to read. */
function mentionsRead({ content, added, read }: Mentioning): Map<string, Record<string, unknown>> | Problem[] {
  if (!read) return [{ message: `adding a comment with mentions: expected 2xx, got ${added.status}`, exchange: added }];
  if (!ok(read.exchange))
    return [{ message: `reading the thread back: expected 2xx, got ${read.exchange.status}`, exchange: read.exchange }];
  const mine = read.comments.find((c) => c.content === content);
  const mentions = Array.isArray(mine?.mentions) ? mine.mentions.filter(isObject) : [];
  if (!mine) return [{ message: 'the comment added is not among the comments read back', exchange: read.exchange }];
  return new Map(mentions.map((m) => [String(m.user_id), m]));
}

/** The mentions the write's answer lists, by user_id, where it shows the comment with a mentions array. */
function mentionsAnswered({ added }: Mentioning): Map<string, Record<string, unknown>> | undefined {
  const comment = data(added);
  if (!ok(added) || !Array.isArray(comment?.mentions)) return undefined;
  return new Map(comment.mentions.filter(isObject).map((m) => [String(m.user_id), m]));
}

/** Each mention listed, judged by `wrong` (its problem, or undefined): in the comment read back, and in the write's answer where it shows one. */
function eachMention(
  state: Mentioning,
  wrong: (m: Record<string, unknown>, w: Mentioning['who'][number]) => string | undefined,
) {
  const listed = mentionsRead(state);
  if (Array.isArray(listed)) return listed;
  const judged = (mentions: Map<string, Record<string, unknown>>, where: string, exchange?: Exchange) =>
    state.who.flatMap((w) => {
      const m = mentions.get(w.id);
      const problem = m === undefined ? `${w.id} is mentioned inline but not listed in mentions` : wrong(m, w);
      return problem === undefined ? [] : [{ message: `${problem}${where}`, exchange }];
    });
  const answered = mentionsAnswered(state);
  return [
    ...judged(listed, '', state.read?.exchange),
    ...(answered ? judged(answered, ' (in the answer to the comment written)', state.added) : []),
  ];
}

rule({
  id: 'threads.mention-teammate',
  title:
    'A mention of a current teammate, written under the name the API shows for them, is listed with deleted false and that name (or null)',
  source:
    'NoteMention: "user_id string; name string or null; deleted boolean (true when the mentioned user has since been removed from the team)"; Mention syntax "@[<display_name>](usr-<id>)"',
  precondition:
    'a comment mentioning current teammates (listed by GET /v2/api/users) under the names the API shows for them as authors of notes or comments, read back',
  ...statefulWrite(COMMENT),
  requests: async (t) => {
    const teammates = await namedTeammates(t);
    if (teammates.length === 0)
      return t.skip(
        'no current teammate whose name the API shows (no note or comment read has an author listed by GET /v2/api/users)',
        'config',
      );
    return mentionIn(
      t,
      'mention-teammate',
      teammates.map((m) => ({ id: m.id, written: m.name })),
    );
  },
  problems: (state) =>
    eachMention(state, (m, w) => {
      if (m.deleted !== false) return `${w.id}, a current teammate, is listed with deleted ${short(m.deleted)}`;
      if (m.name !== w.written && m.name !== null)
        return `${w.id} (${w.written}, as the API names them and as written) is listed with name ${short(m.name)}`;
      return undefined;
    }),
  passed: ({ who }) => `${who.map((w) => w.id).join(', ')}: deleted false, named as written`,
});

/** A display name with the punctuation names carry (a title's dot, a comma before a suffix, an apostrophe, a hyphen). */
const punctuated = (name: string) => `Dr. ${name}-O'Neil, Jr.`;

rule({
  id: 'threads.mention-display-name',
  title:
    "A mention whose display name carries punctuation (a title's dot, a comma, an apostrophe, a hyphen) is listed like any other: the teammate, deleted false",
  source:
    'Mention syntax "@[<display_name>](usr-<id>)": a display name is text, brackets and parentheses aside; ThreadComment "mentions (array of NoteMention)"',
  precondition:
    'a comment mentioning a current teammate (listed by GET /v2/api/users) under a display name with punctuation, read back',
  ...statefulWrite(COMMENT, 'display-name'),
  requests: async (t) => {
    const [teammate] = await namedTeammates(t);
    if (!teammate)
      return t.skip(
        'no current teammate whose name the API shows (no note or comment read has an author listed by GET /v2/api/users)',
        'config',
      );
    return mentionIn(t, 'mention-display-name', [{ id: teammate.id, written: punctuated(teammate.name) }]);
  },
  // Which name a mention lists, the one written or the teammate's, is not shown: only that it is listed.
  problems: (state) =>
    eachMention(state, (m, w) =>
      m.deleted === false ? undefined : `${w.id}, a current teammate, is listed with deleted ${short(m.deleted)}`,
    ),
  passed: ({ who }) => `${who.map((w) => `${w.id} as ${JSON.stringify(w.written)}`).join(', ')}: listed, deleted false`,
});

rule({
  id: 'threads.mention-removed',
  title:
    'A mention of a member since removed from the team (named in --config) is listed with deleted true, after a mention of a current teammate listed with deleted false (each mention its own flag)',
  source:
    'NoteMention deleted: "true when the mentioned user has since been removed from the team"; ThreadComment "mentions (array of NoteMention)"',
  precondition:
    'a comment mentioning a current teammate, then a member removed from the team (fixtures.removed_user_ids: no operation removes one), not listed by GET /v2/api/users, read back',
  ...statefulWrite(COMMENT),
  requests: async (t) => {
    const named = removedMembers(t);
    const listed = new Set((await t.fixtures()).users);
    const removed = named.filter((id) => !listed.has(id)).slice(0, MENTIONED);
    if (removed.length === 0)
      return t.skip(`${named.join(', ')}: listed by GET /v2/api/users, so not removed`, 'precondition');
    // A current teammate first: each mention's flag is its own, not the first one's.
    const [teammate] = await namedTeammates(t);
    return mentionIn(t, 'mention-removed', [
      ...(teammate ? [{ id: teammate.id, written: teammate.name }] : []),
      ...removed.map((id) => ({ id, written: 'Former Teammate' })),
    ]);
  },
  problems: (state) =>
    eachMention(state, (m, w) => {
      const removed = w.written === 'Former Teammate';
      return m.deleted === removed
        ? undefined
        : `${w.id}, ${removed ? 'removed from the team' : 'a current teammate mentioned first'}, is listed with deleted ${short(m.deleted)}`;
    }),
  passed: ({ who }) =>
    `${who.map((w) => w.id).join(', ')}: a teammate's mention deleted false, then each removed member's true`,
});

rule({
  id: 'threads.mention-unknown',
  title:
    'A comment mentioning a user id no teammate has is accepted like any content and reads back, the mention listed',
  source:
    'Threads: content "at most 4000 characters; must not be blank; mentions inline" (its only refusals: EMPTY_NOTE_CONTENT, NOTE_CONTENT_TOO_LONG); ThreadComment "mentions (array of NoteMention, may be empty)"',
  precondition:
    'a comment mentioning a user id that is neither listed by GET /v2/api/users nor named as removed, read back',
  ...statefulWrite(COMMENT),
  requests: async (t) => {
    const known = new Set([...(await t.fixtures()).users, ...(t.config.config.fixtures.removed_user_ids ?? [])]);
    const prefix = t.spec.schema('UserId')?.['x-svc-id-prefix'];
    const id = `${typeof prefix === 'string' ? prefix : 'usr-'}svcContract${t.config.runId.replace(/[^A-Za-z0-9]/g, '')}`;
    if (known.has(id)) return t.skip(`${id} is a known user id`, 'n/a');
    return mentionIn(t, 'mention-unknown', [{ id, written: 'Nobody Here' }]);
  },
  problems: (state) => eachMention(state, () => undefined),
  passed: ({ who }) => `${who.map((w) => w.id).join(', ')}: accepted, read back, listed`,
});
