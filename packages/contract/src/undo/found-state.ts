// Which writes the run can undo, and which it cannot. Every operation of the contract that changes
// data is in exactly one of the two tables (a test holds them to the contract): a new write
// operation needs a decision before the suite sends it.
import type { ApiRequest } from '../http/exchange.js';
import type { FoundState } from '../undo-ledger.js';
import type { UndoContext } from './context.js';
import { conversationState } from './conversation-state.js';
import { itemTags } from './item-tags.js';
import { declaredPerson } from './person.js';
import { customField, dialerQueue, receptionist } from './settings.js';

export type { UndoContext } from './context.js';

type FoundStateOf = (cx: UndoContext, params: Record<string, string>, body: unknown) => FoundState | undefined;

/** The writes whose target is read before the run's first write to it and put back at its end. */
export const UNDOABLE_WRITES: Readonly<Record<string, FoundStateOf>> = {
  updateCustomField: customField,
  upsertCurrentDialingQueue: dialerQueue,
  updateReceptionist: receptionist,
  applyConversationAction: conversationState,
  addConversationItemTags: itemTags,
  removeConversationItemTag: itemTags,
  updatePerson: declaredPerson,
};

/** The writes no operation can undo, and why (the README's "Writes" lists them with --allow-writes). */
export const PERMANENT_WRITES: Readonly<Record<string, string>> = {
  createThread: 'no operation deletes a thread',
  addThreadComment: 'no operation deletes a comment',
  deleteSummaryTemplate: 'no operation activates a template again',
};

/** How to read a write's target as found, or undefined where the run cannot put it back. */
export function foundStateOf(cx: UndoContext, request: ApiRequest): FoundState | undefined {
  const match = cx.spec.contract.matchRoute(request.method, request.path.split('?')[0] as string);
  if (!('operation' in match)) return undefined;
  return UNDOABLE_WRITES[match.operation.operationId]?.(cx, match.params, request.body);
}
