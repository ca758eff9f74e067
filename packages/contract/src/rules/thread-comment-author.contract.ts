// Who wrote a comment: its `user` (NoteUser, "author of a note or comment") is the owner of the key
// that wrote it, whoever started the thread. The run's key comments on two threads whose first
// comments name different users: both its comments must name one author. A server that names the
// thread's starter (or any user of the thread) as a new comment's author shows two; one that
// names the key's owner shows one, whichever user that is (the config does not say whose a key is).
// The threads the run started (found by their items, their first comment carrying the run's id)
// name that author too, whoever the item's user is; and another key of the team reads each comment
// with the same author (it is stored, not taken from whoever reads).
import { isObject } from '@svc/spec-runtime';
import { scopeStanding } from '@svc/spec-runtime/facts';
import type { ItemFixture } from '../fixtures.js';
import { type Exchange, lookedUpOf } from '../http/exchange.js';
import { type CheckContext, type Problem, rule, statefulWrite } from './harness.js';
import { unless } from './problems.js';
import { asKey, data, NOT_A_TEAM_CALLER, ok, probeText, short, teamReaders } from './support.js';
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

/** A comment written with a key whose config entry names its owner (user_id), and its thread read after. */
interface ByOwner {
  key: string;
  owner: string;
  content: string;
  added: Exchange;
  read?: ThreadRead;
}

/** The comments, the threads the run started, and the comments read by another key of the team. */
interface Authorship {
  authored: Authored[];
  /** Comments by keys of the team whose owners the config names, one key per owner. */
  byOwners: ByOwner[];
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

/**
 * One key of the team per owner the config names (user_id), each commenting on the first of the
 * threads that it may reach (a line-limited key is refused the threads of other lines).
 */
async function commentsByOwners(t: CheckContext, threads: string[]): Promise<ByOwner[]> {
  const op = t.op('addThreadComment');
  const owned = t.config.config.keys.filter(
    (k) =>
      k.user_id !== undefined &&
      k.key !== t.config.apiKey &&
      !NOT_A_TEAM_CALLER.has(k.kind ?? 'active') &&
      scopeStanding(op, k.scopes) !== 'insufficient',
  );
  const byOwners: ByOwner[] = [];
  for (const key of owned.filter((k, i) => owned.findIndex((o) => o.user_id === k.user_id) === i)) {
    // Numbered, never named: a key's name may be the key itself, and the content is stored.
    const content = probeText(t, `comment by the key of owner ${byOwners.length + 1}`);
    for (const thread of threads) {
      const added = await comment(t, thread, content, asKey(key));
      if (added.status === 403 || added.status === 404) continue;
      const read = ok(added) ? await readThread(t, thread) : undefined;
      byOwners.push({ key: key.name, owner: key.user_id as string, content, added, ...(read ? { read } : {}) });
      break;
    }
  }
  return byOwners;
}

async function authorship(t: CheckContext): Promise<Authorship> {
  const authored = await commentOnTwoStarters(t);
  const started = await startedByRun(t);
  const threads = [...new Set([...authored.map((a) => a.thread), ...started.map((s) => s.thread)])];
  const byOwners = await commentsByOwners(t, threads);
  const [reader] = teamReaders(t, t.op('getThread'), t.op('addThreadComment'), '');
  const readBy: Authorship['readBy'] = [];
  for (const { thread } of reader ? authored : [])
    readBy.push({
      key: reader?.name ?? '',
      own: await readThread(t, thread),
      other: await readThread(t, thread, reader),
    });
  return { authored, byOwners, started, readBy };
}

/** A comment by a key whose owner the config names names that owner as its user. */
function ownerProblems({ byOwners }: Authorship): Problem[] {
  return byOwners.flatMap(({ key, owner, content, added, read }) => {
    if (!ok(added))
      return [{ message: `a comment by key "${key}": expected 201, got ${added.status}`, exchange: added }];
    // The comment as its thread shows it (the add's answer is not shown), else as the answer shows it.
    const stored = read?.comments.find((c) => c.content === content);
    const [user, exchange] = stored
      ? [userIdOf(stored.user), read?.exchange ?? added]
      : [userIdOf(data(added)?.user), added];
    if (user === undefined) return [];
    return unless(
      user === owner,
      `a comment by key "${key}", owned by ${owner} (its config entry), names ${user} as its user`,
      exchange,
    );
  });
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
    "A comment's user is the owner of the key that wrote it, whoever started the thread: one key's comments on threads started by different users name one author, as do the first comments of the threads it started, whoever the item's user; a key whose owner the config names writes comments naming that owner; and another key of the team reads the same author",
  source: 'ThreadComment user (NoteUser: "author of a note or comment")',
  precondition:
    "two threads whose first comments name different users (the run's probe thread and known ones, read first), each given a comment by the run's key; a comment by each key of the team whose config entry names its owner (user_id), one per owner; the threads the run started on known items (looked up by item); another key of the team that may read threads (--config)",
  ...statefulWrite('addThreadComment'),
  requests: authorship,
  problems: (s) => [...authorProblems(s.authored), ...ownerProblems(s), ...startedProblems(s), ...readerProblems(s)],
  notReached: ({ authored }) =>
    authored.length === 0 ? `no two of the threads read (at most ${READS}) were started by different users` : undefined,
  passed: ({ authored, byOwners, started, readBy }) =>
    `comments on ${authored.map((a) => `${a.thread} (started by ${a.starter})`).join(' and ')} name one author; so do the first comments of the ${started.length} threads the run started${byOwners.length > 0 ? `; comments by ${byOwners.map((b) => `"${b.key}"`).join(', ')} name their owners` : ''}${readBy.length > 0 ? `, and key "${readBy[0]?.key}" reads the same authors` : ''}`,
});
