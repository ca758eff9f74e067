// The conversation list and conversation actions. A conversation is the timeline of one external
// number on one of the team's lines; the list shows one entry per external number, over the lines
// in scope (the svc_number filter, or every line the key may use).

import type { ConversationAction } from '@svc/api-types';
import type { ConversationRecord, TeamRecord } from '../store/model.js';
import { pageFromQuery, paginate } from '../support/pagination.js';
import { matchesAll, searchTerms } from '../support/text-search.js';
import { allItems, briefItem, type Item, itemTexts, itemTime, linesInScope, timeValue } from './common.js';
import { fail, type Handler, ok } from './types.js';

export const listConversations: Handler = ({ team, key, query }) => {
  const lines = linesInScope(team, key, query.get('svc_number'));
  if ('error' in lines) return lines;
  const search = query.get('search');
  const terms = search === null ? null : searchTerms(search);
  if (search !== null && terms === null) {
    // The contract's pattern catches text without letters or digits; this is the same rule.
    return fail(
      'INVALID_SEARCH_QUERY',
      `search ${JSON.stringify(search)} has no letter or digit once special characters are stripped.`,
      { param: 'search' },
    );
  }
  const numbers = [...new Set(team.conversations.filter((c) => lines.has(c.svc_number)).map((c) => c.contact_number))];
  const entries = numbers
    .map((number) => entry(team, number, lines))
    .filter((e): e is NonNullable<typeof e> => e !== null)
    .filter((e) => terms === null || matchesAll(terms, e.searchable))
    .sort((a, b) => timeValue(b.view.last_activity) - timeValue(a.view.last_activity))
    .map((e) => e.view);
  const { page, size } = pageFromQuery(query);
  return ok(paginate(entries, page, size));
};

function entry(team: TeamRecord, number: string, lines: Set<string>) {
  const items = allItems(team).filter((i) => i.record.contact_number === number && lines.has(i.record.svc_number));
  const last = items.reduce<Item | undefined>(
    (latest, i) => (!latest || timeValue(itemTime(i)) > timeValue(itemTime(latest)) ? i : latest),
    undefined,
  );
  // An entry needs its last item; a conversation without any item has nothing to show.
  if (!last) return null;
  const contacts = team.contacts.filter((c) => c.numbers.includes(number));
  const conversations = team.conversations.filter((c) => c.contact_number === number && lines.has(c.svc_number));
  return {
    view: {
      contact_number: number,
      contacts: contacts.map((c) => ({ id: c.id, name: c.name, company: { name: c.company.name } })),
      last_activity: itemTime(last),
      last_item: briefItem(last),
      // Sandbox additions (not in the description), so that actions can be observed.
      read: conversations.every((c) => c.read),
      archived: conversations.every((c) => c.archived),
    },
    searchable: [number, ...contacts.flatMap((c) => [c.name, c.company.name]), ...items.flatMap(itemTexts)],
  };
}

// What each action (the contract's ConversationAction: a new one fails to compile here) sets on a
// conversation; ARCHIVE also marks its items read. UNARCHIVE elsewhere than archived changes nothing.
const ACTION_EFFECTS: Record<ConversationAction, Partial<ConversationRecord>> = {
  READ: { read: true },
  UNREAD: { read: false },
  ARCHIVE: { archived: true, read: true },
  UNARCHIVE: { archived: false },
};

export const applyConversationAction: Handler = ({ team, key, params, body }) => {
  const contactNumber = params.contact_number as string;
  const action = body.action as ConversationAction;
  const lines = linesInScope(team, key, typeof body.svc_number === 'string' ? body.svc_number : null);
  if ('error' in lines) return lines;
  // Every action is idempotent: applying it in the target state changes nothing and answers 200.
  for (const conversation of team.conversations) {
    if (conversation.contact_number !== contactNumber || !lines.has(conversation.svc_number)) continue;
    Object.assign(conversation, ACTION_EFFECTS[action]);
    if (action !== 'ARCHIVE') continue;
    for (const item of allItems(team)) {
      if (item.record.contact_number === contactNumber && item.record.svc_number === conversation.svc_number)
        item.record.read = true;
    }
  }
  // The 200 body is not shown; the contract's example is an empty object.
  return ok({});
};
