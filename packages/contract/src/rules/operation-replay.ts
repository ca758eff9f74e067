// Idempotency on a write method that changes nothing (a search, a batch read: POST, documented as
// safe): "Write endpoints (POST, PUT, DELETE) accept an optional Idempotency-Key" and the same key
// sent again "returns the stored response with the header Idempotency-Replayed: true", whatever
// the endpoint does. The scenario files cover the writes that change data, each on its own target.
import { isReplayPromised } from '@svc/spec-runtime/facts';
import { rule } from './harness.js';
import type { OperationUnderTest } from './operation-context.js';
import { IDEMPOTENCY_REPLAY, replayProblems, sendRepeats } from './support.js';

/** A keyed request of a safe write method, and three repeats of its key: each the stored response. */
export function safeWriteReplayRule(u: OperationUnderTest): void {
  if (u.changesData || !u.spec.contract.limits.writeMethods.includes(u.op.method)) return;
  if (!isReplayPromised(u.spec.contract, u.op)) return;
  rule({
    ...IDEMPOTENCY_REPLAY,
    ...u.where,
    needs: { stateful: true },
    requests: async (t) => {
      const base = await u.baseline(t);
      return sendRepeats(t, `${u.op.method} ${u.op.path}`, 'replay', (keyed) => t.call(base, keyed));
    },
    problems: (repeats, t) => replayProblems(repeats, t.spec.idempotencyReplayedHeader),
    passed: (repeats) => `${repeats.what}: 3 repeats replayed`,
  });
}
