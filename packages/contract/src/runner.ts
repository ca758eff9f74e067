// The suite's runner: the registered checks that --only selects, one after the other, against one
// session (one client with its rate limiter, one recorder, the fixtures found once). Each check
// hands back its record: the assertions it and its responses made, closed by verdict.ts. Progress
// is one line per operation, once its checks have run.
import { matchesOnly } from './filters.js';
import type { OutcomeStatus, TestRecord } from './model.js';
import { MARK, tally } from './report/text.js';
import type { Session } from './session.js';
import { CheckContext, type RegisteredCheck } from './suite/harness.js';
import { registeredChecks } from './suite/index.js';
import { closingOutcome, recordStatus, statusOf, unmetNeed } from './verdict.js';

async function runCheck(session: Session, check: RegisteredCheck): Promise<TestRecord> {
  const t = new CheckContext(session, check.id, check.operationId);
  const unmet = unmetNeed(check.needs, session.config);
  let thrown: unknown;
  if (unmet === undefined) {
    try {
      await check.run(t);
    } catch (error) {
      thrown = error ?? new Error('a check threw undefined');
    }
  }
  const closing = closingOutcome(check, { unmet, thrown, failed: t.failed, passes: t.passes });
  if (closing) session.recorder.add(closing);
  return session.recorder.drain();
}

export async function runChecks(session: Session, progress?: (line: string) => void): Promise<TestRecord[]> {
  const records: TestRecord[] = [];
  let requests = 0;
  let group: { operationId: string; tally: Record<OutcomeStatus, number> } | undefined;
  const report = () => {
    if (!group || !progress) return;
    progress(
      `  ${MARK[statusOf(group.tally)]} ${group.operationId.padEnd(28)} ${tally(group.tally)}  (${requests} requests so far)`,
    );
  };
  for (const check of registeredChecks()) {
    if (!matchesOnly(session.config.only, check.resource, check.operationId, check.id, session.spec)) continue;
    if (group?.operationId !== check.operationId) {
      report();
      group = { operationId: check.operationId, tally: { passed: 0, failed: 0, skipped: 0 } };
    }
    const record = await runCheck(session, check);
    records.push(record);
    requests += record.requests;
    group.tally[recordStatus(record, check.id)]++;
  }
  report();
  return records;
}
