// One handler per operationId of the contract. createHandlers refuses to build a sandbox that
// leaves a documented operation without a handler.
import type { Contract } from '@svc/spec-runtime';
import { applyConversationAction, listConversations } from './conversations.js';
import { getDeal, searchPeople, updatePerson } from './crm.js';
import { listCustomFields, updateCustomField } from './custom-fields.js';
import { upsertCurrentDialingQueue } from './dialer-queue.js';
import { getUser, listNumbers, listTags, listUsers } from './directory.js';
import {
  addConversationItemTags,
  batchGetConversationItems,
  getConversationItem,
  removeConversationItemTag,
  searchConversationItems,
} from './items.js';
import { getConversationNote, listConversationNotes } from './notes.js';
import { getReceptionist, type MergeRules, updateReceptionist } from './receptionist.js';
import { deleteSummaryTemplate } from './summary-templates.js';
import { addThreadComment, createThread, findThread, getThread } from './threads.js';
import type { Handler } from './types.js';

function mergeRules(contract: Contract): MergeRules {
  const op = contract.operationsById.get('updateReceptionist');
  const schema = op?.requestBody
    ? (contract.resolve(op.requestBody.schemaPointer) as { 'x-svc-merge-rules'?: MergeRules } | undefined)
    : undefined;
  const rules = schema?.['x-svc-merge-rules'];
  if (!rules || !Array.isArray(rules.merged) || !Array.isArray(rules.replaced))
    throw new Error('The contract has no x-svc-merge-rules on the receptionist update body.');
  return rules;
}

export function createHandlers(contract: Contract): ReadonlyMap<string, Handler> {
  const handlers = new Map<string, Handler>(
    Object.entries({
      listConversations,
      applyConversationAction,
      listConversationNotes,
      getConversationNote,
      searchConversationItems,
      batchGetConversationItems,
      getConversationItem,
      addConversationItemTags,
      removeConversationItemTag,
      createThread,
      findThread,
      getThread,
      addThreadComment,
      listCustomFields,
      updateCustomField,
      getDeal,
      searchPeople,
      updatePerson,
      upsertCurrentDialingQueue,
      deleteSummaryTemplate,
      listNumbers,
      getReceptionist,
      updateReceptionist: updateReceptionist(mergeRules(contract)),
      listUsers,
      getUser,
      listTags,
    }),
  );
  const missing = contract.operations.filter((op) => !handlers.has(op.operationId)).map((op) => op.operationId);
  if (missing.length > 0) throw new Error(`The sandbox has no handler for ${missing.join(', ')}.`);
  return handlers;
}
