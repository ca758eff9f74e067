// A conversation action without svc_number "applies across all of the team's lines", and "a key
// belongs to a single team": the run key's action on a contact number that only another team has
// a conversation with leaves that team's conversation as it was. A server that applies the action
// by contact number across every team shows it only where another team holds the contact, read
// with that team's key (a config key of kind other-team).
import { isObject } from '@svc/spec-runtime';
import { dataOf, type Exchange } from '../http/exchange.js';
import type { ConfigKey } from '../types.js';
import { actionTo } from './conversation-actions.js';
import { type CheckContext, type Problem, rule, statefulWrite } from './harness.js';
import { unless } from './problems.js';
import { notObservable, ok, otherTeamKey, short } from './support.js';

const OP = 'applyConversationAction';
const LIST = 'listConversations';

type Entry = Record<string, unknown>;

/** The first page of conversations a key lists, each entry with its contact number. */
async function entriesOf(t: CheckContext, key?: ConfigKey): Promise<{ list: Exchange; entries: Entry[] }> {
  const extra = key ? { auth: { kind: 'key' as const, key: key.key } } : {};
  const list = await t.call({ query: { size: t.spec.pageSizeMax } }, extra, LIST);
  const data = dataOf(list);
  const entries = (Array.isArray(data) ? data : [])
    .filter(isObject)
    .filter((e) => typeof e.contact_number === 'string');
  return { list, entries };
}

/** The action that moves an entry's archived state the other way (x-svc-transitions). */
const actionAgainst = (t: CheckContext, archived: boolean) => actionTo(t, archived ? 'unarchived' : 'archived');

interface CrossedAction {
  other?: string;
  contact?: string;
  action?: string;
  before?: Entry;
  acted?: Exchange;
  after?: { list: Exchange; entry?: Entry };
  restored?: Exchange;
  /** Why the state was not reached. */
  why?: string;
}

async function actOnOtherTeamsContact(t: CheckContext): Promise<CrossedAction> {
  const other = otherTeamKey(t);
  const theirs = await entriesOf(t, other);
  if (!ok(theirs.list))
    return t.skip(`the other team's key may not list conversations (${theirs.list.status})`, 'config');
  const ours = new Set((await entriesOf(t)).entries.map((e) => e.contact_number));
  // A contact only the other team holds: the run's team has nothing the action could change.
  const before = theirs.entries.find((e) => !ours.has(e.contact_number) && typeof e.archived === 'boolean');
  // The description shows no field of a conversation's state: a server may keep it to itself.
  if (theirs.entries.length > 0 && !theirs.entries.some((e) => typeof e.archived === 'boolean'))
    return notObservable(
      t,
      "no entry of the other team's list shows whether it is archived (the description shows no field of a conversation's state)",
    );
  if (!before)
    return {
      other: other.name,
      why: "the other team lists no conversation with a contact the run's team has none with, showing whether it is archived",
    };
  const contact = before.contact_number as string;
  const action = actionAgainst(t, before.archived as boolean);
  if (!action) return t.skip('no action leads to archived and to unarchived (x-svc-transitions)');
  const acted = await t.call({ params: { contact_number: contact }, body: { action } }, {}, OP);
  const listed = await entriesOf(t, other);
  const entry = listed.entries.find((e) => e.contact_number === contact);
  const state = {
    other: other.name,
    contact,
    action,
    before,
    acted,
    after: { list: listed.list, ...(entry ? { entry } : {}) },
  };
  if (!entry || entry.archived === before.archived) return state;
  // Put back by the other team's own key, with the action that undoes it.
  const undo = actionAgainst(t, entry.archived as boolean) ?? action;
  const restored = await t.call(
    { params: { contact_number: contact }, body: { action: undo } },
    { auth: { kind: 'key', key: other.key } },
    OP,
  );
  return { ...state, restored };
}

function crossedProblems({ other, contact, action, before, after }: CrossedAction): Problem[] {
  if (!after || !before) return [];
  const entry = after.entry;
  return unless(
    entry !== undefined && entry.archived === before.archived && entry.read === before.read,
    `${action} on ${contact} by the run key (no svc_number) changed the conversation another team (key "${other}") has with that contact: ${short({ archived: before.archived, read: before.read })} → ${short(entry ? { archived: entry.archived, read: entry.read } : entry)}`,
    after.list,
  );
}

rule({
  id: 'tenants.action-by-contact',
  title:
    "A conversation action without svc_number changes the run team's conversations only: another team's conversation with the contact is left as it was",
  source:
    '"A key belongs to a single team." (Authentication); the action without svc_number "applies across all of the team\'s lines"',
  precondition:
    "a key of another team (kind other-team) listing a conversation with a contact the run's team has none with, whose entry shows whether it is archived; the run key's action that would move it, then that team's list read again",
  ...statefulWrite(OP),
  needs: { writes: true, stateful: true, keys: true },
  requests: actOnOtherTeamsContact,
  problems: crossedProblems,
  passed: ({ contact, action }) => `${action} on ${contact}: the other team's conversation unchanged`,
  notReached: ({ why }) => why,
});
