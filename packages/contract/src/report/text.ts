// The readable report: per operation which checks passed, failed and were skipped (with each
// failure's message and curl), the coverage table, the operations the contract does not specify
// yet, and the summary line.
import type { OutcomeStatus, SkipKind } from '../types.js';
import { lookupCommand } from './lookup.js';
import type { CheckSummary, OperationReport, Report } from './shape.js';

export const MARK = { passed: '✔', failed: '✘', skipped: '○' } as const;

/** How the report names each kind of skip (a check that never reached its precondition was not exercised). */
const SKIP_KIND_LABEL: Record<SkipKind, string> = {
  option: 'by option',
  config: 'missing configuration',
  'n/a': 'nothing to check',
  precondition: 'not exercised, its precondition never held',
};

/** "3 passed, 1 failed, 2 skipped": no failures or skips, none said. */
export function tally(n: Record<OutcomeStatus, number>): string {
  return [`${n.passed} passed`, n.failed ? `${n.failed} failed` : '', n.skipped ? `${n.skipped} skipped` : '']
    .filter(Boolean)
    .join(', ');
}

function wrap(prefix: string, items: string[], width = 100, sep = ', '): string[] {
  const lines: string[] = [];
  let line = prefix;
  for (const item of items) {
    const next = line === prefix ? `${line}${item}` : `${line}${sep}${item}`;
    if (next.length > width && line !== prefix) {
      lines.push(`${line}${sep.trimEnd()}`);
      line = `${' '.repeat(prefix.length)}${item}`;
    } else line = next;
  }
  if (line !== prefix) lines.push(line);
  return lines;
}

function counts(op: OperationReport): string {
  const n = { passed: 0, failed: 0, skipped: 0 };
  for (const c of op.checks) n[c.status]++;
  return tally(n);
}

const indent = (text: string, by: string) => text.replace(/^/gm, by);

function operationBlock(op: OperationReport, requestLog: string | undefined): string[] {
  const title = op.method ? `${op.method.padEnd(6)} ${op.path} (${op.operationId})` : op.operationId;
  const lines = [`${MARK[op.status]} ${title}: ${counts(op)}`];
  // The response checks run on every response: one line for all of them when they all held.
  const isResponseCheck = (c: CheckSummary) => c.id.startsWith('response.');
  const responseChecks = op.checks.filter(isResponseCheck);
  const passed = op.checks
    .filter((c) => c.status === 'passed' && !isResponseCheck(c))
    .map((c) => (c.passed > 1 ? `${c.id} ×${c.passed}` : c.id));
  lines.push(...wrap('    passed: ', passed));
  // Where the description is open, what each check accepted instead of requiring one reading.
  for (const c of op.checks.filter((x) => x.readings.length > 0))
    for (const reading of c.readings) lines.push(...wrap(`    open: ${c.id}: `, reading.split(' '), 120, ' '));
  const responses = Math.max(0, ...responseChecks.map((c) => c.passed + c.failed));
  if (responseChecks.length > 0) {
    const held = responseChecks.filter((c) => c.status === 'passed').length;
    lines.push(
      `    responses: ${responses} checked; ${held} of ${responseChecks.length} response checks held on every one${held < responseChecks.length ? ' (failures below)' : ''}`,
    );
  }
  for (const c of op.checks.filter((x) => x.status === 'failed')) {
    lines.push(`    ${MARK.failed} ${c.id}: ${c.title} (${c.failed} failed${c.passed ? `, ${c.passed} passed` : ''})`);
    for (const f of c.failures.slice(0, 5)) {
      lines.push(indent(f.message, '        '));
      if (f.curl) lines.push(`        reproduce: ${f.curl}`);
      if (f.requestId) lines.push(`        request id: ${f.requestId}`);
      if (f.requestId && requestLog) lines.push(`        look it up: ${lookupCommand(requestLog, f.requestId)}`);
    }
    if (c.failures.length > 5) lines.push(`        … and ${c.failures.length - 5} more (see the JSON report)`);
  }
  const byReason = new Map<string, string[]>();
  for (const c of op.checks.filter((x: CheckSummary) => x.status === 'skipped')) {
    const reason = c.skipReasons.join('; ') || 'skipped';
    byReason.set(reason, [...(byReason.get(reason) ?? []), c.id]);
  }
  for (const [reason, ids] of byReason) lines.push(...wrap(`    skipped (${reason}): `, ids));
  return lines;
}

/** The input-coverage table: per operation what was sent and broken alone, and by name what was not. */
export function inputCoverageLines(inputs: Report['coverage']['inputs']): string[] {
  const lines = [
    '',
    `Input coverage (documented inputs sent in a request that succeeded, validation rules broken alone): ${inputs.percent}% (${inputs.covered}/${inputs.documented}${inputs.min > 0 ? `, at least ${inputs.min}% required` : ''})`,
  ];
  const width = Math.max(0, ...inputs.rows.map((r) => r.operationId.length));
  for (const row of inputs.rows) {
    const head = `  ${row.missing.length ? '!' : ' '} ${row.operationId.padEnd(width)}  sent ${`${row.sent.covered}/${row.sent.documented}`.padEnd(6)} rules broken alone ${row.rules.covered}/${row.rules.documented}`;
    lines.push(...(row.missing.length ? wrap(`${head} never: `, row.missing, 120, '; ') : [head]));
    if (row.withheld) lines.push(`      withheld on purpose: ${row.withheld}`);
  }
  return lines;
}

export function renderText(report: Report): string {
  const out: string[] = [];
  const rate = report.rate ? `${report.rate.readsPerSecond} reads/s, ${report.rate.writesPerSecond} writes/s` : 'off';
  out.push(`${report.tool.name} ${report.tool.version}: ${report.contract.title} ${report.contract.version}`);
  out.push(`Target:  ${report.target.baseUrl}${report.target.embedded ? ' (embedded sandbox)' : ''}`);
  out.push(
    `Profile: ${report.profile}; writes ${report.allowWrites ? 'allowed' : 'off'}; burst ${report.burst ? 'on' : 'off'}; rate ${rate}${report.only.length ? `; only ${report.only.join(', ')}` : ''}`,
  );
  out.push('', 'Checks per operation');
  for (const op of report.operations) out.push(...operationBlock(op, report.target.requestLog));
  out.push('', 'Coverage (exercised / documented)');
  const c = report.coverage;
  out.push(
    `  ${c.percent}% of the contract: operations ${c.operations.exercised}/${c.operations.documented}, statuses ${c.statuses.exercised}/${c.statuses.documented}, error codes ${c.codes.exercised}/${c.codes.documented}, request constraints ${c.constraintSides.exercised}/${c.constraintSides.documented} sides (inside and outside each limit)`,
  );
  const width = Math.max(...c.rows.map((r) => r.operationId.length));
  for (const row of c.rows) {
    const missingStatuses = row.statuses.documented.filter((s) => !row.statuses.covered.includes(s));
    const missingCodes = row.codes.documented.filter((s) => !row.codes.covered.includes(s));
    const head = `  ${row.exercised ? ' ' : '!'} ${row.operationId.padEnd(width)}  statuses ${`${row.statuses.covered.length}/${row.statuses.documented.length}`.padEnd(5)} codes ${`${row.codes.covered.length}/${row.codes.documented.length}`.padEnd(6)}${row.constraints.documented.length ? ` limits ${row.constraints.inside.length + row.constraints.outside.length}/${2 * row.constraints.documented.length}` : ''}`;
    const missingSides = row.constraints.documented.flatMap((id) => [
      ...(row.constraints.inside.includes(id) ? [] : [`${id} (inside)`]),
      ...(row.constraints.outside.includes(id) ? [] : [`${id} (outside)`]),
    ]);
    const missing = [...missingStatuses, ...missingCodes, ...missingSides];
    if (missing.length === 0) out.push(head);
    else out.push(...wrap(`${head} not seen: `, missing, 120, ' '));
  }
  if (c.neverReached.operations.length)
    out.push(...wrap('  operations never reached: ', c.neverReached.operations, 120, ' '));
  if (c.apiWide.length)
    out.push(`  API-wide answers seen: ${c.apiWide.map((a) => `${a.status}${a.code ? ` ${a.code}` : ''}`).join(', ')}`);
  out.push(...inputCoverageLines(c.inputs));
  // A titled block after a blank line, left out when it has nothing to say.
  const section = (title: string, lines: string[]) => {
    if (lines.length > 0) out.push('', title, ...lines.map((l) => indent(l, '  ')));
  };
  section(
    'Not testable yet: operations the contract names without a method and path (info.x-svc-unspecified-operations)',
    c.unspecifiedOperations.map(
      (u) => `- ${u.name}${u.scope ? ` (${u.scope})` : ''}: not shown: ${u.unspecified.join(', ')}`,
    ),
  );
  const skipped = report.summary.skipped;
  section(
    `Skipped: ${skipped.total} check${skipped.total === 1 ? '' : 's'}; ${skipped.counted} for want of configuration (at most ${skipped.max}, --max-skipped), the others by the run's options`,
    skipped.reasons.map((r) => `${String(r.checks).padStart(4)} × ${SKIP_KIND_LABEL[r.kind]}: ${r.reason}`),
  );
  section('Warnings', report.warnings);
  section('Errors outside any check', report.errors);
  out.push('');
  const s = report.summary;
  out.push(
    `Summary: ${s.checks.passed + s.checks.failed + s.checks.skipped} checks over ${report.operations.length} operations: ${s.checks.passed} passed, ${s.checks.failed} failed, ${s.checks.skipped} skipped ` +
      `(${s.assertions.passed + s.assertions.failed} assertions); ${report.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s`,
  );
  const p = report.pacing;
  if (p)
    out.push(
      `Pacing: ${p.reads} reads and ${p.writes} writes at ${report.rate?.readsPerSecond}/${report.rate?.writesPerSecond} per second have a floor of ${p.floorSeconds} s; this run took ${p.wallSeconds} s (${p.ratio}x the floor)`,
    );
  if (s.hint) out.push(`Hint: ${s.hint}`);
  // The same count as the summary line's and the JUnit file's: failed checks, not problems found.
  const failed = `${s.checks.failed} failed check${s.checks.failed === 1 ? '' : 's'}`;
  const errors = report.errors.length
    ? ` and ${report.errors.length} error${report.errors.length === 1 ? '' : 's'}`
    : '';
  out.push(s.outcome === 'passed' ? 'PASSED' : `FAILED: ${failed}${errors}`);
  return `${out.join('\n')}\n`;
}
