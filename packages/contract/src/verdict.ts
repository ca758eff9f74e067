// The one place that decides pass, fail or skip. A response check passes unless it found a
// problem in the response. A check the run's options leave out, or one that throws a Skip, a
// missing fixture or a refused write, is skipped with its reason and kind; any other throw is a
// crash (a failed suite.error); a check that ran is decided by its rule's own outcomes
// (ruleOutcomes: one failure per problem, else at least one pass).
// Whatever failed fails its check, its operation and the run; so do too many skips for want of
// configuration, and a run in which no check ran at all.
import { describeCheck } from './check-descriptions.js';
import { MissingFixture, Skip, WritesDisabledError } from './stops.js';
import type { CheckOutcome, Held, Needs, OutcomeStatus, SessionConfig, SkipKind, TestRecord, Where } from './types.js';

// The harness itself: a check that crashed (a bug in the suite or an answer it cannot read).
describeCheck({
  id: 'suite.error',
  title: 'The check ran to completion',
  source: '',
  precondition: 'any check that ran',
});

export { Skip };

/** Why the run's options leave a check out, or undefined when it runs. */
export function unmetNeed(needs: Needs, config: SessionConfig): string | undefined {
  if (needs.burst && !config.burst) return 'opt-in: run with --burst';
  if ((needs.stateful || needs.keys) && config.profile !== 'full') {
    return needs.keys
      ? 'profile mock: a stateless mock accepts any key, so this needs --profile full'
      : 'profile mock: needs a stateful server (--profile full)';
  }
  if (needs.writes && !config.allowWrites) return 'changes data: run with --allow-writes';
  return undefined;
}

export interface CheckRun {
  /** From unmetNeed: the check did not run. */
  unmet: string | undefined;
  /** What the check threw (undefined: nothing). */
  thrown: unknown;
}

/** The outcome that closes a check, beside the assertions it recorded (none when those decide). */
export function closingOutcome(check: Where & { id: string }, run: CheckRun): CheckOutcome | undefined {
  const own = { check: check.id, operationId: check.operationId };
  const skip = (detail: string, skipKind: SkipKind): CheckOutcome => ({ ...own, status: 'skipped', detail, skipKind });
  const { thrown } = run;
  if (run.unmet !== undefined) return skip(run.unmet, 'option');
  if (thrown instanceof Skip) return skip(thrown.message, thrown.kind);
  if (thrown instanceof MissingFixture) return skip(thrown.message, 'config');
  if (thrown instanceof WritesDisabledError)
    return skip(`changes data: run with --allow-writes (${thrown.message})`, 'option');
  const name = check.variant ? `${check.id} (${check.variant})` : check.id;
  if (thrown !== undefined)
    return {
      check: 'suite.error',
      operationId: check.operationId,
      status: 'failed',
      detail: `${name}: ${(thrown as Error).stack ?? String(thrown)}`,
    };
  return undefined;
}

/** How a check that never reached its precondition is reported: skipped, and why, never passed. */
export const NOT_EXERCISED = 'not exercised';

/**
 * A rule's verdict from its judgement (see ruleOutcomes). Its problems fail it whatever state it
 * reached; without any, a rule whose precondition never held (`notReached`) was not exercised: one
 * skip of kind `precondition` ("not exercised: <why>", counted against --max-skipped) and no pass,
 * not even of the cases that held, since none of them ran in the state the rule is about.
 */
export function judgedOutcomes(
  check: Where & { id: string },
  judged: {
    problems: ReadonlyArray<{ message: string; exchange?: { seq: number } }>;
    passed?: string | Held | undefined;
    held: readonly Held[];
    notReached?: string | undefined;
  },
): CheckOutcome[] {
  if (judged.problems.length === 0 && judged.notReached !== undefined)
    return [
      {
        check: check.id,
        operationId: check.operationId,
        status: 'skipped',
        skipKind: 'precondition',
        detail: `${NOT_EXERCISED}: ${judged.notReached}`,
      },
    ];
  return ruleOutcomes(check.id, check.operationId, judged.problems, { passed: judged.passed, held: judged.held });
}

/** An exchange relayed but left unchecked (the proxy: too large, or no memory free): a skip by option. */
export function uncheckedSkip(check: string, operationId: string, detail: string): CheckOutcome {
  return { check, operationId, status: 'skipped', skipKind: 'option', detail };
}

/** A response check's verdict on one exchange: failed with every problem found, passed without. */
export function responseVerdict(
  check: string,
  operationId: string,
  exchange: number,
  problems: readonly string[],
): CheckOutcome {
  return problems.length > 0
    ? { check, operationId, status: 'failed', detail: problems.join('; '), exchange }
    : { check, operationId, status: 'passed' };
}

function passOf(check: string, operationId: string, part: Held): CheckOutcome {
  return {
    check,
    operationId,
    status: 'passed',
    ...(part.detail !== undefined ? { detail: part.detail } : {}),
    ...(part.constraint ? { constraint: part.constraint } : {}),
    ...(part.readings ? { readings: part.readings } : {}),
  };
}

/**
 * A rule's verdict: one failure per problem, each pointing at its exchange; the cases that held
 * (`held`), whatever the others did; and without any problem, one pass (`passed`, or a bare one
 * where nothing else says what passed).
 */
export function ruleOutcomes(
  check: string,
  operationId: string,
  problems: ReadonlyArray<{ message: string; exchange?: { seq: number } }>,
  pass: string | { passed?: string | Held | undefined; held?: readonly Held[] } = {},
): CheckOutcome[] {
  const { passed, held = [] } = typeof pass === 'string' ? { passed: pass } : pass;
  const failures: CheckOutcome[] = problems.map((p) => ({
    check,
    operationId,
    status: 'failed',
    detail: p.message,
    ...(p.exchange ? { exchange: p.exchange.seq } : {}),
  }));
  const parts = held.map((part) => passOf(check, operationId, part));
  if (problems.length > 0) return [...failures, ...parts];
  if (passed !== undefined)
    parts.push(passOf(check, operationId, typeof passed === 'string' ? { detail: passed } : passed));
  return parts.length > 0 ? parts : [passOf(check, operationId, {})];
}

/** Any failure fails; otherwise any pass passes; otherwise it was skipped. */
export function statusOf(counts: { passed: number; failed: number }): OutcomeStatus {
  return counts.failed > 0 ? 'failed' : counts.passed > 0 ? 'passed' : 'skipped';
}

/** A selection that runs no check at all is a mistake, not a pass (response checks do not count). */
export function nothingRan(records: readonly TestRecord[], only: readonly string[]): string | undefined {
  if (records.some((r) => r.outcomes.some((o) => !o.check.startsWith('response.')))) return undefined;
  return `no check ran${only.length ? `: --only ${only.join(', ')} selects none` : ''}`;
}

/** Skips for want of configuration over --max-skipped fail the run: a gate must not pass by skipping. */
export function tooManySkips(counted: number, max: number): string | undefined {
  if (counted <= max) return undefined;
  return `${counted} checks were skipped for want of configuration, more than --max-skipped ${max}: a gate must not pass by skipping (see "Skipped" for the reasons; add the fixtures and keys, or raise --max-skipped)`;
}

/** Input coverage below --min-input-coverage fails the run: what was never exercised is listed in the report. */
export function tooLittleCoverage(percent: number, min: number): string | undefined {
  if (percent >= min) return undefined;
  return `input coverage ${percent}% is below --min-input-coverage ${min}%: documented inputs were never sent in a request that succeeded, or rules never broken alone (see "Input coverage" for each by name)`;
}

export function runOutcome(failedChecks: number, errors: number): 'passed' | 'failed' {
  return failedChecks > 0 || errors > 0 ? 'failed' : 'passed';
}

/** The unit every count of the run is made of: one check on one operation. */
export const checkKey = (o: { operationId: string; check: string }): string => `${o.operationId} ${o.check}`;

/**
 * The run's checks as they stand, each (operation, check) with its passes and failures: the one
 * count of the progress line, the summary and the JUnit file (a failed check is counted once
 * however many problems it found).
 */
export class CheckTally {
  private readonly checks = new Map<string, { operationId: string; passed: number; failed: number }>();

  add(outcomes: Iterable<CheckOutcome>): void {
    for (const o of outcomes) {
      const key = checkKey(o);
      const entry = this.checks.get(key) ?? { operationId: o.operationId, passed: 0, failed: 0 };
      if (o.status === 'passed') entry.passed += o.count ?? 1;
      if (o.status === 'failed') entry.failed++;
      this.checks.set(key, entry);
    }
  }

  /** Checks by status, of one operation or of the whole run. */
  counts(operationId?: string): Record<OutcomeStatus, number> {
    const n: Record<OutcomeStatus, number> = { passed: 0, failed: 0, skipped: 0 };
    for (const c of this.checks.values())
      if (operationId === undefined || c.operationId === operationId) n[statusOf(c)]++;
    return n;
  }

  /** The keys (checkKey) of the failed checks. */
  failedKeys(): string[] {
    return [...this.checks].filter(([, c]) => statusOf(c) === 'failed').map(([key]) => key);
  }
}

export const STATELESS_HINT = 'this looks like a stateless server: try `--profile mock`';

/**
 * The hint for a stateless server checked with the full profile: most of its failed checks are
 * checks that need a server keeping state or telling keys apart (the ones `--profile mock` skips:
 * writes read back, ids found after creation, scopes), so the run most likely chose the wrong profile.
 */
export function statelessHint(
  profile: string,
  failedKeys: readonly string[],
  statefulKeys: ReadonlySet<string>,
): string | undefined {
  if (profile !== 'full' || failedKeys.length === 0) return undefined;
  const stateful = failedKeys.filter((k) => statefulKeys.has(k)).length;
  if (2 * stateful <= failedKeys.length) return undefined;
  return `${STATELESS_HINT} (${stateful} of the ${failedKeys.length} failed checks need a server that keeps state or tells keys apart)`;
}
