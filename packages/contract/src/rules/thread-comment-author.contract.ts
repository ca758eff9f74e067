// Who wrote a comment: its `user` (NoteUser, "author of a note or comment") is the owner of the key
// that wrote it, whoever started the thread. The run's key comments on two threads whose first
// comments name different users: both its comments must name one author. A server that names the
// thread's starter (or any user of the thread) as a new comment's author shows two; one that
// names the key's owner shows one, whichever user that is (the config does not say whose a key is).
import { isObject } from '@svc/spec-runtime';
import type { Exchange } from '../http/exchange.js';
import { type CheckContext, type Problem, rule, statefulWrite } from './harness.js';
import { data, ok, probeText, short } from './support.js';
import { comment, probeThread, readThread } from './threads.contract.js';

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
    "A comment's user is the owner of the key that wrote it, whoever started the thread: one key's comments on threads started by different users name one author",
  source: 'ThreadComment user (NoteUser: "author of a note or comment")',
  precondition:
    "two threads whose first comments name different users (the run's probe thread and known ones, read first), each given a comment by the run's key",
  ...statefulWrite('addThreadComment'),
  requests: commentOnTwoStarters,
  problems: authorProblems,
  notReached: (authored) =>
    authored.length === 0 ? `no two of the threads read (at most ${READS}) were started by different users` : undefined,
  passed: (authored) =>
    `comments on ${authored.map((a) => `${a.thread} (started by ${a.starter})`).join(' and ')} name one author`,
});
