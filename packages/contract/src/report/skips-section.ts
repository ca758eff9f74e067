// The report's skips: the checks skipped, each reason with its kind and how many checks it
// skipped (most first), and how many count against --max-skipped (the options' own do not).
import type { SkipKind } from '../types.js';
import type { OperationReport, SkipSummary } from './shape.js';

export function skipSummary(operations: OperationReport[], max: number): SkipSummary {
  const skippedChecks = operations.flatMap((op) => op.checks.filter((c) => c.status === 'skipped'));
  const reasons = new Map<string, { reason: string; kind: SkipKind; checks: number }>();
  for (const c of skippedChecks) {
    const reason = c.skipReasons.join('; ') || 'skipped';
    const entry = reasons.get(reason) ?? { reason, kind: c.skipKind ?? 'n/a', checks: 0 };
    entry.checks++;
    reasons.set(reason, entry);
  }
  return {
    total: skippedChecks.length,
    counted: skippedChecks.filter((c) => c.skipKind !== 'option').length,
    max,
    reasons: [...reasons.values()].sort((a, b) => b.checks - a.checks),
  };
}
