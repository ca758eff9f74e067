// "When a request with a key succeeds (2xx), its response is stored for 1 hour": the keyed writes
// the replay checks made earlier in the run are each sent once more with their key at its end, at
// least KEPT_AFTER_MS after the last of them (run alone, it makes one of its own first), and each is
// still the stored response, replayed. A server that keeps stored responses for seconds, not an
// hour, executes them again. Declared last
// (its file imported last) so that the keyed writes of every other check come before it.
import { setTimeout as sleep } from 'node:timers/promises';
import { need } from '../fixtures.js';
import type { Exchange } from '../http/exchange.js';
import { actionSchema } from './conversation-actions.js';
import { type CheckContext, type Problem, rule, statefulWrite } from './harness.js';
import { type KeptKey, keptKeys, sendRepeats, storedReplayProblems } from './support.js';

/** How long after the last keyed write the keys are sent again, at least: a run paced at the documented rates waits far longer. */
const KEPT_AFTER_MS = 3000;

interface Resent extends KeptKey {
  again: Exchange;
  /** How long after the first write the key was sent again (ms). */
  after: number;
}

const OP = 'applyConversationAction';

/** The operation's first action on the first conversation, with a key (kept for the end). */
async function keyedAction(t: CheckContext): Promise<void> {
  const contact = need((await t.fixtures()).contacts[0], 'a conversation (GET /v2/api/conversations listed none)');
  const [action = t.skip('ConversationAction lists no action')] = actionSchema(t).actions;
  await sendRepeats(t, `PUT action ${action} on ${contact} (kept)`, 'replay', (keyed) =>
    t.call({ params: { contact_number: contact }, body: { action } }, keyed, OP),
  );
}

async function resendKept(t: CheckContext): Promise<Resent[]> {
  // Alone (--only, a replay of its failure, a shard): a keyed conversation action of its own.
  if ((await keptKeys(t)).length === 0) await keyedAction(t);
  const kept = [...(await keptKeys(t))];
  const wait = KEPT_AFTER_MS - (Date.now() - Math.max(...kept.map((k) => k.at)));
  if (wait > 0) await sleep(wait);
  const resent: Resent[] = [];
  for (const k of kept) {
    const again = await k.resend();
    resent.push({ ...k, again, after: Date.now() - k.at });
  }
  return resent;
}

function keptProblems(resent: Resent[], t: CheckContext): Problem[] {
  const replayed = t.spec.idempotencyReplayedHeader;
  return resent.flatMap(({ what, first, again, after }) =>
    storedReplayProblems(
      `${what}, its key sent again ${Math.round(after / 1000)} s after the first use (stored for 1 hour)`,
      first,
      again,
      replayed,
    ),
  );
}

rule({
  id: 'idempotency.kept',
  title:
    "A keyed write's stored response is kept: each key of the run's replay checks, sent again at the run's end (3 s or more after its first use), is still replayed",
  source:
    'IdempotencyKeyParameter ("When the request succeeds (2xx) its response is stored for 1 hour"); Limits: idempotency storage 1 hour',
  precondition:
    'keyed writes made earlier in the run by the replay checks (idempotency.replay; where none ran, a keyed conversation action of its own), each sent again at least 3 s after the last of them',
  ...statefulWrite(OP),
  requests: resendKept,
  problems: keptProblems,
  passed: (resent) =>
    `${resent.length} keys replayed, ${Math.round(Math.min(...resent.map((r) => r.after)) / 1000)} s or more after their first use`,
});
