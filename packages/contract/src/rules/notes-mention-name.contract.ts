// Whose name a note's mention carries: NoteMention's `name` is the mentioned user's. Which form is
// not shown (the display name the content writes for that user, or the name the API gives the
// user), so either passes, as does null ("string or null"); a name the API gives another user, or
// any other name for a user whose own the API shows, is not the mentioned user's. Notes are not
// written by the API: the known notes are read, their authors giving the names the API uses.
import { idPrefixOf, isObject } from '@svc/spec-runtime';
import { scanMentions } from '@svc/spec-runtime/facts';
import type { Exchange } from '../http/exchange.js';
import { loadSpec } from '../spec.js';
import { type CheckContext, contractOperation, type Problem, rule } from './harness.js';
import { data, short } from './support.js';

const OP = 'getConversationNote';

interface NoteRead {
  id: string;
  exchange: Exchange;
}

/** The names the API gives users: each note's author (NoteUser: id and name). */
function authorNames(reads: NoteRead[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const { exchange } of reads) {
    const user = data(exchange)?.user;
    if (isObject(user) && typeof user.id === 'string' && typeof user.name === 'string') names.set(user.id, user.name);
  }
  return names;
}

function mentionNameProblems(reads: NoteRead[], userPrefix: string): Problem[] {
  const named = authorNames(reads);
  return reads.flatMap(({ id, exchange }) => {
    const note = data(exchange);
    const content = typeof note?.content === 'string' ? note.content : '';
    // The syntax read as the sandbox and response.mentions read it (each user's first spelling).
    const written = new Map(scanMentions(content, userPrefix).map((m) => [m.userId, [m.displayName]]));
    const mentions = Array.isArray(note?.mentions) ? note.mentions.filter(isObject) : [];
    return mentions.flatMap((m) => {
      const [user, name] = [String(m.user_id), m.name];
      if (name === null || name === undefined || written.get(user)?.includes(String(name))) return [];
      const own = named.get(user);
      if (own === name) return [];
      const other = [...named].find(([u, n]) => u !== user && n === name)?.[0];
      if (own === undefined && other === undefined) return [];
      return [
        {
          message: `${id} mentions ${user} with name ${short(name)}: ${other ? `the name the API gives ${other}` : `the API names ${user} ${short(own)}`}, and the content writes ${short(written.get(user) ?? [])}`,
          exchange,
        },
      ];
    });
  });
}

rule({
  id: 'notes.mention-name',
  title:
    "A known note's mention carries the mentioned user's name (as its content writes it, or as the API names that user), or null; never another user's",
  source: 'NoteMention: "user_id string; name string or null"; Mention syntax "@[<display_name>](usr-<id>)"',
  precondition:
    "known notes with mentions, read by id; the names the API gives users, from the notes' authors (NoteUser)",
  operationId: OP,
  resource: loadSpec().resourceOf(contractOperation(OP)),
  needs: { stateful: true },
  requests: async (t: CheckContext): Promise<NoteRead[]> => {
    const f = await t.fixtures();
    const reads: NoteRead[] = [];
    for (const { id } of f.notes.slice(0, t.config.fixturesPerKind ?? 20))
      reads.push({ id, exchange: await t.call({ params: { id } }) });
    return reads;
  },
  problems: (reads, t) => mentionNameProblems(reads, idPrefixOf(t.spec.contract, 'UserId')),
  notReached: (reads) =>
    reads.some((r) => {
      const mentions = data(r.exchange)?.mentions;
      return Array.isArray(mentions) && mentions.length > 0;
    })
      ? undefined
      : `no known note (of ${reads.length} read) has a mention`,
  passed: (reads) => `${reads.length} notes read; each mention named as written, as the API names the user, or null`,
});
