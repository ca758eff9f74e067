// The proxy as a command: start it, print where it listens, relay until SIGINT or SIGTERM (or
// until `until` settles, for code and tests), then build the same report as a suite run from
// every exchange it saw, print it and write the report files.
import { deliver, runMeta, type RunResult } from './run.js';
import type { ReporterName } from './options.js';
import { startProxy } from './proxy.js';
import { buildReport } from './report/model.js';
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

export type ProxyRunResult = RunResult;

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
  // startProxy takes the upstream, port, host and time limit as they are, and a progress line unless quiet.
  const proxy = await startProxy({ ...options, ...(options.quiet ? {} : { progress: (line: string) => stderr.write(`${line}\n`) }) });
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
      ...runMeta('svc-contract proxy', started),
      target: { baseUrl: proxy.redact(options.upstream), embedded: false },
      profile: 'full',
      allowWrites: true,
      burst: false,
      rate: null,
      only: [],
    },
  });
  return deliver(report, proxy.redact, options);
}
