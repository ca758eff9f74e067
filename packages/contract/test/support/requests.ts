// Which operation a proxied request is: the predicates the mutants of several files pick their
// requests by (a mutation changes one operation's requests or answers and passes the rest).
import { type ProxiedRequest, pathOf } from './servers.js';

const ITEM = /^\/v2\/api\/conversations\/items\/[^/]+$/;
const ITEM_TAGS = /^\/v2\/api\/conversations\/items\/[^/]+\/tags$/;
const THREAD = /^\/v2\/api\/threads\/[^/]+$/;
const NOTES_LIST = /^\/v2\/api\/conversations\/[^/]+\/notes$/;
const AGENT = /^\/v2\/api\/numbers\/[^/]+\/agent$/;

export const isItemRead = (q: ProxiedRequest) => q.method === 'GET' && ITEM.test(pathOf(q));
export const isBatch = (q: ProxiedRequest) => q.method === 'POST' && pathOf(q) === '/v2/api/conversations/items/batch';
export const isTagAdd = (q: ProxiedRequest) => q.method === 'POST' && ITEM_TAGS.test(pathOf(q));
export const isTagRemoval = (q: ProxiedRequest) => q.method === 'DELETE' && /\/tags\/[^/]+$/.test(pathOf(q));
/** GET /v2/api/threads/{id}. */
export const isThreadRead = (q: ProxiedRequest) => q.method === 'GET' && THREAD.test(pathOf(q));
/** GET /v2/api/threads?entity_type=…&entity_id=…: the look-up of an item's thread. */
export const isThreadLookup = (q: ProxiedRequest) => q.method === 'GET' && pathOf(q) === '/v2/api/threads';
export const isNotesList = (q: ProxiedRequest) => q.method === 'GET' && NOTES_LIST.test(pathOf(q));
export const isFieldList = (q: ProxiedRequest) => q.method === 'GET' && pathOf(q) === '/v2/api/crm/attributes';
/** PATCH /v2/api/crm/attributes/{key}: a custom field's update. */
export const isFieldUpdate = (q: ProxiedRequest) =>
  q.method === 'PATCH' && pathOf(q).startsWith('/v2/api/crm/attributes/');
/** The receptionist of a line, read or updated. */
export const isAgent = (q: ProxiedRequest) => AGENT.test(pathOf(q));
