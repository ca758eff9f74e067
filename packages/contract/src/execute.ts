// The suite's runner: the registered checks that --only selects, one after the other (in the order
// schedule.ts sets), against one
// session (one client with its rate limiter, one recorder, the fixtures found once). Each check
// hands back its record: the assertions it and its responses made, closed by verdict.ts. Progress
// is one line per operation, once all its checks have run (never repeated), counted as the report
// counts (CheckTally).
import { matchesOnly } from './filters.js';
import { MARK, tally } from './report/text.js';
import { CheckContext, type RegisteredCheck, sentBy } from './rules/harness.js';
import { registeredChecks } from './rules/index.js';
import { interleaved } from './schedule.js';
import type { Session } from './session.js';
import { resourcesOfShard, type Shard } from './shard.js';
import type { CheckOutcome, TestRecord } from './types.js';

export { registeredChecks };

import { CheckTally, closingOutcome, judgedOutcomes, statusOf, unmetNeed } from './verdict.js';

/**
 * A per-exchange check's failure on a request the check sent itself names that check as its rule
 * (MadeBy): replay runs a rule that changes data again to show it, not the one request alone.
 */
function withMadeBy(outcomes: CheckOutcome[], check: RegisteredCheck, sent: ReadonlySet<number>): CheckOutcome[] {
  const madeBy = { check: check.id, operationId: check.operationId, ...(check.needs.writes ? { writes: true } : {}) };
  return outcomes.map((o) =>
    o.status === 'failed' && o.expected?.judge === 'exchange' && o.check !== check.id && sent.has(o.exchange ?? 0)
      ? { ...o, madeBy }
      : o,
  );
}

async function runCheck(session: Session, check: RegisteredCheck): Promise<TestRecord> {
  const t = new CheckContext(session, check.id, check.operationId);
  const unmet = unmetNeed(check.needs, session.config);
  session.undo.during({ check: check.id, operationId: check.operationId });
  let thrown: unknown;
  if (unmet === undefined) {
    try {
      const judged = await check.judge(t);
      for (const outcome of judgedOutcomes(check, judged)) session.recorder.add(outcome);
    } catch (error) {
      thrown = error ?? new Error('a check threw undefined');
    }
  }
  const closing = closingOutcome(check, { unmet, thrown });
  if (closing) session.recorder.add(closing);
  const drained = session.recorder.drain();
  const record = { ...drained, outcomes: withMadeBy(drained.outcomes, check, sentBy(t)) };
  return check.needs.stateful || check.needs.keys ? { ...record, stateful: true } : record;
}

/** Runs the checks --only selects; with `resources` (a --shard's share), only those of these resources. */
export async function runChecks(
  session: Session,
  progress?: (line: string) => void,
  resources?: ReadonlySet<string>,
): Promise<TestRecord[]> {
  const records: TestRecord[] = [];
  const checks = new CheckTally();
  let requests = 0;
  const selected = interleaved(
    registeredChecks().filter(
      (check) =>
        matchesOnly(session.config.only, check.resource, check.operationId, check.id, session.spec) &&
        (!resources || resources.has(check.resource)),
    ),
    session.spec.contract.operationsById,
  );
  // An operation's checks need not be registered together (its scenarios may follow another's):
  // its line is printed once, after the last of them.
  const lastOf = new Map(selected.map((check, index) => [check.operationId, index]));
  const report = (group: string) => {
    if (!progress) return;
    const own = checks.counts(group);
    const failed = checks.counts().failed;
    progress(
      `  ${MARK[statusOf(own)]} ${group.padEnd(28)} ${tally(own)}  (${requests} requests, ${failed} failed check${failed === 1 ? '' : 's'} so far)`,
    );
  };
  for (const [index, check] of selected.entries()) {
    const record = await runCheck(session, check);
    records.push(record);
    requests += record.requests;
    checks.add(record.outcomes);
    if (lastOf.get(check.operationId) === index) report(check.operationId);
  }
  return records;
}

/** The resources whose checks a --shard runs (shard.ts deals them out). */
export function shardResources(shard: Shard): Set<string> {
  return resourcesOfShard(
    registeredChecks().map((c) => c.resource),
    shard,
  );
}
