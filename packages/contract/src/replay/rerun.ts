// A failure whose rule judged a state (`expected.judge` `state`: a write read back, a key used
// again, an answer compared with earlier ones) is replayed by running that rule again, alone, on
// its operation, through a run's own machinery (fixtures, precondition steps, undo): the replay's
// verdict is the rule's on the new run. A failure of the run's pace (a rate window, the run's own
// budget, a 429) is replayed the same way, paced as the run was (its recorded rate and --burst):
// a check of every answer is run again over its operation's traffic, a rule over its own. A
// per-exchange check's failure on a request a rule that changes data sent (MadeBy) is replayed by
// that rule run again too, the check's outcomes on the failure's operation in that run its verdict.
// Only the entry (run.ts) may run checks, so it hands the runner in (RunCheckAgain); this module
// asks it once per rule and reads the verdict of the check judged.
import { parseBody } from '../http/exchange.js';
import type { CheckOutcome, ContractConfig, ExchangeSummary, Profile, RateSetting } from '../types.js';
import type { Replayed } from './outcome.js';

/** One check on one operation to run again, against `baseUrl`, as the failure's run ran it. */
export interface CheckAgain {
  check: string;
  operationId: string;
  baseUrl: string;
  profile: Profile;
  rate: RateSetting | null;
  /** The run's --burst (its key then not its own: no budget check), kept as the run had it. */
  burst: boolean;
  allowWrites: boolean;
  /** The run's config (keys by key_env, fixtures): given in code, or a file. */
  config?: ContractConfig;
  configPath?: string;
  env: Record<string, string | undefined>;
  timeoutMs: number;
}

/** What the check's new run came to (every outcome of it, and the exchanges they point at; redacted), or why it was not run. */
export type CheckRunAgain = { notRun: string } | { outcomes: CheckOutcome[]; exchanges: ExchangeSummary[] };

export type RunCheckAgain = (again: CheckAgain) => Promise<CheckRunAgain>;

/** Why a write (a request, or a rule that sends one) is not replayed: as in a run, writes need the option. */
export const WRITES_NOT_ALLOWED = 'changes data: replay with --allow-writes';

/** The error code of an answer's body, when it is an error body. */
export function codeIn(body: string | undefined): string | undefined {
  const parsed = body === undefined ? undefined : parseBody(body);
  const code = (parsed as { error?: { code?: unknown } } | undefined)?.error?.code;
  return typeof code === 'string' ? code : undefined;
}

function afterOf(outcome: CheckOutcome | undefined, exchanges: readonly ExchangeSummary[]): Replayed['after'] {
  const exchange = exchanges.find((e) => e.seq === outcome?.exchange);
  if (exchange === undefined) return undefined;
  const code = codeIn(exchange.responseBody);
  return {
    status: exchange.status ?? 0,
    ...(code ? { code } : {}),
    ...(exchange.error !== undefined ? { error: exchange.error } : {}),
  };
}

/** A check on an operation: the one whose outcomes in a new run are a replay's verdict. */
export type CheckOn = Pick<CheckOutcome, 'check' | 'operationId'>;

const isOn = (o: CheckOn, on: CheckOn) => o.check === on.check && o.operationId === on.operationId;

/** Why the check judged gave no verdict in the new run: skipped (it, or the rule run again for it), or never met. */
function noVerdictWhy(outcomes: readonly CheckOutcome[], judged: CheckOn, ran: CheckOn): string {
  const skipped = outcomes.find((o) => isOn(o, judged) && o.status === 'skipped');
  if (skipped) return `the check, run again, was skipped: ${skipped.detail ?? ''}`;
  if (isOn(ran, judged)) return 'the check, run again, ran nothing';
  const ruleSkipped = outcomes.find((o) => isOn(o, ran) && o.status === 'skipped');
  if (ruleSkipped) return `its rule ${ran.check}, run again, was skipped: ${ruleSkipped.detail ?? ''}`;
  return `its rule ${ran.check}, run again, got no answer from ${judged.operationId} for ${judged.check} to judge`;
}

/**
 * A failure's replay from a new run of `ran` (its rule, or its operation's checks): the outcomes
 * of `judged` there (the failure's own check on its operation) still failing, passing, or (skipped,
 * not run, never met) not replayed.
 */
export function replayedByRun(
  own: Omit<Replayed, 'outcome'>,
  run: CheckRunAgain,
  { ran, judged = ran, again = 'rule' }: { ran: CheckOn; judged?: CheckOn; again?: NonNullable<Replayed['again']> },
): Replayed {
  const notReplayed = (reason: string): Replayed => ({ ...own, outcome: 'not replayed', reason, again });
  if ('notRun' in run) return notReplayed(run.notRun);
  const outcomes = run.outcomes.filter((o) => isOn(o, judged));
  const failed = outcomes.filter((o) => o.status === 'failed');
  if (failed.length > 0) {
    const after = afterOf(failed[0], run.exchanges);
    const problems = failed.map((o) => o.detail ?? 'failed');
    return { ...own, outcome: 'still fails', ...(after ? { after } : {}), problems, again };
  }
  if (outcomes.some((o) => o.status === 'passed')) return { ...own, outcome: 'passes', again };
  return notReplayed(noVerdictWhy(run.outcomes, judged, ran));
}
