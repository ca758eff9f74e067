// The options of a run, from the command line (svc-contract) or from code (runContract). The
// defaults are the cautious ones: no writes, the documented rate limits, the full profile.
import { type ParseArgsConfig, parseArgs } from 'node:util';
import type { ProxyOptions } from './proxy.js';
import type { ReplayOptions } from './replay/replay.js';
import { serverUrlProblem } from './server-url.js';
import { MAX_SHARDS, type Shard, shardOf } from './shard.js';
import { type DeliveryOptions, REPORTERS, type ReporterName, UsageError } from './tool.js';
import type { ContractConfig, Profile, RateSetting } from './types.js';
import { MERGE_USAGE, PROXY_USAGE, REPLAY_USAGE, USAGE } from './usage.js';

export { USAGE, usageOf } from './usage.js';

/** The reporters of the proxy and the merge, which keep no run's exchanges (no HAR). */
const SUMMARY_REPORTERS: readonly ReporterName[] = REPORTERS.filter((name) => name !== 'har');

export interface ContractOptions extends DeliveryOptions {
  /** The server to check; without it an embedded sandbox is started. */
  baseUrl?: string;
  /** The key of the run (or SVC_API_KEY). */
  apiKey?: string;
  /** A config file (keys with their scopes, fixtures). */
  configPath?: string;
  /** A config given in code; merged over the config file's. */
  config?: ContractConfig;
  allowWrites?: boolean;
  profile?: Profile;
  only?: string[];
  /**
   * Most checks that may be skipped for want of configuration (a fixture, a key) or not exercised
   * (a precondition never reached) before the run fails; skips the run's own options cause (--allow-writes, --burst, --profile mock, key kinds
   * not declared) are listed but not counted. Default DEFAULT_MAX_SKIPPED.
   */
  maxSkipped?: number;
  /**
   * The least input coverage (percent of the documented inputs sent in a request that succeeded
   * and of the validation rules broken alone) a run must reach. Default 100 for a complete run
   * that may show everything (--profile full --allow-writes, no --only), otherwise 0.
   */
  minInputCoverage?: number;
  /** Where to write one runnable sh script per failure (--export-failures; report/export-failures.ts). */
  exportFailures?: string;
  /** This job's share of the checks (--shard i/n); its report dir also gets the shard file `svc-contract merge` reads. */
  shard?: Shard;
  /** How many fixtures of each kind (items, lines, ...) the checks use at most; default 20. */
  fixturesPerKind?: number;
  /** Requests per second; 'off' for none; default: the contract's x-svc-limits. */
  rate?: RateSetting | 'off';
  burst?: boolean;
  /** Other clients use the key too (one key for every shard job): a 429 is waited out, never blamed on the server. */
  sharedKey?: boolean;
  timeoutMs?: number;
  /** Largest response body read (default 10 MiB); a larger one is a failed check. */
  maxResponseBytes?: number;
  /** Longest time one request may spend waiting out 429s, in all (as long as each asks); default 120. */
  maxRetryWaitSeconds?: number;
  /** No progress lines (the report is still printed unless `print` is false). */
  quiet?: boolean;
  /** The embedded sandbox's own rate limiting (default: on, unless rate is 'off'). */
  embeddedRateLimit?: boolean;
  /** Where progress goes beside the report (default process.stderr). */
  stderr?: NodeJS.WritableStream;
}

/** --min-input-coverage when not given: 100 for a complete run with writes (it can send every input), else 0. */
export function defaultMinInputCoverage(o: Pick<ContractOptions, 'profile' | 'allowWrites' | 'only'>): number {
  return (o.profile ?? 'full') === 'full' && o.allowWrites === true && (o.only ?? []).length === 0 ? 100 : 0;
}

function list(values: string[] | undefined): string[] {
  return (values ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

export function parseRate(value: string): RateSetting | 'off' {
  if (value === 'off') return 'off';
  const match = /^(\d+(?:\.\d+)?)(?:\/(\d+(?:\.\d+)?))?$/.exec(value);
  if (!match) throw new UsageError(`--rate must be reads/writes per second (e.g. 20/5) or off, got ${value}`);
  const reads = Number(match[1]);
  const writes = match[2] === undefined ? reads : Number(match[2]);
  if (reads <= 0 || writes <= 0) throw new UsageError('--rate must be positive (or off)');
  return { readsPerSecond: reads, writesPerSecond: writes };
}

export type Parsed =
  | { kind: 'run'; options: ContractOptions }
  | { kind: 'proxy'; options: ProxyCliOptions }
  | { kind: 'merge'; options: MergeCliOptions }
  | { kind: 'replay'; options: ReplayOptions }
  /** The usage to print: the subcommand's own, or the whole one. */
  | { kind: 'help'; usage: string }
  | { kind: 'version' };

/** The options `svc-contract proxy` takes from its command line (runProxy takes them and more). */
export type ProxyCliOptions = Pick<ProxyOptions, 'upstream' | 'port' | 'host' | 'timeoutMs' | 'maxResponseBytes'> &
  Pick<ContractOptions, 'reporters' | 'output' | 'quiet'>;

/** The options of `svc-contract merge`: the jobs' report dirs and where the merged report goes. */
export interface MergeCliOptions {
  dirs: string[];
  reporters: ReporterName[];
  output?: string;
}

const MERGE_FLAGS = {
  reporter: { type: 'string', multiple: true },
  output: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const REPLAY_FLAGS = {
  check: { type: 'string', multiple: true },
  operation: { type: 'string', multiple: true },
  'base-url': { type: 'string' },
  'allow-writes': { type: 'boolean' },
  config: { type: 'string' },
  json: { type: 'boolean' },
  timeout: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function parseReplayCli(argv: string[]): Parsed {
  const { values, positionals } = flagsAndPositionals(argv, REPLAY_FLAGS);
  if (values.help) return { kind: 'help', usage: REPLAY_USAGE };
  if (positionals.length === 0) throw new UsageError('replay needs a report.json, a shard.json or a folder of them');
  const baseUrl = values['base-url'];
  const problem = baseUrl === undefined ? undefined : serverUrlProblem('--base-url', baseUrl);
  if (problem) throw new UsageError(problem);
  const timeout = timeoutOf(values.timeout);
  return {
    kind: 'replay',
    options: {
      inputs: positionals,
      checks: list(values.check),
      operations: list(values.operation),
      ...(baseUrl !== undefined ? { baseUrl } : {}),
      allowWrites: values['allow-writes'] === true,
      ...(values.config !== undefined ? { configPath: values.config } : {}),
      json: values.json === true,
      ...(timeout !== undefined ? { timeoutMs: timeout } : {}),
    },
  };
}

function parseMergeCli(argv: string[]): Parsed {
  const parsed = flagsAndPositionals(argv, MERGE_FLAGS);
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help', usage: MERGE_USAGE };
  if (positionals.length === 0) throw new UsageError('merge needs the report dirs of the shard jobs');
  return {
    kind: 'merge',
    options: {
      dirs: positionals,
      reporters: parseReporters(values.reporter, SUMMARY_REPORTERS),
      ...(values.output !== undefined ? { output: values.output } : {}),
    },
  };
}

function parseReporters(values: string[] | undefined, known: readonly ReporterName[] = REPORTERS): ReporterName[] {
  const reporters = list(values);
  const unknown = reporters.filter((r) => !(known as readonly string[]).includes(r));
  if (unknown.length > 0)
    throw new UsageError(`--reporter must be among ${known.join(', ')} here, got ${unknown.join(', ')}`);
  return reporters as ReporterName[];
}

/** The flags and positionals of one command line; parseArgs' own complaints become usage errors. */
function flagsAndPositionals<const O extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** The flags of a command line that takes no positionals. */
function flags<const O extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** A whole-number option from `min` to `max`, or undefined when absent; `what` says what it must be. */
function wholeNumber(
  name: string,
  value: string | undefined,
  what: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!(Number.isInteger(n) && n >= min && n <= max)) throw new UsageError(`--${name} must be ${what}, got ${value}`);
  return n;
}

const maxResponseBytesOf = (value: string | undefined) =>
  wholeNumber('max-response-bytes', value, 'a positive integer', 1);

const timeoutOf = (value: string | undefined) => wholeNumber('timeout', value, 'a positive number of milliseconds', 1);

function parseProxyCli(argv: string[]): Parsed {
  const values = flags(argv, {
    upstream: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    reporter: { type: 'string', multiple: true },
    output: { type: 'string' },
    timeout: { type: 'string' },
    'max-response-bytes': { type: 'string' },
    quiet: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return { kind: 'help', usage: PROXY_USAGE };
  const maxBytes = maxResponseBytesOf(values['max-response-bytes']);
  const upstream = values.upstream;
  if (upstream === undefined) throw new UsageError('proxy needs --upstream, an http(s) URL');
  const upstreamProblem = serverUrlProblem('--upstream', upstream);
  if (upstreamProblem) throw new UsageError(upstreamProblem);
  const port = wholeNumber('port', values.port, 'a port number (0 for a free one)', 0, 65535);
  const timeout = timeoutOf(values.timeout);
  return {
    kind: 'proxy',
    options: {
      upstream,
      ...(port !== undefined ? { port } : {}),
      ...(values.host !== undefined ? { host: values.host } : {}),
      reporters: parseReporters(values.reporter, SUMMARY_REPORTERS),
      ...(values.output !== undefined ? { output: values.output } : {}),
      ...(timeout !== undefined ? { timeoutMs: timeout } : {}),
      ...(maxBytes !== undefined ? { maxResponseBytes: maxBytes } : {}),
      quiet: values.quiet === true,
    },
  };
}

export function parseCli(argv: string[]): Parsed {
  if (argv[0] === 'proxy') return parseProxyCli(argv.slice(1));
  if (argv[0] === 'merge') return parseMergeCli(argv.slice(1));
  if (argv[0] === 'replay') return parseReplayCli(argv.slice(1));
  const values = flags(argv, {
    'base-url': { type: 'string' },
    'api-key': { type: 'string' },
    config: { type: 'string' },
    'allow-writes': { type: 'boolean' },
    profile: { type: 'string' },
    only: { type: 'string', multiple: true },
    reporter: { type: 'string', multiple: true },
    output: { type: 'string' },
    'export-failures': { type: 'string' },
    rate: { type: 'string' },
    burst: { type: 'boolean' },
    'shared-key': { type: 'boolean' },
    timeout: { type: 'string' },
    'max-response-bytes': { type: 'string' },
    'max-skipped': { type: 'string' },
    'min-input-coverage': { type: 'string' },
    'fixtures-per-kind': { type: 'string' },
    shard: { type: 'string' },
    quiet: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean', short: 'v' },
  });
  if (values.help) return { kind: 'help', usage: USAGE };
  if (values.version) return { kind: 'version' };
  const profile = values.profile ?? 'full';
  if (profile !== 'full' && profile !== 'mock') throw new UsageError(`--profile must be full or mock, got ${profile}`);
  const reporters = parseReporters(values.reporter);
  const timeout = timeoutOf(values.timeout);
  const maxBytes = maxResponseBytesOf(values['max-response-bytes']);
  const maxSkipped = wholeNumber('max-skipped', values['max-skipped'], 'a whole number (0 or more)', 0);
  const minCoverage = values['min-input-coverage'];
  if (minCoverage !== undefined && !(/^\d+(\.\d+)?$/.test(minCoverage) && Number(minCoverage) <= 100))
    throw new UsageError(`--min-input-coverage must be a percentage from 0 to 100, got ${minCoverage}`);
  const perKind = wholeNumber('fixtures-per-kind', values['fixtures-per-kind'], 'a positive whole number', 1);
  const shard = values.shard === undefined ? undefined : shardOf(values.shard);
  if (values.shard !== undefined && shard === undefined)
    throw new UsageError(`--shard must be i/n with 1 <= i <= n <= ${MAX_SHARDS}, got ${values.shard}`);
  const baseUrl = values['base-url'];
  const baseUrlProblem = baseUrl === undefined ? undefined : serverUrlProblem('--base-url', baseUrl);
  if (baseUrlProblem) throw new UsageError(baseUrlProblem);
  return {
    kind: 'run',
    options: {
      ...(baseUrl !== undefined ? { baseUrl } : {}),
      ...(values['api-key'] !== undefined ? { apiKey: values['api-key'] } : {}),
      ...(values.config !== undefined ? { configPath: values.config } : {}),
      allowWrites: values['allow-writes'] === true,
      profile,
      only: list(values.only),
      reporters,
      ...(values.output !== undefined ? { output: values.output } : {}),
      ...(values['export-failures'] !== undefined ? { exportFailures: values['export-failures'] } : {}),
      ...(values.rate !== undefined ? { rate: parseRate(values.rate) } : {}),
      burst: values.burst === true,
      sharedKey: values['shared-key'] === true,
      ...(timeout !== undefined ? { timeoutMs: timeout } : {}),
      ...(maxBytes !== undefined ? { maxResponseBytes: maxBytes } : {}),
      ...(maxSkipped !== undefined ? { maxSkipped } : {}),
      ...(minCoverage !== undefined ? { minInputCoverage: Number(minCoverage) } : {}),
      ...(perKind !== undefined ? { fixturesPerKind: perKind } : {}),
      ...(shard !== undefined ? { shard } : {}),
      quiet: values.quiet === true,
    },
  };
}
