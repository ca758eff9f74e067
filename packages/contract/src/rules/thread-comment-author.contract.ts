// Who wrote a comment: its `user` (NoteUser, "author of a note or comment") is the owner of the key
// that wrote it, whoever started the thread. The run's key comments on two threads whose first
// comments name different users: both its comments must name one author. A server that names the
// thread's starter (or any user of the thread) as a new comment's author shows two; one that
// names the key's owner shows one, whichever user that is (the config does not say whose a key is).
// The threads the run started (found by their items, their first comment carrying the run's id)
// name that author too, whoever the item's user is; and another key of the team reads each comment
// with the same author (it is stored, not taken from whoever reads).
import { isObject } from '@svc/spec-runtime';
import type { ItemFixture } from '../fixtures.js';
import { type Exchange, lookedUpOf } from '../http/exchange.js';
import { type CheckContext, type Problem, rule, statefulWrite } from './harness.js';
import { data, ok, probeText, short, teamReaders } from './support.js';
import { comment, entities, probeThread, readThread, type ThreadRead } from './threads.contract.js';

/** At most this many threads are read to find two started by different users. */
const READS = 4;

interface Authored {
  thread: string;
  starter: string;
  added: Exchange;
}

const userIdOf = (value: unknown) => (isObject(value) && typeof value.id === 'string' ? value.id : undefined);

/** Threads (the run's probe thread first, then known ones) with the user of their first comment. */
async function startersOf(t: CheckContext): Promise<Array<{ thread: string; starter: string }>> {
  const ids = [await probeThread(t), ...(await t.fixtures()).threads.map((th) => th.id)];
  const found: Array<{ thread: string; starter: string }> = [];
  for (const thread of [...new Set(ids)].slice(0, READS)) {
    const starter = userIdOf((await readThread(t, thread)).comments[0]?.user);
    if (starter !== undefined) found.push({ thread, starter });
  }
  return found;
}

/** The comments, the threads the run started, and the comments read by another key of the team. */
interface Authorship {
  authored: Authored[];
  /** Threads of known items whose first comment carries the run's id: started by the run's key. */
  started: Array<{ thread: string; item: string; starter?: string; exchange: Exchange }>;
  /** Each thread commented on, read by the run's key and by another key of the team. */
  readBy: Array<{ key: string; own: ThreadRead; other: ThreadRead }>;
}

async function commentOnTwoStarters(t: CheckContext): Promise<Authored[]> {
  const found = await startersOf(t);
  const [first] = found;
  const second = found.find((f) => f.starter !== first?.starter);
  if (!first || !second) return [];
  const authored: Authored[] = [];
  for (const { thread, starter } of [first, second])
    authored.push({ thread, starter, added: await comment(t, thread, probeText(t, 'comment author')) });
  return authored;
}

/**
 * The threads of the known items that the run started (their first comment carries its id); where
 * it started none (this check run alone), one started here on the first item found without one.
 */
async function startedByRun(t: CheckContext): Promise<Authorship['started']> {
  const mark = `(run ${t.config.runId})`;
  const started: Authorship['started'] = [];
  const threadless: ItemFixture[] = [];
  const f = await t.fixtures();
  const known = [...f.threadless, ...entities(f).filter((i) => !f.threadless.some((x) => x.id === i.id))];
  for (const item of known.slice(0, t.config.fixturesPerKind ?? 20)) {
    const query = { entity_type: item.entityType, entity_id: item.id };
    const exchange = await t.call({ query }, {}, 'findThread');
    const thread = lookedUpOf(exchange);
    if (ok(exchange) && thread === undefined) threadless.push(item);
    const [first] = Array.isArray(thread?.comments) ? thread.comments.filter(isObject) : [];
    if (typeof thread?.id !== 'string' || typeof first?.content !== 'string' || !first.content.includes(mark)) continue;
    const starter = userIdOf(first.user);
    started.push({ thread: thread.id, item: item.id, ...(starter ? { starter } : {}), exchange });
  }
  const [free] = threadless;
  if (started.length > 0 || !free) return started;
  const body = { entity_type: free.entityType, entity_id: free.id, content: probeText(t, 'thread author') };
  const exchange = await t.call({ body }, {}, 'createThread');
  const thread = data(exchange);
  const [first] = Array.isArray(thread?.comments) ? thread.comments.filter(isObject) : [];
  const starter = userIdOf(first?.user);
  if (ok(exchange) && typeof thread?.id === 'string')
    started.push({ thread: thread.id, item: free.id, ...(starter ? { starter } : {}), exchange });
  return started;
}

async function authorship(t: CheckContext): Promise<Authorship> {
  const authored = await commentOnTwoStarters(t);
  const started = await startedByRun(t);
  const [reader] = teamReaders(t, t.op('getThread'), t.op('addThreadComment'), '');
  const readBy: Authorship['readBy'] = [];
  for (const { thread } of reader ? authored : [])
    readBy.push({
      key: reader?.name ?? '',
      own: await readThread(t, thread),
      other: await readThread(t, thread, reader),
    });
  return { authored, started, readBy };
}

/** A thread the run's key started names the author of its comments as its first comment's user. */
function startedProblems({ authored, started }: Authorship): Problem[] {
  const [first] = authored;
  const author = first ? userIdOf(data(first.added)?.user) : undefined;
  if (author === undefined) return [];
  return started
    .filter((s) => s.starter !== author)
    .map((s) => ({
      message: `${s.thread}, the thread the run's key started on ${s.item}, names ${short(s.starter)} as the user of its first comment, while the key's comments name ${author}`,
      exchange: s.exchange,
    }));
}

/** Each comment read by another key of the team names the user the run's key reads (the author is stored). */
function readerProblems({ readBy }: Authorship): Problem[] {
  return readBy.flatMap(({ key, own, other }) =>
    own.comments.flatMap((c) => {
      const seen = other.comments.find((o) => o.id === c.id);
      return seen && userIdOf(seen.user) !== userIdOf(c.user)
        ? [
            {
              message: `comment ${String(c.id)} read by key "${key}" names ${short(userIdOf(seen.user))} as its user; read by the run's key, ${short(userIdOf(c.user))}`,
              exchange: other.exchange,
            },
          ]
        : [];
    }),
  );
}

function authorProblems(authored: Authored[]): Problem[] {
  const refused = authored.filter((a) => !ok(a.added));
  if (refused.length > 0)
    return refused.map(({ thread, added }) => ({
      message: `a comment on ${thread}: expected 201, got ${added.status}`,
      exchange: added,
    }));
  const [one, two] = authored.map((a) => ({ ...a, author: userIdOf(data(a.added)?.user) }));
  if (!one || !two) return [];
  return [
    {
      message: `the run's key commented on ${one.thread} (started by ${one.starter}) and ${two.thread} (started by ${two.starter}): its comments name ${short(one.author)} and ${short(two.author)}, not one author`,
      exchange: two.added,
    },
  ].filter(() => one.author !== two.author);
}

rule({
  id: 'threads.comment-author',
  title:
    "A comment's user is the owner of the key that wrote it, whoever started the thread: one key's comments on threads started by different users name one author, as do the first comments of the threads it started, whoever the item's user, and another key of the team reads the same author",
  source: 'ThreadComment user (NoteUser: "author of a note or comment")',
  precondition:
    "two threads whose first comments name different users (the run's probe thread and known ones, read first), each given a comment by the run's key; the threads the run started on known items (looked up by item); another key of the team that may read threads (--config)",
  ...statefulWrite('addThreadComment'),
  requests: authorship,
  problems: (s) => [...authorProblems(s.authored), ...startedProblems(s), ...readerProblems(s)],
  notReached: ({ authored }) =>
    authored.length === 0 ? `no two of the threads read (at most ${READS}) were started by different users` : undefined,
  passed: ({ authored, started, readBy }) =>
    `comments on ${authored.map((a) => `${a.thread} (started by ${a.starter})`).join(' and ')} name one author; so do the first comments of the ${started.length} threads the run started${readBy.length > 0 ? `, and key "${readBy[0]?.key}" reads the same authors` : ''}`,
});
