// Conversations and their items: the contact numbers and last items of the conversation list,
// read whole (every line in scope) and then narrowed to each line of the team, so that a
// conversation of one contact on several lines gives the last item of each (the items read per
// conversation), up to --fixtures-per-kind lines.
import { isObject } from '@svc/spec-runtime';
import { isPhone } from '../generate/schema.js';
import type { Session } from '../session.js';
import { discoveryGet, listOf, perKind, type Query } from './get.js';
import { patternOf, unique } from './match.js';

const LIST = '/v2/api/conversations';

export interface ConversationFinds {
  contacts: string[];
  itemIds: string[];
}

/** The list's optional line filter (a phone-number query parameter), if it documents one. */
function lineFilterOf(session: Session): string | undefined {
  const op = session.spec.contract.operations.find((o) => o.method === 'GET' && o.path === LIST);
  return op?.parameters.find((p) => p.in === 'query' && !p.required && isPhone(session.spec, p.schema))?.name;
}

export async function discoverConversations(session: Session, lines: readonly string[]): Promise<ConversationFinds> {
  const configured = session.config.config.fixtures;
  const size = { size: session.spec.pageSizeMax };
  const filter = lineFilterOf(session);
  const queries: Query[] = [
    size,
    ...(filter ? lines.slice(0, perKind(session)).map((l) => ({ ...size, [filter]: l })) : []),
  ];
  const entries: Record<string, unknown>[] = [];
  for (const query of queries) entries.push(...listOf(await discoveryGet(session, LIST, query)).filter(isObject));
  const phone = patternOf(session, 'PhoneNumber');
  const numbers = entries
    .map((e) => e.contact_number)
    .filter((n): n is string => typeof n === 'string' && phone.test(n));
  const lastItems = entries.map((e) => (isObject(e.last_item) ? e.last_item.id : undefined));
  return {
    contacts: unique([...(configured.contact_numbers ?? []), ...numbers]),
    itemIds: unique([
      ...(configured.item_ids ?? []),
      ...lastItems.filter((id): id is string => typeof id === 'string'),
    ]),
  };
}
