// Writing the report files (json, junit, text, markdown) into the output folder, each through the redactor.
// Shared by a suite run and the validating proxy.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Redactor } from '../redact.js';
import { redactValues } from '../redact-forms.js';
import type { ReporterName } from '../tool.js';
import type { ExchangeSummary } from '../types.js';
import { renderHar } from './har.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import type { Report } from './shape.js';

/** The JSON report: the Report model as it is (stable field names; check ids as in CHECKS). */
export function renderJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** Writes the chosen report files into `dir` (an absolute path); returns their paths. */
export function writeReports(
  report: Report,
  text: string,
  reporters: readonly ReporterName[],
  dir: string,
  redact: Redactor,
  /** The run's exchanges, for the HAR (kept only when it is asked for). */
  exchanges: readonly ExchangeSummary[] = [],
): string[] {
  const files: string[] = [];
  if (reporters.length === 0) return files;
  mkdirSync(dir, { recursive: true });
  const write = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, redact(content));
    files.push(path);
  };
  // Redacted as values first: serialising escapes a key (a quote, a backslash) out of the text's reach.
  const redacted = redactValues(report, redact);
  if (reporters.includes('json')) write('report.json', renderJson(redacted));
  if (reporters.includes('junit')) write('junit.xml', renderJunit(redacted));
  if (reporters.includes('text')) write('report.txt', text);
  if (reporters.includes('markdown')) write('report.md', renderMarkdown(redacted));
  if (reporters.includes('har'))
    // The recorder redacted each exchange as values already; write() redacts the text once more.
    write('report.har', renderHar(exchanges, redacted.tool, redacted.startedAt));
  return files;
}
