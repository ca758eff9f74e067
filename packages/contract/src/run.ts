// One run of the suite: resolve the options, start the embedded sandbox when no server is given,
// run the test files shipped in this package with vitest (programmatically, in one worker so the
// run has one rate limiter and one recorder), then build the report, write the report files and
// print the readable report. Every string that leaves passes through the redactor.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { startVitest, type TestSequencer, type TestSpecification } from 'vitest/node';
import { EMPTY_CONFIG, mergeConfigs, readConfigFile } from './config.js';
import { startEmbeddedSandbox, type EmbeddedSandbox } from './embedded.js';
import { unknownFilters } from './filters.js';
import type { ContractConfig, RateSetting, SessionConfig } from './model.js';
import { DEFAULT_MAX_SKIPPED, UsageError, type ContractOptions } from './options.js';
import { createRedactor } from './redact.js';
import { Collector } from './report/collector.js';
import { writeReports } from './report/write.js';
import { buildReport, type Report } from './report/model.js';
import { renderText } from './report/text.js';
import { secretsOf } from './session.js';
import { loadSpec } from './spec.js';

export interface RunResult {
  report: Report;
  /** 0 passed, 1 failed. */
  exitCode: 0 | 1;
  /** The readable report. */
  text: string;
  /** Report files written. */
  files: string[];
}

export const DEFAULT_OUTPUT = 'svc-contract-report';
export const API_KEY_ENV = 'SVC_API_KEY';
const SUITE_DIR = fileURLToPath(new URL('./suite/', import.meta.url));

export function toolVersion(): string {
  return (createRequire(import.meta.url)('../package.json') as { version: string }).version;
}

/** Test files in name order: progress reads the same from run to run. */
class ByName implements TestSequencer {
  shard(files: TestSpecification[]) {
    return files;
  }
  sort(files: TestSpecification[]) {
    return [...files].sort((a, b) => a.moduleId.localeCompare(b.moduleId));
  }
}

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

/**
 * Where relative paths (--output, --config) are taken from: the working directory, except when
 * this package's own script runs it (`pnpm contract` at the workspace root runs in the package's
 * folder): then the directory pnpm was invoked from (INIT_CWD), so reports never land inside the
 * package. An installed copy lives under node_modules, never the working directory: unaffected.
 */
export function invokedFrom(env: Record<string, string | undefined>, cwd: string = process.cwd()): string {
  const here = resolve(cwd);
  return env.INIT_CWD && here === resolve(PACKAGE_DIR) ? resolve(env.INIT_CWD) : here;
}

function runId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return [...randomBytes(8)].map((b) => alphabet[b % alphabet.length]).join('');
}

export async function runContract(options: ContractOptions = {}): Promise<RunResult> {
  const started = Date.now();
  const env = options.env ?? process.env;
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const spec = loadSpec();
  const knownScopes = Object.keys(spec.contract.scopes);
  const only = options.only ?? [];
  const unknown = unknownFilters(spec, only);
  if (unknown.length > 0) throw new UsageError(`--only ${unknown.join(', ')} matches no resource (${spec.resources().join(', ')}, api-wide), operationId or check id.`);

  let config: ContractConfig = EMPTY_CONFIG;
  if (options.configPath) config = readConfigFile(resolve(invokedFrom(env), options.configPath), env, knownScopes);
  if (options.config) config = mergeConfigs(config, options.config);

  const rate: RateSetting | null =
    options.rate === 'off' ? null : (options.rate ?? { readsPerSecond: spec.contract.limits.readRequestsPerSecond, writesPerSecond: spec.contract.limits.writeRequestsPerSecond });

  let sandbox: EmbeddedSandbox | undefined;
  let baseUrl = options.baseUrl;
  let apiKey = options.apiKey ?? env[API_KEY_ENV];
  if (baseUrl === undefined) {
    sandbox = await startEmbeddedSandbox({ rateLimit: options.embeddedRateLimit ?? rate !== null, allScopes: knownScopes });
    baseUrl = sandbox.url;
    apiKey = sandbox.apiKey;
    config = mergeConfigs(sandbox.config, config);
  }
  if (!apiKey) throw new UsageError(`No API key: pass --api-key or set ${API_KEY_ENV}.`);

  const session: SessionConfig = {
    baseUrl,
    apiKey,
    apiKeyEnv: API_KEY_ENV,
    config,
    profile: options.profile ?? 'full',
    allowWrites: options.allowWrites === true,
    burst: options.burst === true,
    only,
    rate,
    timeoutMs: options.timeoutMs ?? 30_000,
    ...(options.maxResponseBytes !== undefined ? { maxResponseBytes: options.maxResponseBytes } : {}),
    maxRetryWaitSeconds: options.maxRetryWaitSeconds ?? 60,
    runId: runId(),
  };
  const redact = createRedactor(secretsOf(session));
  const progress = options.quiet ? undefined : (line: string) => stderr.write(`${redact(line)}\n`);
  progress?.(`svc-contract: checking ${baseUrl}${sandbox ? ' (embedded sandbox)' : ''}, profile ${session.profile}, writes ${session.allowWrites ? 'allowed' : 'off'}`);
  const collector = new Collector(redact, progress);
  // Whatever vitest itself prints (it should print nothing: ours is the only reporter) is redacted too.
  const vitestOutput = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      stderr.write(redact(String(chunk)));
      done();
    },
  }) as unknown as NodeJS.WriteStream;

  try {
    const vitest = await startVitest(
      'test',
      [],
      {
        root: SUITE_DIR,
        config: false,
        watch: false,
        // The compiled suite (dist/suite/*.contract.js); from the sources, the .ts files themselves.
        include: ['**/*.contract.js', '**/*.contract.ts'],
        // Installed, this package lives under node_modules, which vitest excludes by default.
        exclude: ['**/*.d.ts'],
        reporters: [collector],
        provide: { svcContract: session },
        // One worker, files one after the other, modules shared: one rate limiter, one recorder,
        // and stateful scenarios that never race each other.
        pool: 'forks',
        maxWorkers: 1,
        fileParallelism: false,
        isolate: false,
        passWithNoTests: true,
        sequence: { sequencer: ByName, shuffle: false },
        silent: true,
      },
      { cacheDir: join(tmpdir(), 'svc-contract-vite'), logLevel: 'silent', clearScreen: false },
      { stdout: vitestOutput, stderr: vitestOutput },
    );
    await vitest?.close();
  } finally {
    // vitest sets the exit code of the process for its own verdict; the run decides its own.
    process.exitCode = undefined;
    await sandbox?.close();
  }

  // A selection that runs no check at all is a mistake, not a pass.
  const ran = collector.records.some((r) => r.outcomes.some((o) => !o.check.startsWith('response.')));
  const errors = ran ? collector.errors : [...collector.errors, `no check ran${only.length ? `: --only ${only.join(', ')} selects none` : ''}`];
  const report = buildReport({
    spec,
    records: collector.records,
    errors,
    maxSkipped: options.maxSkipped ?? DEFAULT_MAX_SKIPPED,
    meta: {
      tool: { name: 'svc-contract', version: toolVersion() },
      target: { baseUrl: redact(baseUrl), embedded: sandbox !== undefined },
      profile: session.profile,
      allowWrites: session.allowWrites,
      burst: session.burst,
      rate,
      only,
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
    },
  });
  const text = redact(renderText(report));
  const files = writeReports(report, text, options.reporters ?? [], resolve(invokedFrom(env), options.output ?? DEFAULT_OUTPUT), redact);
  if (options.print !== false) {
    stdout.write(text);
    for (const f of files) stdout.write(`Report written: ${f}\n`);
  }
  return { report, exitCode: report.summary.outcome === 'passed' ? 0 : 1, text, files };
}
