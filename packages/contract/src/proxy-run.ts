// The proxy as a command: start it, print where it listens, relay until SIGINT or SIGTERM (or
// until `until` settles, for code and tests), then build the same report as a suite run from
// every exchange it saw, print it and write the report files (each on its own: proxy-deliver.ts).

import { once } from 'node:events';
import type { ContractOptions } from './options.js';
import { type ProxyOptions, startProxy } from './proxy.js';
import { deliverWhatCan } from './proxy-deliver.js';
import { type RunResult, runMeta } from './report/deliver.js';
import { buildReport } from './report/model.js';
import { escapeControls } from './report/terminal-safe.js';
import { loadSpec } from './spec.js';

/** The proxy's own options, and those of a suite run's reporting. */
export interface ProxyRunOptions
  extends Pick<ProxyOptions, 'upstream' | 'port' | 'host' | 'timeoutMs' | 'maxResponseBytes'>,
    Pick<ContractOptions, 'reporters' | 'output' | 'quiet' | 'stdout' | 'stderr' | 'env'> {
  /** Stop when this settles instead of at SIGINT/SIGTERM. */
  until?: Promise<unknown>;
  /** Told the proxy's address once it listens. */
  onListening?: (url: string) => void;
}

export type ProxyRunResult = RunResult;

/** The first SIGINT or SIGTERM; then both listeners are gone (a second signal stops the process). */
async function signalled(): Promise<void> {
  const stop = new AbortController();
  await Promise.race(['SIGINT', 'SIGTERM'].map((name) => once(process, name, { signal: stop.signal })));
  stop.abort();
}

export async function runProxy(options: ProxyRunOptions): Promise<ProxyRunResult> {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const started = Date.now();
  // startProxy takes the upstream, port, host and time limit as they are, and a progress line unless quiet.
  const proxy = await startProxy({
    ...options,
    ...(options.quiet ? {} : { progress: (line: string) => stderr.write(`${escapeControls(line)}\n`) }),
  });
  stdout.write(
    `svc-contract proxy: listening on ${proxy.url}, relaying to ${proxy.redact(options.upstream)}; stop with Ctrl-C for the report\n`,
  );
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
  return deliverWhatCan(report, proxy.redact, options);
}
