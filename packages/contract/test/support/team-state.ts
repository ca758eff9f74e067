// The team's state as the API shows it: every list and get of the contract, walked from the lists
// to the things they name (lines, conversations on each line, their notes and last items, the
// threads of items, users, tags, custom fields, deals, each line's receptionist, the dialer queue
// as its documented no-op update answers it). What a run leaves is compared with it.
import { loadSpec } from '../../src/spec.js';

/** The read operations this walk covers: a test holds it to the contract's reads. */
export const WALKED_READS = [
  'listNumbers',
  'listUsers',
  'getUser',
  'listTags',
  'listCustomFields',
  'listConversations',
  'listConversationNotes',
  'getConversationNote',
  'getConversationItem',
  'findThread',
  'getThread',
  'getDeal',
  'getReceptionist',
  'searchConversationItems',
  'batchGetConversationItems',
  'searchPeople',
];

type Json = Record<string, unknown>;

/** A thread's entity type by its item's id prefix (ThreadEntityId's x-svc-id-prefix, in ThreadEntityType's order). */
const ENTITY_TYPES: Record<string, string> = { 'cll-': 'CALL', 'msg-': 'TEXT_MESSAGE', 'not-': 'CONVERSATION_NOTE' };

async function get(url: string, apiKey: string, path: string, init: RequestInit = {}): Promise<unknown> {
  const response = await fetch(`${url}${path}`, {
    ...init,
    headers: { Authorization: `Api-Key ${apiKey}`, 'Content-Type': 'application/json' },
  });
  const body = (await response.json()) as { data?: unknown };
  return response.ok ? body.data : { status: response.status };
}

const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

/** Every state the API shows, by the request that showed it; items and deals as named. */
export async function teamState(
  url: string,
  apiKey: string,
  named: { itemIds: string[]; dealIds: string[] },
): Promise<Record<string, unknown>> {
  const size = loadSpec().pageSizeMax;
  const state: Record<string, unknown> = {};
  const read = async (path: string, init?: RequestInit) => {
    state[`${init?.method ?? 'GET'} ${path}${init?.body ? ` ${String(init.body)}` : ''}`] = await get(
      url,
      apiKey,
      path,
      init,
    );
    return state[`${init?.method ?? 'GET'} ${path}${init?.body ? ` ${String(init.body)}` : ''}`];
  };
  const lines = list(await read('/v2/api/numbers')).map((l) => String(l.number));
  for (const user of list(await read('/v2/api/users'))) await read(`/v2/api/users/${String(user.id)}`);
  await read('/v2/api/tags');
  await read(`/v2/api/crm/attributes?size=${size}`);
  const contacts = new Set<string>();
  const items = new Set(named.itemIds);
  for (const query of ['', ...lines.map((l) => `&svc_number=${encodeURIComponent(l)}`)]) {
    for (const entry of list(await read(`/v2/api/conversations?size=${size}${query}`))) {
      contacts.add(String(entry.contact_number));
      const last = entry.last_item as Json | undefined;
      if (typeof last?.id === 'string') items.add(last.id);
    }
  }
  for (const contact of contacts)
    for (const note of list(await read(`/v2/api/conversations/${encodeURIComponent(contact)}/notes`)))
      await read(`/v2/api/conversations/notes/${String(note.id)}`);
  // Notes are items too (a thread's entity): the notes' ids join the items'.
  for (const key of Object.keys(state))
    if (key.startsWith('GET /v2/api/conversations/notes/')) items.add(key.split('/').pop() as string);
  for (const id of [...items].sort()) {
    if (!id.startsWith('not-')) await read(`/v2/api/conversations/items/${id}`);
    const type = ENTITY_TYPES[id.slice(0, 4)];
    const thread = type ? ((await read(`/v2/api/threads?entity_type=${type}&entity_id=${id}`)) as Json) : undefined;
    if (typeof thread?.id === 'string') await read(`/v2/api/threads/${thread.id}`);
  }
  await read('/v2/api/conversations/items/batch', { method: 'POST', body: JSON.stringify({ ids: [...items].sort() }) });
  await read('/v2/api/conversations/items/search', { method: 'POST', body: JSON.stringify({ query: 'invoice' }) });
  await read('/v2/api/crm/people/search', { method: 'POST', body: JSON.stringify({ query: 'a' }) });
  for (const id of named.dealIds) await read(`/v2/api/crm/deals/${id}`);
  for (const line of lines) await read(`/v2/api/numbers/${encodeURIComponent(line)}/agent`);
  await read('/v2/api/dialing-queues/current', { method: 'PATCH', body: '{}' });
  return state;
}
