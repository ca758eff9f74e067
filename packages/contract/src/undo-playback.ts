// The end of a run: the undo ledger played back (undo-ledger.ts), its requests recorded and
// checked like any other, and every undo that failed a failure of the check whose write it undoes.
import type { Session } from './session.js';
import type { TestRecord } from './types.js';
import { ruleOutcomes } from './verdict.js';

/** Puts back what the run changed of what it found; the record of doing so (undefined: nothing to do). */
export async function playBackUndo(
  session: Session,
  progress?: (line: string) => void,
): Promise<TestRecord | undefined> {
  const registered = session.undo.size;
  if (registered === 0) return undefined;
  const failures = await session.undo.playBack();
  for (const failure of failures)
    for (const outcome of ruleOutcomes(failure.check, failure.operationId, [failure])) session.recorder.add(outcome);
  const record = session.recorder.drain();
  progress?.(
    `  put back what the run found: ${registered} thing${registered === 1 ? '' : 's'} read again, ${record.writes ?? 0} write${record.writes === 1 ? '' : 's'} to put back, ${failures.length} left changed`,
  );
  return { ...record, stateful: true };
}
