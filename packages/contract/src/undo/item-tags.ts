// The tags of a conversation item: those the run took off are added back, those it added are
// taken off (a tag new to the team stays in the team's list: no operation removes one).
import type { FoundState, UndoProblem } from '../undo-ledger.js';
import { callOp, dataObject, leftChanged, type UndoContext, unreadable } from './context.js';

export function itemTags(cx: UndoContext, params: Record<string, string>): FoundState | undefined {
  const id = params.id;
  if (!id) return undefined;
  const what = `the tags of item ${id}`;
  const read = async () => {
    const exchange = await callOp(cx, 'getConversationItem', { params: { id } });
    const tags = dataObject(exchange)?.tags;
    return { exchange, tags: Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string') : undefined };
  };
  return {
    key: `item tags ${id}`,
    read: async () => {
      const found = (await read()).tags;
      if (!found) return undefined;
      const putBack = async (): Promise<UndoProblem[]> => {
        const now = await read();
        if (!now.tags) return unreadable(what, now.exchange);
        const problems: UndoProblem[] = [];
        for (const tag of found.filter((t) => !now.tags?.includes(t))) {
          const added = await callOp(cx, 'addConversationItemTags', { params: { id }, body: { tags: [tag] } });
          problems.push(...leftChanged(`${what} (${tag} taken off)`, added));
        }
        for (const tag of now.tags.filter((t) => !found.includes(t))) {
          const removed = await callOp(cx, 'removeConversationItemTag', { params: { id, tag } });
          problems.push(...leftChanged(`${what} (${tag} added)`, removed));
        }
        return problems;
      };
      return { what, putBack };
    },
  };
}
