// The report: every outcome the checks recorded, per operation and check, with the failures
// (each with the curl that reproduces it) and the coverage of the contract (operations, statuses
// and error codes exercised against those documented; the operations not yet specified). Each
// section is built in its own module (checks-section.ts, coverage-section.ts, skips-section.ts);
// buildReport puts them together and decides the run's outcome.
import { selectedOperations } from '../filters.js';
import { inputCoverage } from '../reach/input-report.js';
import type { Spec } from '../spec.js';
import { DEFAULT_MAX_SKIPPED } from '../tool.js';
import type { ExchangeSummary, RateSetting, TestRecord } from '../types.js';
import { CheckTally, checkKey, runOutcome, statelessHint, tooLittleCoverage, tooManySkips } from '../verdict.js';
import { operationReports, summariseChecks } from './checks-section.js';
import { coverageOf, coverageRows, errorOnlyWarnings } from './coverage-section.js';
import type { Report, ReportInput } from './shape.js';
import { skipSummary } from './skips-section.js';

export type {
  CheckSummary,
  Coverage,
  CoverageRow,
  Failure,
  OperationReport,
  Report,
  ReportInput,
  SkipSummary,
} from './shape.js';

/** The floor of a request mix at the given rates, and the wall time against it. */
export function pacingOf(
  records: readonly TestRecord[],
  rate: RateSetting,
  durationMs: number,
): NonNullable<Report['pacing']> {
  const reads = records.reduce((n, r) => n + (r.reads ?? 0), 0);
  const writes = records.reduce((n, r) => n + (r.writes ?? 0), 0);
  const floorSeconds = Math.max(reads / rate.readsPerSecond, writes / rate.writesPerSecond);
  const wallSeconds = durationMs / 1000;
  return {
    reads,
    writes,
    floorSeconds: Number(floorSeconds.toFixed(2)),
    wallSeconds: Number(wallSeconds.toFixed(2)),
    ratio: floorSeconds > 0 ? Number((wallSeconds / floorSeconds).toFixed(2)) : 0,
  };
}

/** The checks shown and their tally (the same as the progress line's), with the stateless hint where it applies. */
function checksSection(spec: Spec, records: readonly TestRecord[], meta: ReportInput['meta']) {
  const outcomes = records.flatMap((r) => r.outcomes);
  const exchanges = new Map<number, ExchangeSummary>();
  for (const r of records) for (const e of r.exchanges) exchanges.set(e.seq, e);
  const { byOperation, assertions } = summariseChecks(outcomes, exchanges);
  const operations = operationReports(spec, byOperation, meta.only);
  const shown = new Set(operations.flatMap((op) => op.checks.map((c) => checkKey({ ...op, check: c.id }))));
  const tally = new CheckTally();
  tally.add(outcomes.filter((o) => shown.has(checkKey(o))));
  // A stateful check's own verdicts; the response checks of its requests hold for any server.
  const statefulKeys = new Set(
    records
      .filter((r) => r.stateful)
      .flatMap((r) => r.outcomes.filter((o) => !o.check.startsWith('response.')).map(checkKey)),
  );
  const hint = statelessHint(meta.profile, tally.failedKeys(), statefulKeys);
  return { operations, assertions, checks: tally.counts(), ...(hint ? { hint } : {}) };
}

export function buildReport({
  spec,
  records,
  errors: outside,
  maxSkipped = DEFAULT_MAX_SKIPPED,
  withheld,
  minInputCoverage = 0,
  meta: { tool, ...meta },
}: ReportInput): Report {
  const { operations, assertions, checks, hint } = checksSection(spec, records, { tool, ...meta });
  const observations = records.flatMap((r) => r.observations);
  const inScope = selectedOperations(spec, meta.only);
  const rows = coverageRows(
    spec,
    inScope,
    observations,
    records.flatMap((r) => r.outcomes),
  );
  const inputs = inputCoverage(
    spec,
    spec.contract.operations.filter((op) => inScope.has(op.operationId)),
    records,
    withheld,
  );
  const skipped = skipSummary(operations, maxSkipped);
  const problems = [tooManySkips(skipped.counted, maxSkipped), tooLittleCoverage(inputs.percent, minInputCoverage)];
  const errors = [...outside, ...problems.filter((p): p is string => p !== undefined)];
  return {
    tool,
    contract: { title: spec.title, version: spec.version },
    ...meta,
    requests: records.reduce((n, r) => n + r.requests, 0),
    summary: {
      outcome: runOutcome(checks.failed, errors.length),
      checks,
      assertions,
      skipped,
      ...(hint ? { hint } : {}),
    },
    warnings: errorOnlyWarnings(rows, observations),
    ...(meta.rate ? { pacing: pacingOf(records, meta.rate, meta.durationMs) } : {}),
    operations,
    failures: operations.flatMap((op) => op.checks.flatMap((c) => c.failures)),
    coverage: coverageOf(spec, rows, observations, { ...inputs, min: minInputCoverage }),
    errors,
  };
}
