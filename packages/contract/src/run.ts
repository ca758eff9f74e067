// One run of the suite: resolve the options, start the embedded sandbox when no server is given,
// run the checks (execute.ts) in one session, then build the report, write the report files and
// print the readable report. Every string that leaves passes through the redactor.
import { resolve } from 'node:path';
import { randomAlphanumeric } from '@svc/spec-runtime';
import type { ScopeFacts } from '@svc/spec-runtime/sandbox-config';
import { ConfigError, EMPTY_CONFIG, mergeConfigs, readConfigFile } from './config.js';
import { type EmbeddedSandbox, startEmbeddedSandbox } from './embedded.js';
import { registeredChecks, runChecks, shardResources } from './execute.js';
import { ALWAYS_ON, API_WIDE_RESOURCE, unknownFilters } from './filters.js';
import { type ContractOptions, defaultMinInputCoverage } from './options.js';
import type { Redactor } from './redact.js';
import { redactValues } from './redact-forms.js';
import { type ReplayOptions, type ReplayResult, replayFailures } from './replay/replay.js';
import { type CheckAgain, type CheckRunAgain, WRITES_NOT_ALLOWED } from './replay/rerun.js';
import { DEFAULT_OUTPUT, deliver, invokedFrom, type RunResult, runMeta } from './report/deliver.js';
import { exportFailures } from './report/export-failures.js';
import { requestLogOf } from './report/lookup.js';
import { buildReport, type Report } from './report/model.js';
import { writeShardFile } from './report/shard-file.js';
import { escapeControls } from './report/terminal-safe.js';
import { withheldOperations } from './rules/operation-checks.js';
import { configFromSandbox } from './sandbox-config.js';
import { serverUrlProblem } from './server-url.js';
import { createSession, type Session } from './session.js';
import { loadSpec, type Spec } from './spec.js';
import { DEFAULT_FIXTURES_PER_KIND, DEFAULT_MAX_SKIPPED, UsageError } from './tool.js';
import type { ContractConfig, RateSetting, TestRecord } from './types.js';
import { playBackUndo } from './undo-playback.js';
import { nothingRan } from './verdict.js';

export const API_KEY_ENV = 'SVC_API_KEY';
/** Most exchanges the HAR holds: a full run sends about 660; a far longer one keeps its first 100 000. */
const MAX_HAR_ENTRIES = 100_000;
/** How long one request may spend waiting out 429s, in all: jobs sharing a key meet many. */
export const DEFAULT_MAX_429_WAIT_SECONDS = 120;

// Where every run's report goes out (report/deliver.ts), as this module exported it before.
export { DEFAULT_OUTPUT, deliver, invokedFrom, type RunResult, runMeta };

type Environment = Record<string, string | undefined>;

/** The server a run checks, its key and config: the one given, or an embedded sandbox with its own. */
interface Target {
  baseUrl: string;
  apiKey: string;
  config: ContractConfig;
  sandbox?: EmbeddedSandbox;
  /** The config came from a sandbox started apart. */
  fromSandbox?: boolean;
}

function checkFilters(spec: Spec, only: string[]): void {
  const unknown = unknownFilters(spec, only);
  if (unknown.length > 0)
    throw new UsageError(
      `--only ${unknown.join(', ')} matches no resource (${spec.resources().join(', ')}, api-wide), operationId or check id.`,
    );
}

/** The config file's keys and fixtures, with the config given in code merged over them. */
function givenConfig(options: ContractOptions, env: Environment, knownScopes: string[]): ContractConfig {
  let config: ContractConfig = EMPTY_CONFIG;
  if (options.configPath) config = readConfigFile(resolve(invokedFrom(env), options.configPath), env, knownScopes);
  if (options.config) config = mergeConfigs(config, options.config);
  return config;
}

/** The client-side rate: the one asked for, none, or the contract's limits. */
function rateOf(spec: Spec, options: ContractOptions): RateSetting | null {
  if (options.rate === 'off') return null;
  return (
    options.rate ?? {
      readsPerSecond: spec.contract.limits.readRequestsPerSecond,
      writesPerSecond: spec.contract.limits.writeRequestsPerSecond,
    }
  );
}

async function targetOf(
  options: ContractOptions,
  env: Environment,
  facts: ScopeFacts,
  rate: RateSetting | null,
): Promise<Target> {
  const knownScopes = Object.keys(facts.scopes);
  const given = givenConfig(options, env, knownScopes);
  if (options.baseUrl === undefined) {
    const sandbox = await startEmbeddedSandbox({
      rateLimit: options.embeddedRateLimit ?? rate !== null,
      facts,
    });
    return { baseUrl: sandbox.url, apiKey: sandbox.apiKey, config: mergeConfigs(sandbox.config, given), sandbox };
  }
  const urlProblem = serverUrlProblem('baseUrl', options.baseUrl);
  if (urlProblem) throw new UsageError(urlProblem);
  const apiKey = options.apiKey ?? env[API_KEY_ENV];
  if (!apiKey) throw new UsageError(`No API key: pass --api-key or set ${API_KEY_ENV}.`);
  const target = { baseUrl: options.baseUrl, apiKey, config: given };
  if (options.configPath || options.config) return target;
  // A sandbox started apart declares its demo keys and fixtures (sandbox-config.ts says when it is asked).
  const declared = await configFromSandbox({
    baseUrl: target.baseUrl,
    apiKey,
    knownScopes,
    timeoutMs: options.timeoutMs ?? 30_000,
  });
  if (declared.note && !options.quiet) (options.stderr ?? process.stderr).write(`svc-contract: ${declared.note}\n`);
  return declared.config ? { ...target, config: declared.config, fromSandbox: true } : target;
}

function sessionOf(options: ContractOptions, target: Target, only: string[], rate: RateSetting | null): Session {
  return createSession({
    baseUrl: target.baseUrl,
    apiKey: target.apiKey,
    apiKeyEnv: API_KEY_ENV,
    config: target.config,
    profile: options.profile ?? 'full',
    allowWrites: options.allowWrites === true,
    burst: options.burst === true,
    sharedKey: options.sharedKey === true,
    only,
    rate,
    timeoutMs: options.timeoutMs ?? 30_000,
    ...(options.maxResponseBytes !== undefined ? { maxResponseBytes: options.maxResponseBytes } : {}),
    maxRetryWaitSeconds: options.maxRetryWaitSeconds ?? DEFAULT_MAX_429_WAIT_SECONDS,
    runId: randomAlphanumeric(8),
    fixturesPerKind: options.fixturesPerKind ?? DEFAULT_FIXTURES_PER_KIND,
    sandbox: target.sandbox !== undefined || target.fromSandbox === true,
  });
}

/** Runs the checks on the session, the embedded sandbox closed whatever happens. */
async function checkTarget(options: ContractOptions, session: Session, target: Target): Promise<TestRecord[]> {
  const { redact, config: run } = session;
  const stderr = options.stderr ?? process.stderr;
  const progress = options.quiet ? undefined : (line: string) => stderr.write(`${escapeControls(redact(line))}\n`);
  progress?.(
    `svc-contract: checking ${target.baseUrl}${target.sandbox ? ' (embedded sandbox)' : ''}, profile ${run.profile}, writes ${run.allowWrites ? 'allowed' : 'off'}`,
  );
  const records: TestRecord[] = [];
  try {
    records.push(...(await runChecks(session, progress, options.shard ? shardResources(options.shard) : undefined)));
  } finally {
    // Whatever the checks did, what the run changed of what it found is put back (undo-ledger.ts).
    const undone = await playBackUndo(session, progress);
    if (undone) records.push(undone);
    await target.sandbox?.close();
  }
  return records;
}

export async function runContract(options: ContractOptions = {}): Promise<RunResult> {
  const started = Date.now();
  const env = options.env ?? process.env;
  const spec = loadSpec();
  const only = options.only ?? [];
  checkFilters(spec, only);
  const rate = rateOf(spec, options);
  const target = await targetOf(options, env, spec.contract, rate);
  const session = sessionOf(options, target, only, rate);
  if (options.reporters?.includes('har')) session.recorder.keepEvery(MAX_HAR_ENTRIES);
  const records = await checkTarget(options, session, target);
  const { shard } = options;
  const { redact, config: run } = session;
  // A shard holds part of the checks: that none ran, or that inputs went unsent, is for the merge
  // to judge over the union; a check that failed fails the job at once.
  const problem = shard ? undefined : nothingRan(records, only);
  const maxSkipped = options.maxSkipped ?? DEFAULT_MAX_SKIPPED;
  const minInputCoverage = options.minInputCoverage ?? defaultMinInputCoverage({ ...options, only });
  const report = buildReport({
    spec,
    records,
    errors: problem ? [problem] : [],
    maxSkipped,
    withheld: withheldOperations(),
    minInputCoverage: shard ? 0 : minInputCoverage,
    meta: {
      ...runMeta('svc-contract', started),
      target: {
        baseUrl: redact(target.baseUrl),
        embedded: target.sandbox !== undefined,
        ...lookupOf(redact(target.baseUrl), target.fromSandbox === true),
      },
      profile: run.profile,
      allowWrites: run.allowWrites,
      burst: run.burst,
      rate,
      only,
    },
  });
  const delivered = deliver(report, redact, options, session.recorder.everyExchange);
  const result = options.exportFailures ? withFailureScripts(spec, delivered, options, redact) : delivered;
  if (!shard) return result;
  const output = resolve(invokedFrom(env), options.output ?? DEFAULT_OUTPUT);
  const file = writeShardFile(
    output,
    { shard, maxSkipped, minInputCoverage, contract: report.contract, meta: shardMeta(report), records },
    redact,
  );
  if (options.print !== false) (options.stdout ?? process.stdout).write(`Shard file written: ${file}\n`);
  return { ...result, files: [...result.files, file] };
}

/** The failures written as scripts (--export-failures), said beside the report files. */
function withFailureScripts(spec: Spec, result: RunResult, options: ContractOptions, redact: Redactor): RunResult {
  const dir = resolve(invokedFrom(options.env ?? process.env), options.exportFailures as string);
  const scripts = exportFailures(spec, result.report, dir, redact);
  if (options.print !== false)
    (options.stdout ?? process.stdout).write(
      `Failure scripts written: ${scripts.length} in ${dir} (failures.txt lists each)\n`,
    );
  return { ...result, files: [...result.files, ...scripts] };
}

/** Where a sandbox started apart serves its request log, for the failure lines (report/lookup.ts). */
function lookupOf(baseUrl: string, startedApart: boolean): { requestLog?: string } {
  const requestLog = requestLogOf(baseUrl, startedApart);
  return requestLog === undefined ? {} : { requestLog };
}

/** What of a report's header the merge's report repeats. */
function shardMeta(r: Report) {
  const { tool, target, profile, allowWrites, burst, rate, only, startedAt, durationMs } = r;
  return { tool, target, profile, allowWrites, burst, rate, only, startedAt, durationMs };
}

/** The checks run on every answer, whose failures replay meets over their operation's traffic. */
const RESPONSE_CHECKS = 'response.';

/**
 * `svc-contract replay` (replay/replay.ts), able to run a rule again alone: the failures of a rule
 * that judged a state are replayed by runCheckAgain, the others by their request sent again.
 */
export function runReplay(options: ReplayOptions): Promise<ReplayResult> {
  return replayFailures(options, runCheckAgain);
}

/**
 * Why a check cannot run again alone on its operation, or the --only that selects just it there.
 * A check of every answer (response.*) cannot be selected: its operation's checks are run again,
 * whose answers it judges (the rate windows and budget judge them at the run's pace).
 */
function onlyForAgain(spec: Spec, again: CheckAgain): { notRun: string } | { only: string[] } {
  const { check, operationId } = again;
  if (check.startsWith(RESPONSE_CHECKS))
    return { only: [spec.contract.operationsById.has(operationId) ? operationId : API_WIDE_RESOURCE] };
  if (ALWAYS_ON.some((prefix) => check.startsWith(prefix)))
    return { notRun: `${check} is not one a run can select: it never runs alone` };
  const entries = registeredChecks().filter((c) => c.id === check && c.operationId === operationId);
  const [entry] = entries;
  if (entry === undefined) return { notRun: `${check} on ${operationId} is no check of this version` };
  if (entries.some((c) => c.needs.writes) && !again.allowWrites) return { notRun: WRITES_NOT_ALLOWED };
  // An operation narrows it to the one entry; a check of no operation (api-wide) to its resource.
  const scope = spec.contract.operationsById.has(operationId) ? operationId : entry.resource;
  return { only: [scope, check] };
}

/**
 * One check on one operation run again alone, as a run runs it (the same fixtures, precondition
 * steps, rate and undo; the key from the environment, the config given), for replay: every outcome
 * of that run (its own and the per-exchange checks' on its answers) and the exchanges they point
 * at, redacted; no report is written.
 */
export async function runCheckAgain(again: CheckAgain): Promise<CheckRunAgain> {
  const spec = loadSpec();
  const selected = onlyForAgain(spec, again);
  if ('notRun' in selected) return selected;
  if (!again.env[API_KEY_ENV]) return { notRun: `set ${API_KEY_ENV} (the run's key) in the environment` };
  const options: ContractOptions = {
    baseUrl: again.baseUrl,
    ...(again.configPath !== undefined ? { configPath: again.configPath } : {}),
    ...(again.config !== undefined ? { config: again.config } : {}),
    allowWrites: again.allowWrites,
    profile: again.profile,
    rate: again.rate ?? 'off',
    burst: again.burst,
    timeoutMs: again.timeoutMs,
    quiet: true,
    env: again.env,
  };
  let target: Target;
  try {
    target = await targetOf(options, again.env, spec.contract, again.rate);
  } catch (error) {
    // A config key whose variable is unset: not run, saying which to set, as a request is not sent.
    if (error instanceof ConfigError) return { notRun: error.message };
    throw error;
  }
  const session = sessionOf(options, target, selected.only, again.rate);
  const records = await checkTarget(options, session, target);
  const outcomes = records.flatMap((r) => r.outcomes);
  const wanted = new Set(outcomes.flatMap((o) => (o.exchange === undefined ? [] : [o.exchange])));
  const exchanges = records.flatMap((r) => r.exchanges).filter((e) => wanted.has(e.seq));
  return redactValues({ outcomes, exchanges }, session.redact);
}
