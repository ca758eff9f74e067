// The report's shape: plain JSON, what report.json holds and every renderer reads. A leaf of the
// report folder: the sections and the renderers read it, model.ts builds it.
import type { InputCoverage } from '../reach/input-report.js';
import type { Spec, UnspecifiedOperation } from '../spec.js';
import type {
  FailedExpectation,
  KeyRef,
  MadeBy,
  OutcomeStatus,
  Profile,
  RateSetting,
  SkipKind,
  TestRecord,
} from '../types.js';

/** The request of a failure as it was sent, every key replaced by its placeholder; `key` names the key used. */
export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  key?: KeyRef;
}

export interface Failure {
  check: string;
  operationId: string;
  message: string;
  curl?: string;
  requestId?: string;
  status?: number;
  responseBody?: string;
  /** The request that got the failing answer (replay and export send it again). */
  request?: SentRequest;
  /** What the check expected of that answer (see FailedExpectation). */
  expected?: FailedExpectation;
  /** The rule that sent the request, for a per-exchange check's failure (see MadeBy; absent in older reports). */
  madeBy?: MadeBy;
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
  /** requestLog: where a sandbox started apart serves its request log (report/lookup.ts). */
  target: { baseUrl: string; embedded: boolean; requestLog?: string };
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
