// One valid request per operation of the contract, against the seed. The cross-cutting suites
// (authentication, scopes, rate limits, idempotency, media types) run every one of them.
export interface Sample {
  method: string;
  path: string;
  body?: unknown;
}

export const SAMPLES: Record<string, Sample> = {
  listConversations: { method: 'GET', path: '/v2/api/conversations' },
  applyConversationAction: {
    method: 'PUT',
    path: '/v2/api/conversations/%2B16505550111/action',
    body: { action: 'READ' },
  },
  listConversationNotes: { method: 'GET', path: '/v2/api/conversations/%2B14155550123/notes' },
  getConversationNote: { method: 'GET', path: '/v2/api/conversations/notes/not-7Hq2xL9a' },
  searchConversationItems: { method: 'POST', path: '/v2/api/conversations/items/search', body: { query: 'invoice' } },
  batchGetConversationItems: {
    method: 'POST',
    path: '/v2/api/conversations/items/batch',
    body: { ids: ['cll-9Jd3kW2p', 'msg-2Rf8nQ5v'] },
  },
  getConversationItem: { method: 'GET', path: '/v2/api/conversations/items/cll-4Xs8mN1c' },
  addConversationItemTags: {
    method: 'POST',
    path: '/v2/api/conversations/items/cll-4Xs8mN1c/tags',
    body: { tags: ['Emergency'] },
  },
  removeConversationItemTag: { method: 'DELETE', path: '/v2/api/conversations/items/cll-9Jd3kW2p/tags/VIP' },
  createThread: {
    method: 'POST',
    path: '/v2/api/threads',
    body: { entity_type: 'CALL', entity_id: 'cll-4Xs8mN1c', content: 'Site visit confirmed.' },
  },
  findThread: { method: 'GET', path: '/v2/api/threads?entity_type=CALL&entity_id=cll-9Jd3kW2p' },
  getThread: { method: 'GET', path: '/v2/api/threads/cth-5Lm1zX7e' },
  addThreadComment: { method: 'POST', path: '/v2/api/threads/cth-5Lm1zX7e/comments', body: { content: 'Done.' } },
  listCustomFields: { method: 'GET', path: '/v2/api/crm/attributes' },
  updateCustomField: { method: 'PATCH', path: '/v2/api/crm/attributes/seats', body: { label: 'Seat count' } },
  getDeal: { method: 'GET', path: '/v2/api/crm/deals/dea-5Ys3bM8k' },
  searchPeople: { method: 'POST', path: '/v2/api/crm/people/search', body: { query: 'maria' } },
  updatePerson: { method: 'PUT', path: '/v2/api/crm/people/per-6Kx2hD9m', body: { last_name: 'Lopez-Ortiz' } },
  upsertCurrentDialingQueue: {
    method: 'PATCH',
    path: '/v2/api/dialing-queues/current',
    body: { name: 'Spring renewals' },
  },
  deleteSummaryTemplate: { method: 'DELETE', path: '/v2/api/summary_templates/9c1f5e7a3b22' },
  listNumbers: { method: 'GET', path: '/v2/api/numbers' },
  getReceptionist: { method: 'GET', path: '/v2/api/numbers/%2B14155550100/agent' },
  updateReceptionist: {
    method: 'PATCH',
    path: '/v2/api/numbers/%2B14155550100/agent',
    body: { greeting_message: 'Hello from Harbor.' },
  },
  listUsers: { method: 'GET', path: '/v2/api/users' },
  getUser: { method: 'GET', path: '/v2/api/users/usr-4TgB81cd' },
  listTags: { method: 'GET', path: '/v2/api/tags' },
};
