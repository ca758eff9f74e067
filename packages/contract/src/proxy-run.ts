// The proxy as a command: start it, print where it listens, relay until SIGINT or SIGTERM (or
// until `until` settles, for code and tests), then build the same report as a suite run from
// every exchange it saw, print it and write the report files.
import { resolve } from 'node:path';
import { DEFAULT_OUTPUT, invokedFrom } from './run.js';
import { toolVersion, type ReporterName } from './options.js';
import { startProxy } from './proxy.js';
import { buildReport, type Report } from './report/model.js';
import { renderText } from './report/text.js';
import { writeReports } from './report/write.js';
import { loadSpec } from './spec.js';

export interface ProxyRunOptions {
  upstream: string;
  port?: number;
  host?: string;
  timeoutMs?: number;
  reporters?: ReporterName[];
  output?: string;
  quiet?: boolean;
  /** Stop when this settles instead of at SIGINT/SIGTERM. */
  until?: Promise<unknown>;
  /** Told the proxy's address once it listens. */
  onListening?: (url: string) => void;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
  env?: Record<string, string | undefined>;
}

export interface ProxyRunResult {
  report: Report;
  exitCode: 0 | 1;
  text: string;
  files: string[];
}

function signalled(): Promise<void> {
  return new Promise((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

export async function runProxy(options: ProxyRunOptions): Promise<ProxyRunResult> {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const started = Date.now();
  const proxy = await startProxy({
    upstream: options.upstream,
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.host !== undefined ? { host: options.host } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.quiet ? {} : { progress: (line: string) => stderr.write(`${line}\n`) }),
  });
  stdout.write(`svc-contract proxy: listening on ${proxy.url}, relaying to ${proxy.redact(options.upstream)}; stop with Ctrl-C for the report\n`);
  options.onListening?.(proxy.url);
  await (options.until ?? signalled()).catch(() => undefined);
  await proxy.close();
  const spec = loadSpec();
  const report = buildReport({
    spec,
    records: proxy.records(),
    errors: [],
    meta: {
      tool: { name: 'svc-contract proxy', version: toolVersion() },
      target: { baseUrl: proxy.redact(options.upstream), embedded: false },
      profile: 'full',
      allowWrites: true,
      burst: false,
      rate: null,
      only: [],
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
    },
  });
  const text = proxy.redact(renderText(report));
  const files = writeReports(report, text, options.reporters ?? [], resolve(invokedFrom(options.env ?? process.env), options.output ?? DEFAULT_OUTPUT), proxy.redact);
  stdout.write(text);
  for (const f of files) stdout.write(`Report written: ${f}\n`);
  return { report, exitCode: report.summary.outcome === 'passed' ? 0 : 1, text, files };
}
