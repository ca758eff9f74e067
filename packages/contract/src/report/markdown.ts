// `--reporter markdown`: report.md, what a GitHub job summary ($GITHUB_STEP_SUMMARY) or a GitLab
// merge request note shows: the verdict first, then each failed check with its failures and the
// curl that reproduces each, then the coverage figures. Text from the server (messages, codes) is
// escaped for markdown and HTML, both of which these pages render, and curl lines go in fences
// longer than any run of backticks in them, so no answer can restyle the page or break out.

import { lookupCommand } from './lookup.js';
import type { Failure, Report } from './shape.js';
import { escapeControls } from './terminal-safe.js';

/** Failures shown per check; the rest are counted (report.json holds them all). */
const SHOWN_PER_CHECK = 10;
/** A message is cut here: the summary is for reading. */
const MESSAGE_CHARS = 500;

/** Inline text with nothing markdown or HTML would read as markup. */
function inline(text: string): string {
  const cut = text.length > MESSAGE_CHARS ? `${text.slice(0, MESSAGE_CHARS)}…` : text;
  return escapeControls(cut)
    .replace(/[\r\n]+/g, ' ')
    .replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'))
    .replace(/[\\`*_[\]()#|~!{}]/g, (c) => `\\${c}`);
}

/** A fenced block whose fence is longer than any backtick run inside it. */
function fenced(body: string, language: string): string {
  let longest = 0;
  for (const run of body.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${escapeControls(body)}\n${fence}`;
}

function verdict(r: Report): string[] {
  const passed = r.summary.outcome === 'passed';
  const { checks } = r.summary;
  const title = passed ? '✅ PASSED' : `❌ FAILED: ${checks.failed} failed check${checks.failed === 1 ? '' : 's'}`;
  const target = r.target.embedded ? 'an embedded sandbox' : inline(r.target.baseUrl);
  return [
    `## svc-contract: ${title}`,
    '',
    `${inline(r.contract.title)} ${inline(r.contract.version)} against ${target}; profile ${r.profile}, writes ${r.allowWrites ? 'allowed' : 'off'}${r.only.length > 0 ? `, only ${inline(r.only.join(', '))}` : ''}.`,
    '',
    `**${checks.passed}** passed, **${checks.failed}** failed, **${checks.skipped}** skipped (${r.summary.skipped.counted} counted against --max-skipped ${r.summary.skipped.max}); ${r.requests} requests.`,
    ...r.errors.map((e) => `\n> ${inline(e)}`),
    ...(r.summary.hint ? ['', `> ${inline(r.summary.hint)}`] : []),
  ];
}

function failureLines(f: Failure, requestLog: string | undefined): string[] {
  const id = f.requestId ? ` (request id \`${inline(f.requestId).replaceAll('`', '')}\`)` : '';
  const lookup =
    f.requestId && requestLog
      ? `\n# what the sandbox received and answered:\n${lookupCommand(requestLog, f.requestId)}`
      : '';
  return [
    `- **${inline(f.operationId)}**: ${inline(f.message)}${id}`,
    ...(f.curl ? ['', fenced(`${f.curl}${lookup}`, 'sh'), ''] : []),
  ];
}

function failuresByCheck(r: Report): string[] {
  if (r.failures.length === 0) return [];
  const byCheck = new Map<string, Failure[]>();
  for (const f of r.failures) byCheck.set(f.check, [...(byCheck.get(f.check) ?? []), f]);
  const lines = ['', '### Failures by check'];
  for (const [check, failures] of byCheck) {
    lines.push('', `#### \`${check.replaceAll('`', '')}\` (${failures.length})`, '');
    for (const f of failures.slice(0, SHOWN_PER_CHECK)) lines.push(...failureLines(f, r.target.requestLog));
    if (failures.length > SHOWN_PER_CHECK)
      lines.push(`- … and ${failures.length - SHOWN_PER_CHECK} more (report.json lists every failure)`);
  }
  return lines;
}

function coverage(r: Report): string[] {
  const c = r.coverage;
  const row = (what: string, n: { documented: number; exercised: number }) =>
    `| ${what} | ${n.exercised} / ${n.documented} |`;
  return [
    '',
    '### Coverage',
    '',
    '| | exercised / documented |',
    '|---|---|',
    `| contract (statuses, codes, constraint sides) | **${c.percent}%** |`,
    `| inputs (sent, rules broken alone) | **${c.inputs.percent}%** (${c.inputs.covered} / ${c.inputs.documented}; gate ${c.inputs.min}%) |`,
    row('operations', c.operations),
    row('statuses', c.statuses),
    row('error codes', c.codes),
    row('constraint sides', c.constraintSides),
    ...(c.neverReached.operations.length > 0
      ? ['', `Never reached: ${c.neverReached.operations.map(inline).join(', ')}`]
      : []),
  ];
}

/** The markdown summary of a report. */
export function renderMarkdown(report: Report): string {
  return `${[...verdict(report), ...failuresByCheck(report), ...coverage(report)].join('\n')}\n`;
}
