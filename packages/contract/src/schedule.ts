// The order the runner runs the selected checks in. The documented limits pace writes at 5 a
// second and reads at 20, each class on its own budget, so after a write the next one waits about
// 200 ms whatever happens in between: reads sent in that wait cost no time. A check that only
// reads, run in a row with others that only read, costs its reads' time on top of the writes'
// (about 20 s of a full run). So each check that may write is followed by the next check that only
// reads, drawn forward from later in the order: the reads fill the wait before the next write.
//
// Only checks that read move, and only earlier: a check that may write keeps its place among the
// others that may write (their scenarios build on one another's leftovers, idempotency-kept comes
// last), and a check that reads sees no write it would not have seen in the registry's order
// beyond those it already saw: it sees fewer.
import type { Operation } from '@svc/spec-runtime';
import type { RegisteredCheck } from './rules/harness.js';

/**
 * A check that sends reads only: one of a GET operation that needs no writes. A check of another
 * method sends that method (refused keys, negative inputs): writes, as the limits count them.
 */
function readsOnly(check: RegisteredCheck, operations: ReadonlyMap<string, Operation>): boolean {
  return !check.needs.writes && operations.get(check.operationId)?.method === 'GET';
}

/** The checks in the order to run them: after each check that may write, the next that only reads. */
export function interleaved(
  checks: readonly RegisteredCheck[],
  operations: ReadonlyMap<string, Operation>,
): RegisteredCheck[] {
  const reading = checks.filter((c) => readsOnly(c, operations));
  const order: RegisteredCheck[] = [];
  const ran = new Set<RegisteredCheck>();
  let next = 0;
  const pull = () => {
    while (next < reading.length && ran.has(reading[next] as RegisteredCheck)) next++;
    const check = reading[next];
    if (check) {
      ran.add(check);
      order.push(check);
    }
  };
  for (const check of checks) {
    if (ran.has(check)) continue;
    ran.add(check);
    order.push(check);
    if (!readsOnly(check, operations)) pull();
  }
  return order;
}
