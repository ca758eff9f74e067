// The person of fixtures.person_update: the only person a run sends an update meant to succeed
// (the update's body, and whether PUT merges or replaces, are not shown). No operation reads a
// person by id, so the person is not read as found: the config's undo is sent at the end, always.
import type { FoundState, UndoProblem } from '../undo-ledger.js';
import { callOp, leftChanged, type UndoContext } from './context.js';

export function declaredPerson(cx: UndoContext, params: Record<string, string>): FoundState | undefined {
  const declared = cx.personUpdate;
  if (!declared || params.id !== declared.id) return undefined;
  const what = `the person ${declared.id} (fixtures.person_update, put back with its undo)`;
  return {
    key: `person ${declared.id}`,
    read: async () => ({
      what,
      putBack: async (): Promise<UndoProblem[]> =>
        leftChanged(what, await callOp(cx, 'updatePerson', { params: { id: declared.id }, body: declared.undo })),
    }),
  };
}
