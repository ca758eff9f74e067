// How a run (suite, proxy or merge) ends: its header fields, the readable report and the chosen
// report files, redacted, written where relative paths are taken from. Shared by run.ts, the
// proxy and the merge, so that none of them reaches into another.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Redactor } from '../redact.js';
import { type DeliveryOptions, toolVersion } from '../tool.js';
import type { ExchangeSummary } from '../types.js';
import type { Report } from './shape.js';
import { escapeControls } from './terminal-safe.js';
import { renderText } from './text.js';
import { writeReports } from './write.js';

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
const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));

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

/** The header fields every report (suite run or proxy) fills the same way. */
export function runMeta(tool: string, started: number) {
  return {
    tool: { name: tool, version: toolVersion() },
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
  };
}

/** How a run (suite or proxy) ends: the readable report and the chosen report files, redacted; printed unless `print` is false. */
export function deliver(
  report: Report,
  redact: Redactor,
  options: DeliveryOptions,
  /** The run's exchanges, for the HAR reporter. */
  exchanges?: readonly ExchangeSummary[],
): RunResult {
  const text = escapeControls(redact(renderText(report)));
  const files = writeReports(
    report,
    text,
    options.reporters ?? [],
    resolve(invokedFrom(options.env ?? process.env), options.output ?? DEFAULT_OUTPUT),
    redact,
    exchanges,
  );
  if (options.print !== false) {
    const stdout = options.stdout ?? process.stdout;
    stdout.write(text);
    for (const f of files) stdout.write(`Report written: ${f}\n`);
  }
  return { report, exitCode: report.summary.outcome === 'passed' ? 0 : 1, text, files };
}
