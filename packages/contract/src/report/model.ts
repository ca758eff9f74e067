// The report: every outcome the checks recorded, per operation and check, with the failures
// (each with the curl that reproduces it) and the coverage of the contract (operations, statuses
// and error codes exercised against those documented; the operations not yet specified).
import { responseKeyFor } from '@svc/spec-runtime/walk';
import { API_WIDE, checkInfo } from '../checks/catalogue.js';
import { ALWAYS_ON, selectedOperations } from '../filters.js';
import { constraintsOf } from '../generate/constraints.js';
import type {
  CheckOutcome,
  ExchangeSummary,
  Observation,
  OutcomeStatus,
  Profile,
  RateSetting,
  SkipKind,
  TestRecord,
} from '../model.js';
import { DEFAULT_MAX_SKIPPED } from '../options.js';
import { type InputCoverage, inputCoverage } from '../reach/input-report.js';
import type { Spec, UnspecifiedOperation } from '../spec.js';
import {
  CheckTally,
  checkKey,
  runOutcome,
  statelessHint,
  statusOf,
  tooLittleCoverage,
  tooManySkips,
} from '../verdict.js';
import { toCurl } from './curl.js';

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

function failureOf(outcome: CheckOutcome, exchanges: Map<number, ExchangeSummary>): Failure {
  const exchange = outcome.exchange === undefined ? undefined : exchanges.get(outcome.exchange);
  return {
    check: outcome.check,
    operationId: outcome.operationId,
    message: outcome.detail ?? 'failed',
    ...(exchange ? { curl: toCurl(exchange) } : {}),
    ...(exchange?.requestId ? { requestId: exchange.requestId } : {}),
    ...(exchange?.status !== undefined ? { status: exchange.status } : {}),
    ...(exchange?.responseBody ? { responseBody: exchange.responseBody } : {}),
  };
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

export function buildReport({
  spec,
  records,
  errors: outside,
  maxSkipped = DEFAULT_MAX_SKIPPED,
  withheld,
  minInputCoverage = 0,
  meta: { tool, ...meta },
}: ReportInput): Report {
  const errors = [...outside];
  const exchanges = new Map<number, ExchangeSummary>();
  for (const r of records) for (const e of r.exchanges) exchanges.set(e.seq, e);
  const observations: Observation[] = records.flatMap((r) => r.observations);
  const outcomes = records.flatMap((r) => r.outcomes);

  const byOperation = new Map<string, Map<string, CheckSummary>>();
  const assertions: Record<OutcomeStatus, number> = { passed: 0, failed: 0, skipped: 0 };
  for (const o of outcomes) {
    const checks = byOperation.get(o.operationId) ?? new Map<string, CheckSummary>();
    byOperation.set(o.operationId, checks);
    const summary = checks.get(o.check) ?? {
      id: o.check,
      title: checkInfo(o.check).title,
      status: 'skipped',
      passed: 0,
      failed: 0,
      skipped: 0,
      failures: [],
      skipReasons: [],
      details: [],
      readings: [],
    };
    checks.set(o.check, summary);
    const n = o.count ?? 1;
    summary[o.status] += n;
    assertions[o.status] += n;
    if (o.status === 'failed') summary.failures.push(failureOf(o, exchanges));
    if (o.status === 'skipped' && o.detail && !summary.skipReasons.includes(o.detail))
      summary.skipReasons.push(o.detail);
    if (o.status === 'skipped')
      summary.skipKind =
        summary.skipKind === undefined || summary.skipKind === 'option' ? (o.skipKind ?? 'n/a') : summary.skipKind;
    if (o.status === 'passed' && o.detail && summary.details.length < 50) summary.details.push(o.detail);
    if (o.status === 'passed' && o.readings && !summary.readings.includes(o.readings))
      summary.readings.push(o.readings);
  }
  for (const checks of byOperation.values()) for (const c of checks.values()) c.status = statusOf(c);

  const operationIds = [...spec.contract.operations.map((op) => op.operationId), API_WIDE];
  const operations: OperationReport[] = [];
  // An operation is reported where a selected check ran on it, or where anything failed: the
  // response checks of requests made only to find fixtures do not drag it in (--only stays narrow).
  const own = (c: CheckSummary) =>
    meta.only.length === 0 || !ALWAYS_ON.some((prefix) => c.id.startsWith(prefix)) || c.failed > 0;
  for (const id of operationIds) {
    const checks = byOperation.get(id);
    if (!checks || ![...checks.values()].some(own)) continue;
    const op = spec.contract.operationsById.get(id);
    const list = [...checks.values()].sort((a, b) => a.id.localeCompare(b.id));
    operations.push({
      operationId: id,
      ...(op ? { method: op.method, path: op.path } : {}),
      resource: op ? spec.resourceOf(op) : 'api-wide',
      status: statusOf({
        failed: list.filter((c) => c.status === 'failed').length,
        passed: list.filter((c) => c.status === 'passed').length,
      }),
      checks: list,
    });
  }

  // The same tally as the progress line's, over the checks the report shows.
  const shown = new Set(operations.flatMap((op) => op.checks.map((c) => checkKey({ ...op, check: c.id }))));
  const tally = new CheckTally();
  tally.add(outcomes.filter((o) => shown.has(checkKey(o))));
  const checkCounts = tally.counts();

  const inScope = selectedOperations(spec, meta.only);
  const rows: CoverageRow[] = spec.contract.operations
    .filter((op) => inScope.has(op.operationId))
    .map((op) => {
      const seen = observations.filter((o) => o.operationId === op.operationId);
      const covered = new Set(
        seen.map((o) => responseKeyFor(op, o.status)).filter((k): k is string => k !== undefined),
      );
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
    });
  const apiWide = [
    ...new Map(
      observations
        .filter((o) => o.operationId === null)
        .map((o) => [`${o.status} ${o.code ?? ''}`, { status: o.status, ...(o.code ? { code: o.code } : {}) }]),
    ).values(),
  ];
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

  const failures = operations.flatMap((op) => op.checks.flatMap((c) => c.failures));
  // A stateful check's own verdicts; the response checks of its requests hold for any server.
  const statefulKeys = new Set(
    records
      .filter((r) => r.stateful)
      .flatMap((r) => r.outcomes.filter((o) => !o.check.startsWith('response.')).map(checkKey)),
  );
  const hint = statelessHint(meta.profile, tally.failedKeys(), statefulKeys);
  const skippedChecks = operations.flatMap((op) => op.checks.filter((c) => c.status === 'skipped'));
  const reasons = new Map<string, { reason: string; kind: SkipKind; checks: number }>();
  for (const c of skippedChecks) {
    const reason = c.skipReasons.join('; ') || 'skipped';
    const entry = reasons.get(reason) ?? { reason, kind: c.skipKind ?? 'n/a', checks: 0 };
    entry.checks++;
    reasons.set(reason, entry);
  }
  const counted = skippedChecks.filter((c) => c.skipKind !== 'option').length;
  const skipProblem = tooManySkips(counted, maxSkipped);
  if (skipProblem) errors.push(skipProblem);
  const inputs = inputCoverage(
    spec,
    spec.contract.operations.filter((op) => inScope.has(op.operationId)),
    records,
    withheld,
  );
  const coverageProblem = tooLittleCoverage(inputs.percent, minInputCoverage);
  if (coverageProblem) errors.push(coverageProblem);
  const warnings = rows
    .filter(
      (r) =>
        r.exercised && !observations.some((o) => o.operationId === r.operationId && o.status >= 200 && o.status < 300),
    )
    .map((r) => `${r.operationId}: only error responses were seen; its success path was never reached`);
  return {
    tool,
    contract: { title: spec.title, version: spec.version },
    ...meta,
    requests: records.reduce((n, r) => n + r.requests, 0),
    summary: {
      outcome: runOutcome(checkCounts.failed, errors.length),
      checks: checkCounts,
      assertions,
      skipped: {
        total: skippedChecks.length,
        counted,
        max: maxSkipped,
        reasons: [...reasons.values()].sort((a, b) => b.checks - a.checks),
      },
      ...(hint ? { hint } : {}),
    },
    warnings,
    ...(meta.rate ? { pacing: pacingOf(records, meta.rate, meta.durationMs) } : {}),
    operations,
    failures,
    coverage: {
      operations: { documented: rows.length, exercised: rows.filter((r) => r.exercised).length },
      statuses,
      codes,
      constraintSides,
      percent:
        documented === 0
          ? 100
          : Math.round((1000 * (statuses.exercised + codes.exercised + constraintSides.exercised)) / documented) / 10,
      neverReached: {
        operations: rows.filter((r) => !r.exercised).map((r) => r.operationId),
        codes: rows.flatMap((r) =>
          r.codes.documented.filter((c) => !r.codes.covered.includes(c)).map((c) => `${r.operationId}: ${c}`),
        ),
      },
      rows,
      apiWide,
      unspecifiedOperations: spec.unspecifiedOperations,
      inputs: { ...inputs, min: minInputCoverage },
    },
    errors,
  };
}
