// The report: every outcome the checks recorded, per operation and check, with the failures
// (each with the curl that reproduces it) and the coverage of the contract (operations, statuses
// and error codes exercised against those documented; the operations not yet specified). Each
// section is built in its own module (checks-section.ts, coverage-section.ts, skips-section.ts);
// buildReport puts them together and decides the run's outcome.
import { selectedOperations } from '../filters.js';
import { DEFAULT_MAX_SKIPPED } from '../options.js';
import { type InputCoverage, inputCoverage } from '../reach/input-report.js';
import type { Spec, UnspecifiedOperation } from '../spec.js';
import type { ExchangeSummary, OutcomeStatus, Profile, RateSetting, SkipKind, TestRecord } from '../types.js';
import { CheckTally, checkKey, runOutcome, statelessHint, tooLittleCoverage, tooManySkips } from '../verdict.js';
import { operationReports, summariseChecks } from './checks-section.js';
import { coverageOf, coverageRows, errorOnlyWarnings } from './coverage-section.js';
import { skipSummary } from './skips-section.js';

export interface Failure {
  check: string;
  operationId: string;
  message: string;
  curl?: string;
  requestId?: string;
  status?: number;
  responseBody?: string;
}

export interface CheckSummary {
  id: string;
  title: string;
  status: OutcomeStatus;
  passed: number;
  failed: number;
  skipped: number;
  failures: Failure[];
  skipReasons: string[];
  /** For a skipped check: the option-caused kind only when every skip of it was one. */
  skipKind?: SkipKind;
  /** What the passes exercised, where the check says (negative cases, observed state). */
  details: string[];
  /** Where the description is open: the readings the passes accepted (each once). */
  readings: string[];
}

export interface OperationReport {
  operationId: string;
  method?: string;
  path?: string;
  resource: string;
  status: OutcomeStatus;
  checks: CheckSummary[];
}

export interface CoverageRow {
  operationId: string;
  method: string;
  path: string;
  exercised: boolean;
  statuses: { documented: string[]; covered: string[] };
  codes: { documented: string[]; covered: string[] };
  /** The documented request constraints (generate/constraints.ts) and the sides each was exercised from. */
  constraints: { documented: string[]; inside: string[]; outside: string[] };
}

export interface Coverage {
  operations: { documented: number; exercised: number };
  statuses: { documented: number; exercised: number };
  codes: { documented: number; exercised: number };
  /** Each constraint counts twice: once from inside, once from outside. */
  constraintSides: { documented: number; exercised: number };
  /** Statuses, codes and constraint sides exercised over those documented, in percent (one decimal). */
  percent: number;
  /** Operations no request reached, and documented codes no answer showed (operationId: code). */
  neverReached: { operations: string[]; codes: string[] };
  rows: CoverageRow[];
  /** Statuses and codes seen on API-wide answers (unknown paths, wrong methods). */
  apiWide: Array<{ status: number; code?: string }>;
  unspecifiedOperations: UnspecifiedOperation[];
  /** Every documented input sent in a request that succeeded, every validation rule broken alone; min: the gate. */
  inputs: InputCoverage & { min: number };
}

export interface Report {
  tool: { name: string; version: string };
  contract: { title: string; version: string };
  target: { baseUrl: string; embedded: boolean };
  profile: Profile;
  allowWrites: boolean;
  burst: boolean;
  rate: RateSetting | null;
  only: string[];
  startedAt: string;
  durationMs: number;
  requests: number;
  summary: {
    outcome: 'passed' | 'failed';
    checks: Record<OutcomeStatus, number>;
    assertions: Record<OutcomeStatus, number>;
    skipped: SkipSummary;
    /** Where the failures point at a likely cause (a stateless server checked with --profile full). */
    hint?: string;
  };
  /** Operations whose answers were all errors: the success path was never reached. */
  warnings: string[];
  /**
   * With a rate: the floor the limits impose on the run's own request mix (reads / reads per
   * second, writes / writes per second, whichever is longer) and the run's wall time against it.
   */
  pacing?: { reads: number; writes: number; floorSeconds: number; wallSeconds: number; ratio: number };
  operations: OperationReport[];
  failures: Failure[];
  coverage: Coverage;
  /** Problems outside any check (too many skips, no check ran). */
  errors: string[];
}

export interface SkipSummary {
  total: number;
  /** Skips for want of configuration (or where the contract left nothing to check), counted against the limit. */
  counted: number;
  /** --max-skipped. */
  max: number;
  /** Each reason with its kind and how many checks it skipped, most first. */
  reasons: Array<{ reason: string; kind: SkipKind; checks: number }>;
}

export interface ReportInput {
  spec: Spec;
  records: TestRecord[];
  errors: string[];
  /** Default DEFAULT_MAX_SKIPPED. */
  maxSkipped?: number;
  /** Operations whose success is withheld on purpose, with the reason (input coverage). */
  withheld?: ReadonlyMap<string, string>;
  /** --min-input-coverage (default 0: not gated). */
  minInputCoverage?: number;
  meta: Pick<
    Report,
    'tool' | 'target' | 'profile' | 'allowWrites' | 'burst' | 'rate' | 'only' | 'startedAt' | 'durationMs'
  >;
}

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
