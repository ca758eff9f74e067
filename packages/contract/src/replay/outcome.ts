// What a replay says of one failure: its answer before and after, and the outcome (replay.ts, render.ts).

export type ReplayOutcome = 'passes' | 'still fails' | 'not replayed';

export interface Replayed {
  check: string;
  operationId: string;
  /** `METHOD path` of the request. */
  request: string;
  before: { status?: number; code?: string; message: string };
  outcome: ReplayOutcome;
  after?: { status: number; code?: string; error?: string };
  /** For `still fails`: what the check found in the new answer. */
  problems?: string[];
  /**
   * Instead of its one request sent again: `rule`, its rule was run again alone (a state); `pace`,
   * its operation's traffic was sent again at the run's recorded rate (a rate window, the budget, a
   * 429); `sequence`, the rule that sent its request (`rule`) was run again alone, the check judging
   * the answers of that run (a per-exchange check's failure on a request a rule that changes data sent).
   */
  again?: 'rule' | 'pace' | 'sequence';
  /** For `sequence`: the rule run again, `<check> on <operationId>`. */
  rule?: string;
  /** For `not replayed`: why. */
  reason?: string;
}
