// svc-contract replay: each failure of a run sent again and judged by the same check (judge.ts),
// or, for a rule that judged a state, a failure of the run's pace, or a per-exchange check's
// failure on a request a rule that changes data sent, that rule run again alone (rerun.ts; the
// pace's at the run's recorded rate); before and after side by side. The keys come from the environment (sent.ts), never from the file; the server is
// --base-url, else the run's. A request that may change data is sent only with --allow-writes, as
// in a run; what is not sent is said with its reason. Exit 0 only when every failure selected was
// replayed and now passes, 1 otherwise; usage errors are thrown (exit 2).
import { boundedFetch, DEFAULT_MAX_RESPONSE_BYTES } from '../http/bounded-fetch.js';
import { errorCode } from '../http/exchange.js';
import { createRedactor, type Redactor, withCaseSwapped } from '../redact.js';
import { redactValues } from '../redact-forms.js';
import type { Failure, SentRequest } from '../report/shape.js';
import { escapeControls } from '../report/terminal-safe.js';
import { serverUrlProblem } from '../server-url.js';
import { loadSpec, type Spec } from '../spec.js';
import { UsageError } from '../tool.js';
import type { ContractConfig } from '../types.js';
import { type Answer, exchangeOf, judge, notJudgedWhy, runAgainAs } from './judge.js';
import type { Replayed } from './outcome.js';
import { type ReplaySource, readReplaySources } from './read.js';
import { renderReplay } from './render.js';
import { type CheckRunAgain, codeIn, type RunCheckAgain, replayedByRun, WRITES_NOT_ALLOWED } from './rerun.js';
import { pathOf, resolveRequest, sentTexts, variablesIn } from './sent.js';

export type { Replayed, ReplayOutcome } from './outcome.js';

export interface ReplayOptions {
  /** report.json or shard.json files, or folders of them. */
  inputs: string[];
  /** Only these checks (an id, or a group: `negative` takes `negative.*`). */
  checks?: string[];
  /** Only these operations (operationId). */
  operations?: string[];
  /** The server to send to (default: the run's). */
  baseUrl?: string;
  allowWrites?: boolean;
  /** The run's config file (keys by key_env, fixtures), for the rules run again; as a run reads it. */
  configPath?: string;
  /** A config given in code, merged over the file's. */
  config?: ContractConfig;
  /** Print JSON instead of text. */
  json?: boolean;
  timeoutMs?: number;
  /** Where the keys are read from (default process.env). */
  env?: Record<string, string | undefined>;
  stdout?: NodeJS.WritableStream;
  /** Print the outcome (default true). */
  print?: boolean;
}

export interface ReplayResult {
  exitCode: 0 | 1;
  results: Replayed[];
  text: string;
}

/** The check that judges whether an answer came at all (a replay without one judges only it). */
const TRANSPORT_CHECK = 'response.transport';

const selects = (values: readonly string[], id: string) =>
  values.length === 0 || values.some((v) => id === v || id.startsWith(`${v}.`));

function beforeOf(failure: Failure): Replayed['before'] {
  const code = codeIn(failure.responseBody);
  return {
    ...(failure.status !== undefined ? { status: failure.status } : {}),
    ...(code !== undefined ? { code } : {}),
    message: failure.message,
  };
}

async function send(
  request: { url: string; method: string; headers: Record<string, string>; body?: string },
  timeoutMs: number,
): Promise<Answer> {
  try {
    const response = await boundedFetch(
      request.url,
      {
        method: request.method,
        headers: request.headers,
        ...(request.body !== undefined ? { body: request.body } : {}),
      },
      { timeoutMs, maxBytes: DEFAULT_MAX_RESPONSE_BYTES },
    );
    return response;
  } catch (error) {
    return { status: 0, headers: new Headers(), text: '', error: (error as Error).message };
  }
}

/**
 * Whether a request may change data, as a run decides: a write to an operation of the contract. A
 * request no operation routes (an unknown path, an undocumented method) is the routing checks' own,
 * which a run sends without --allow-writes, and a replay too.
 */
function writes(spec: Spec, method: string, path: string): boolean {
  const routed = 'operation' in spec.contract.matchRoute(method, path.split('?')[0] ?? '');
  return routed && spec.changesData(method, path);
}

interface Context {
  spec: Spec;
  options: ReplayOptions;
  env: Record<string, string | undefined>;
  runAgain: RunCheckAgain;
  /** Each rule's new run, once per server, check and operation, shared by its failures. */
  runs: Map<string, Promise<CheckRunAgain>>;
}

/**
 * The failure's rule run again alone (once for all its failures), its verdict the replay's; for a
 * failure of the run's pace (`pace`), at the rate and --burst the run had; for a per-exchange
 * check's failure on a request a rule sent (`sequence`), that rule, the check judging its answers.
 */
async function replayByRule(
  c: Context,
  source: ReplaySource,
  failure: Failure,
  own: Omit<Replayed, 'outcome'>,
  again: 'pace' | 'state' | 'sequence',
) {
  const baseUrl = c.options.baseUrl ?? source.baseUrl;
  const judged = { check: failure.check, operationId: failure.operationId };
  const ran = again === 'sequence' && failure.madeBy ? failure.madeBy : judged;
  const key = JSON.stringify([baseUrl, ran.check, ran.operationId]);
  let run = c.runs.get(key);
  if (run === undefined) {
    const { configPath, config } = c.options;
    run = c.runAgain({
      check: ran.check,
      operationId: ran.operationId,
      baseUrl,
      profile: source.profile,
      rate: source.rate,
      burst: source.burst,
      allowWrites: c.options.allowWrites === true,
      ...(configPath !== undefined ? { configPath } : {}),
      ...(config !== undefined ? { config } : {}),
      env: c.env,
      timeoutMs: c.options.timeoutMs ?? 30_000,
    });
    c.runs.set(key, run);
  }
  if (again !== 'sequence') return replayedByRun(own, await run, { ran, again: again === 'pace' ? 'pace' : 'rule' });
  return replayedByRun({ ...own, rule: `${ran.check} on ${ran.operationId}` }, await run, {
    ran,
    judged,
    again: 'sequence',
  });
}

/** One failure replayed (or not, with the reason) and judged. */
async function replayOne(c: Context, source: ReplaySource, failure: Failure): Promise<Replayed> {
  const sent = failure.request;
  const path = sent ? pathOf(sent.url, source.baseUrl) : '';
  const own = { check: failure.check, operationId: failure.operationId, request: sent ? `${sent.method} ${path}` : '' };
  const before = beforeOf(failure);
  const notReplayed = (reason: string): Replayed => ({ ...own, before, outcome: 'not replayed', reason });
  const why = notJudgedWhy(failure);
  if (why !== undefined) return notReplayed(why);
  const again = runAgainAs(failure);
  if (again !== undefined) return replayByRule(c, source, failure, { ...own, before }, again);
  return sendAgain(c, source, failure, notReplayed);
}

/** A failure's request sent again, its answer judged by the same check. */
async function sendAgain(
  c: Context,
  source: ReplaySource,
  failure: Failure,
  notReplayed: (reason: string) => Replayed,
): Promise<Replayed> {
  const sent = failure.request as SentRequest;
  const path = pathOf(sent.url, source.baseUrl);
  const own = { check: failure.check, operationId: failure.operationId, request: `${sent.method} ${path}` };
  const before = beforeOf(failure);
  // A key is only ever sent to the run's server, or the one --base-url names.
  if (!path.startsWith('/')) return notReplayed(`the request went elsewhere than the run's server ${source.baseUrl}`);
  if (!c.options.allowWrites && writes(c.spec, sent.method, path)) return notReplayed(WRITES_NOT_ALLOWED);
  const baseUrl = c.options.baseUrl ?? source.baseUrl;
  const resolved = resolveRequest(sent, source.baseUrl, baseUrl, c.env);
  if ('missing' in resolved)
    return notReplayed(`set ${resolved.missing.join(', ')} (the key it used) in the environment`);
  const answer = await send({ ...resolved, method: sent.method }, c.options.timeoutMs ?? 30_000);
  const exchange = exchangeOf(
    c.spec,
    {
      method: sent.method,
      path,
      headers: resolved.headers,
      ...(resolved.body !== undefined ? { body: resolved.body } : {}),
    },
    answer,
  );
  const code = errorCode(exchange);
  const after = { status: answer.status, ...(code ? { code } : {}), ...(answer.error ? { error: answer.error } : {}) };
  // No answer leaves every check but the transport's nothing to judge: never a pass.
  if (answer.status === 0 && failure.check !== TRANSPORT_CHECK)
    return { ...notReplayed(`no answer came (${answer.error ?? 'none'}): nothing for the check to judge`), after };
  const judged = judge(c.spec, failure, exchange, source.profile === 'mock');
  if ('notJudged' in judged) return notReplayed(judged.notJudged);
  return judged.passed
    ? { ...own, before, outcome: 'passes', after }
    : { ...own, before, outcome: 'still fails', after, problems: judged.problems };
}

/** Every key the replay may fill in, by its variable, for redacting what is printed. */
function redactorOf(sources: readonly ReplaySource[], env: Record<string, string | undefined>): Redactor {
  const variables = new Set(
    sources.flatMap((s) => s.failures.flatMap((f) => (f.request ? sentTexts(f.request).flatMap(variablesIn) : []))),
  );
  return createRedactor(
    withCaseSwapped(
      [...variables].flatMap((v) => (env[v] ? [{ value: env[v] as string, placeholder: `\${${v}}` }] : [])),
    ),
  );
}

function checkedOptions(options: ReplayOptions): void {
  if (options.inputs.length === 0) throw new UsageError('replay needs a report.json, a shard.json or a folder of them');
  const problem = options.baseUrl === undefined ? undefined : serverUrlProblem('--base-url', options.baseUrl);
  if (problem) throw new UsageError(problem);
}

/**
 * The replay of the runs given (see the head of this file); `runAgain` runs a rule again alone
 * (run.ts hands its runner in: the library's and the CLI's `runReplay`).
 */
export async function replayFailures(options: ReplayOptions, runAgain: RunCheckAgain): Promise<ReplayResult> {
  checkedOptions(options);
  const sources = readReplaySources(options.inputs);
  if (options.baseUrl === undefined && sources.some((s) => s.embedded && s.failures.length > 0))
    throw new UsageError('the run checked an embedded sandbox, which stopped with it: name a server with --base-url');
  const c: Context = { spec: loadSpec(), options, env: options.env ?? process.env, runAgain, runs: new Map() };
  const picked = sources.flatMap((source) =>
    source.failures
      .filter((f) => selects(options.checks ?? [], f.check) && selects(options.operations ?? [], f.operationId))
      .map((failure) => ({ source, failure })),
  );
  const all = sources.reduce((n, s) => n + s.failures.length, 0);
  if (all > 0 && picked.length === 0) throw new UsageError('--check and --operation select none of the failures');
  const results: Replayed[] = [];
  // One at a time, in the run's order: a replay is a handful of requests, and order keeps it readable.
  for (const { source, failure } of picked) results.push(await replayOne(c, source, failure));
  const redact = redactorOf(sources, c.env);
  // Redacted as values before JSON escapes a key out of the text's reach; the text has no JSON of its own.
  const text = options.json
    ? `${JSON.stringify(redactValues(results, redact), null, 2)}\n`
    : escapeControls(redact(renderReplay(results)));
  if (options.print !== false) (options.stdout ?? process.stdout).write(text);
  const exitCode = results.every((r) => r.outcome === 'passes') ? 0 : 1;
  return { exitCode, results: redactValues(results, redact), text };
}
