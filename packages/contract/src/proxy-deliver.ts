// How the proxy's report leaves, whatever went through: each requested file is written on its
// own, so one that cannot be written (a full disk, a folder in its place, a report too large to
// render) leaves the others written; it is then said so on stdout, and for the JSON report a
// reduced one (the summary, the first failures) is written in its place when that can be.
import { resolve } from 'node:path';
import type { ContractOptions } from './options.js';
import type { Redactor } from './redact.js';
import { DEFAULT_OUTPUT, invokedFrom, type RunResult } from './report/deliver.js';
import type { Report } from './report/model.js';
import { escapeControls } from './report/terminal-safe.js';
import { renderText } from './report/text.js';
import { writeReports } from './report/write.js';
import type { ReporterName } from './tool.js';

/** Failures kept in a reduced JSON report. */
const REDUCED_FAILURES = 100;

const messageOf = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

function readable(report: Report, redact: Redactor): string {
  try {
    return escapeControls(redact(renderText(report)));
  } catch (error) {
    const s = report.summary;
    return `svc-contract proxy: the readable report could not be rendered whole (${messageOf(error)}).\nSummary: ${report.requests} requests; ${s.checks.passed} checks passed, ${s.checks.failed} failed, ${s.checks.skipped} skipped\n${s.outcome === 'passed' ? 'PASSED' : 'FAILED'}\n`;
  }
}

/** A JSON report small enough to write whatever the session held: no per-operation detail, the first failures. */
function reduced(report: Report, why: string): Report {
  return {
    ...report,
    operations: [],
    failures: report.failures.slice(0, REDUCED_FAILURES),
    coverage: { ...report.coverage, rows: [] },
    errors: [
      ...report.errors,
      `the full report could not be written (${why}); this one keeps the summary and the first ${REDUCED_FAILURES} failures`,
    ],
  };
}

function writeEach(report: Report, text: string, reporters: readonly ReporterName[], dir: string, redact: Redactor) {
  const files: string[] = [];
  const problems: string[] = [];
  for (const reporter of reporters) {
    try {
      files.push(...writeReports(report, text, [reporter], dir, redact));
    } catch (error) {
      problems.push(`${reporter}: ${messageOf(error)}`);
      if (reporter !== 'json') continue;
      try {
        files.push(...writeReports(reduced(report, messageOf(error)), text, ['json'], dir, redact));
        problems.push('json: a reduced report.json was written instead');
      } catch {
        // Nothing more can be written there: the problem above says so.
      }
    }
  }
  return { files, problems };
}

export function deliverWhatCan(
  report: Report,
  redact: Redactor,
  options: Pick<ContractOptions, 'reporters' | 'output' | 'env' | 'stdout' | 'print'>,
): RunResult {
  const text = readable(report, redact);
  const dir = resolve(invokedFrom(options.env ?? process.env), options.output ?? DEFAULT_OUTPUT);
  const { files, problems } = writeEach(report, text, options.reporters ?? [], dir, redact);
  if (options.print !== false) {
    const stdout = options.stdout ?? process.stdout;
    stdout.write(text);
    for (const f of files) stdout.write(`Report written: ${f}\n`);
    for (const p of problems) stdout.write(`Report not written whole: ${redact(p)}\n`);
  }
  const exitCode = report.summary.outcome === 'passed' && problems.length === 0 ? 0 : 1;
  return { report, exitCode, text, files };
}
