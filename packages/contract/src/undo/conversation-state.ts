// A conversation's read and archived state on each line, where the list entry shows it (the
// contract documents no field for it: a server whose entries carry no `read` / `archived`
// booleans cannot be put back, and the README says so). Put back with the actions that lead to
// each state (ConversationAction's x-svc-transitions): archived first, since ARCHIVE also marks read.
import { isObject } from '@svc/spec-runtime';
import type { Exchange } from '../http/exchange.js';
import type { FoundState, UndoProblem } from '../undo-ledger.js';
import { callOp, leftChanged, succeeded, type UndoContext } from './context.js';

interface State {
  read?: boolean;
  archived?: boolean;
}

/** The action that leads to a state ("action ARCHIVE" to archived), from the contract. */
function actionTo(cx: UndoContext, state: string): string | undefined {
  const transitions = cx.spec.schema('ConversationAction')?.['x-svc-transitions'];
  if (!Array.isArray(transitions)) return undefined;
  const found = transitions.find((tr) => isObject(tr) && tr.to === state);
  return isObject(found) && typeof found.trigger === 'string' ? found.trigger.replace(/^action\s+/i, '') : undefined;
}

async function linesOf(cx: UndoContext): Promise<string[]> {
  const exchange = await callOp(cx, 'listNumbers', {});
  const list = succeeded(exchange) ? (exchange.body as { data?: unknown }).data : undefined;
  return Array.isArray(list)
    ? list.flatMap((l) => (isObject(l) && typeof l.number === 'string' ? [l.number] : []))
    : [];
}

/** The conversation's state on one line, where its entry is on the first page and shows it. */
async function stateOn(cx: UndoContext, contact: string, line: string): Promise<State | undefined> {
  const query = { svc_number: line, size: cx.spec.pageSizeMax };
  const exchange = await callOp(cx, 'listConversations', { query });
  const list = succeeded(exchange) ? (exchange.body as { data?: unknown }).data : undefined;
  const entry = Array.isArray(list) ? list.find((e) => isObject(e) && e.contact_number === contact) : undefined;
  if (!isObject(entry)) return undefined;
  const state: State = {
    ...(typeof entry.read === 'boolean' ? { read: entry.read } : {}),
    ...(typeof entry.archived === 'boolean' ? { archived: entry.archived } : {}),
  };
  return Object.keys(state).length > 0 ? state : undefined;
}

/** The actions that take `now` back to `found`, in order. */
function actionsBack(cx: UndoContext, found: State, now: State): Array<string | undefined> {
  const actions: Array<string | undefined> = [];
  let read = now.read;
  if (found.archived !== undefined && found.archived !== now.archived) {
    actions.push(actionTo(cx, found.archived ? 'archived' : 'unarchived'));
    if (found.archived) read = true;
  }
  if (found.read !== undefined && found.read !== read) actions.push(actionTo(cx, found.read ? 'read' : 'unread'));
  return actions;
}

export function conversationState(cx: UndoContext, params: Record<string, string>): FoundState | undefined {
  const contact = params.contact_number;
  if (!contact) return undefined;
  const what = `the read and archived state of conversation ${contact}`;
  return {
    key: `conversation ${contact}`,
    read: async () => {
      const found = new Map<string, State>();
      for (const line of await linesOf(cx)) {
        const state = await stateOn(cx, contact, line);
        if (state) found.set(line, state);
      }
      if (found.size === 0) return undefined;
      const putBack = async (): Promise<UndoProblem[]> => {
        const problems: UndoProblem[] = [];
        for (const [line, was] of found) {
          const now = (await stateOn(cx, contact, line)) ?? {};
          for (const action of actionsBack(cx, was, now)) {
            if (action === undefined) {
              problems.push({ message: `${what} on line ${line}: the contract names no action back` });
              continue;
            }
            const sent: Exchange = await callOp(cx, 'applyConversationAction', {
              params: { contact_number: contact },
              body: { action, svc_number: line },
            });
            problems.push(...leftChanged(`${what} on line ${line}`, sent));
          }
        }
        return problems;
      };
      return { what, putBack };
    },
  };
}
