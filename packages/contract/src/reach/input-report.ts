// The input-coverage table of a report: per operation, the documented inputs (reach/inputs.ts)
// against what the run's exchanges exercised, and everything never sent or never broken alone,
// listed by name.
import type { Operation } from '@svc/spec-runtime';
import type { Spec } from '../spec.js';
import type { TestRecord } from '../types.js';
import { documentedInputs } from './inputs.js';

export interface InputCoverageRow {
  operationId: string;
  /** Inputs documented and those some request that succeeded carried. */
  sent: { documented: number; covered: number };
  /** Validation rules documented and those some refused request broke alone. */
  rules: { documented: number; covered: number };
  /** What was never sent (`sent: body options[].key`) or never broken alone (`broken: query size maximum`). */
  missing: string[];
  /** Why the inputs a success would carry are not sent on purpose (not counted); absent: they are. */
  withheld?: string;
}

export interface InputCoverage {
  documented: number;
  covered: number;
  /** covered / documented in percent, one decimal (100 when nothing is documented). */
  percent: number;
  rows: InputCoverageRow[];
}

export function percentOf(covered: number, documented: number): number {
  return documented === 0 ? 100 : Math.floor((1000 * covered) / documented) / 10;
}

export function inputCoverage(
  spec: Spec,
  operations: readonly Operation[],
  records: readonly TestRecord[],
  withheld: ReadonlyMap<string, string> = new Map(),
): InputCoverage {
  const sent = new Map<string, Set<string>>();
  const broke = new Map<string, Set<string>>();
  for (const r of records)
    for (const x of r.inputs ?? []) {
      const s = sent.get(x.operationId) ?? new Set<string>();
      const b = broke.get(x.operationId) ?? new Set<string>();
      for (const id of x.sent) s.add(id);
      for (const id of x.broke) b.add(id);
      sent.set(x.operationId, s);
      broke.set(x.operationId, b);
    }
  const rows = operations.map((op): InputCoverageRow => {
    const all = documentedInputs(spec, op);
    const reason = withheld.get(op.operationId);
    const documented = reason === undefined ? all : { ...all, sent: [] };
    const s = sent.get(op.operationId) ?? new Set<string>();
    const b = broke.get(op.operationId) ?? new Set<string>();
    const missingSent = documented.sent.filter((id) => !s.has(id));
    const missingRules = documented.rules.filter((id) => !b.has(id));
    return {
      operationId: op.operationId,
      sent: { documented: documented.sent.length, covered: documented.sent.length - missingSent.length },
      rules: { documented: documented.rules.length, covered: documented.rules.length - missingRules.length },
      missing: [...missingSent.map((id) => `sent: ${id}`), ...missingRules.map((id) => `broken: ${id}`)],
      ...(reason === undefined ? {} : { withheld: `${all.sent.join(', ')}: ${reason}` }),
    };
  });
  const documented = rows.reduce((n, r) => n + r.sent.documented + r.rules.documented, 0);
  const covered = rows.reduce((n, r) => n + r.sent.covered + r.rules.covered, 0);
  return { documented, covered, percent: percentOf(covered, documented), rows };
}
