// The report's coverage: per operation in scope, the statuses, error codes and constraint sides
// documented against those the answers and passed checks showed; their totals; the API-wide
// answers seen; and the operations whose success path was never reached.
import type { Operation } from '@svc/spec-runtime';
import { responseKeyFor } from '@svc/spec-runtime/walk';
import { constraintsOf } from '../generate/constraints.js';
import type { InputCoverage } from '../reach/input-report.js';
import type { Spec } from '../spec.js';
import type { CheckOutcome, Observation } from '../types.js';
import type { Coverage, CoverageRow } from './shape.js';

function coverageRow(spec: Spec, op: Operation, observations: Observation[], outcomes: CheckOutcome[]): CoverageRow {
  const seen = observations.filter((o) => o.operationId === op.operationId);
  const covered = new Set(seen.map((o) => responseKeyFor(op, o.status)).filter((k): k is string => k !== undefined));
  const documentedCodes = [...new Set([...op.codesByStatus.values()].flatMap((codes) => [...codes]))];
  const seenCodes = new Set(seen.map((o) => o.code).filter((c): c is string => c !== undefined));
  const documentedConstraints = constraintsOf(spec, op);
  const exercised = (side: 'inside' | 'outside') =>
    documentedConstraints.filter((id) =>
      outcomes.some(
        (o) =>
          o.operationId === op.operationId &&
          o.status === 'passed' &&
          o.constraint?.id === id &&
          o.constraint.side === side,
      ),
    );
  return {
    operationId: op.operationId,
    method: op.method,
    path: op.path,
    exercised: seen.length > 0,
    statuses: { documented: op.statuses, covered: op.statuses.filter((s) => covered.has(s)) },
    codes: { documented: documentedCodes, covered: documentedCodes.filter((c) => seenCodes.has(c)) },
    constraints: { documented: documentedConstraints, inside: exercised('inside'), outside: exercised('outside') },
  };
}

export function coverageRows(
  spec: Spec,
  inScope: ReadonlySet<string>,
  observations: Observation[],
  outcomes: CheckOutcome[],
): CoverageRow[] {
  return spec.contract.operations
    .filter((op) => inScope.has(op.operationId))
    .map((op) => coverageRow(spec, op, observations, outcomes));
}

/** Each distinct status and code seen on answers no operation gave (unknown paths, wrong methods). */
function apiWideAnswers(observations: Observation[]): Coverage['apiWide'] {
  return [
    ...new Map(
      observations
        .filter((o) => o.operationId === null)
        .map((o) => [`${o.status} ${o.code ?? ''}`, { status: o.status, ...(o.code ? { code: o.code } : {}) }]),
    ).values(),
  ];
}

/** The coverage section: the rows, their totals and percent, what was never reached. */
export function coverageOf(
  spec: Spec,
  rows: CoverageRow[],
  observations: Observation[],
  inputs: InputCoverage & { min: number },
): Coverage {
  const sum = (f: (r: CoverageRow) => number) => rows.reduce((n, r) => n + f(r), 0);
  const statuses = {
    documented: sum((r) => r.statuses.documented.length),
    exercised: sum((r) => r.statuses.covered.length),
  };
  const codes = { documented: sum((r) => r.codes.documented.length), exercised: sum((r) => r.codes.covered.length) };
  const constraintSides = {
    documented: sum((r) => 2 * r.constraints.documented.length),
    exercised: sum((r) => r.constraints.inside.length + r.constraints.outside.length),
  };
  const documented = statuses.documented + codes.documented + constraintSides.documented;
  const exercised = statuses.exercised + codes.exercised + constraintSides.exercised;
  return {
    operations: { documented: rows.length, exercised: rows.filter((r) => r.exercised).length },
    statuses,
    codes,
    constraintSides,
    percent: documented === 0 ? 100 : Math.round((1000 * exercised) / documented) / 10,
    neverReached: {
      operations: rows.filter((r) => !r.exercised).map((r) => r.operationId),
      codes: rows.flatMap((r) =>
        r.codes.documented.filter((c) => !r.codes.covered.includes(c)).map((c) => `${r.operationId}: ${c}`),
      ),
    },
    rows,
    apiWide: apiWideAnswers(observations),
    unspecifiedOperations: spec.unspecifiedOperations,
    inputs,
  };
}

/** Operations whose answers were all errors: the success path was never reached. */
export function errorOnlyWarnings(rows: CoverageRow[], observations: Observation[]): string[] {
  return rows
    .filter(
      (r) =>
        r.exercised && !observations.some((o) => o.operationId === r.operationId && o.status >= 200 && o.status < 300),
    )
    .map((r) => `${r.operationId}: only error responses were seen; its success path was never reached`);
}
