// Conversations: the list, and the actions on a whole conversation. The actions and their
// transitions come from ConversationAction (its enum and x-svc-transitions): every action is
// idempotent, ARCHIVE archives and marks every item read, UNARCHIVE brings an archived
// conversation back. The contract documents no field that shows the state, so the state is only
// observed where the list entry carries a boolean named after it (read, archived); otherwise the
// check stays with what is certain: each action, repeated, is a 200 no-op.
import { isObject } from '@svc/spec-runtime';
import { need } from '../fixtures.js';
import type { Exchange } from '../http/exchange.js';
import type { CheckContext } from './harness.js';
import { documentedHeaders, operationChecks } from './operation-checks.js';
import { deepEqual, expectReplays, ok, short } from './support.js';

interface Transition {
  trigger: string;
  to: string;
}

function actionSchema(t: CheckContext): { actions: string[]; transitions: Transition[] } {
  const schema = t.spec.schema('ConversationAction');
  const actions = Array.isArray(schema?.enum) ? schema.enum.map(String) : [];
  const transitions = Array.isArray(schema?.['x-svc-transitions'])
    ? (schema['x-svc-transitions'] as unknown as Transition[])
    : [];
  return { actions, transitions };
}

async function act(t: CheckContext, contact: string, action: string): Promise<Exchange> {
  return t.call({ params: { contact_number: contact }, body: { action } }, {}, 'applyConversationAction');
}

/** The conversation's list entry, if the first page shows it. */
async function entryOf(t: CheckContext, contact: string): Promise<Record<string, unknown> | undefined> {
  const list = await t.call({ query: { size: t.spec.pageSizeMax } }, {}, 'listConversations');
  const entries = (list.body as { data?: unknown[] } | undefined)?.data;
  return Array.isArray(entries)
    ? (entries.find((e) => isObject(e) && e.contact_number === contact) as Record<string, unknown> | undefined)
    : undefined;
}

operationChecks('listConversations', { baseline: () => ({}) });

operationChecks('applyConversationAction', {
  baseline: (t, f) => ({
    params: { contact_number: need(f.contacts[0], 'a conversation (GET /v2/api/conversations listed none)') },
    body: { action: actionSchema(t).actions[0] },
  }),
  scenarios: (op, scenario) => {
    // "When given, only to that line": the action scoped to each line of the team (svc_number),
    // with every header the operation documents. The first action of the enum (READ) on each line.
    scenario('conversations.action-on-line', async (t) => {
      const f = await t.fixtures();
      const contact = need(f.contacts[0], 'a conversation');
      const lines = need(f.lines, 'a line (GET /v2/api/numbers listed none; or set fixtures.lines)');
      const [action] = actionSchema(t).actions;
      if (action === undefined) return t.skip('ConversationAction has no enum');
      for (const line of lines.slice(0, t.config.fixturesPerKind ?? 20)) {
        const answer = await t.call(
          { params: { contact_number: contact }, body: { action, svc_number: line } },
          documentedHeaders(op, `${t.config.runId}-action-${line}`),
        );
        t.expect(ok(answer), `${action} on line ${line}: expected 200, got ${answer.status}`, answer);
      }
    });

    scenario('conversations.action-idempotent', async (t) => {
      const contact = need((await t.fixtures()).contacts[0], 'a conversation');
      for (const action of actionSchema(t).actions) {
        const first = await act(t, contact, action);
        const again = await act(t, contact, action);
        if (!t.expect(ok(first), `${action}: expected 200, got ${first.status}`, first)) continue;
        t.expect(
          again.status === first.status && deepEqual(again.body, first.body),
          `${action} repeated: expected the same ${first.status} no-op, got ${again.status} ${short(again.body)}`,
          again,
        );
      }
    });

    // Idempotency is stated for every write method: here on a PUT (a READ action is a no-op anyway).
    scenario({ id: 'idempotency.replay', variant: op.method }, async (t) => {
      const contact = need((await t.fixtures()).contacts[0], 'a conversation');
      const action = actionSchema(t).actions[0];
      await expectReplays(t, `${op.method} action ${action}`, (idempotencyKey) =>
        t.call({ params: { contact_number: contact }, body: { action } }, { idempotencyKey }),
      );
    });

    scenario('conversations.archive', async (t) => {
      const contact = need((await t.fixtures()).contacts[0], 'a conversation');
      const { transitions } = actionSchema(t);
      // The states the transitions name, and the triggering action of each ("action ARCHIVE").
      const actionOf = (to: string) => transitions.find((tr) => tr.to === to)?.trigger.replace(/^action\s+/i, '');
      const archive = actionOf('archived');
      const unarchive = actionOf('unarchived');
      if (archive === undefined || unarchive === undefined)
        return t.skip('ConversationAction x-svc-transitions names no archived/unarchived states');
      const archived = await act(t, contact, archive);
      if (!t.expect(ok(archived), `${archive}: expected 200, got ${archived.status}`, archived)) return;
      const observed = await entryOf(t, contact);
      // Observed only where the server exposes booleans named after the states (read, archived).
      if (observed && typeof observed.archived === 'boolean')
        t.expect(
          observed.archived === true,
          `after ${archive} the conversation reads archived=${String(observed.archived)}`,
          archived,
        );
      if (observed && typeof observed.read === 'boolean')
        t.expect(
          observed.read === true,
          `after ${archive} every item should be read; the conversation reads read=${String(observed.read)}`,
          archived,
        );
      const again = await act(t, contact, archive);
      t.expect(ok(again), `${archive} on an archived conversation: expected a 200 no-op, got ${again.status}`, again);
      const back = await act(t, contact, unarchive);
      t.expect(ok(back), `${unarchive} on an archived conversation: expected 200, got ${back.status}`, back);
      const after = await entryOf(t, contact);
      if (after && typeof after.archived === 'boolean')
        t.expect(
          after.archived === false,
          `after ${unarchive} the conversation reads archived=${String(after.archived)}`,
          back,
        );
      t.pass(
        observed && (typeof observed.archived === 'boolean' || typeof observed.read === 'boolean')
          ? 'state observed on the list entry'
          : 'state not observable (no documented field shows it); statuses checked',
      );
    });
  },
});
