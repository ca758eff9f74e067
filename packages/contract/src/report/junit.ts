// JUnit XML for CI: one testsuite per operation, one testcase per check (classname the
// operationId, name the check id), a <failure> per failing check with every message and its
// curl, a <skipped> with the reason. CI systems (GitHub, GitLab, Jenkins) render this format.
import type { InputCoverageRow } from '../reach/input-report.js';
import type { CoverageRow, Report } from './shape.js';

function xml(text: string): string {
  return (
    text
      // Characters XML 1.0 cannot carry at all.
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '?')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
  );
}

function properties(entries: Array<[string, string]>): string {
  return `    <properties>\n${entries.map(([name, value]) => `      <property name="${xml(name)}" value="${xml(value)}"/>`).join('\n')}\n    </properties>\n`;
}

/** Coverage of one operation as JUnit properties: what was documented, what was seen. */
function coverageProperties(row: CoverageRow, inputs?: InputCoverageRow): Array<[string, string]> {
  const missing = (documented: string[], covered: string[]) =>
    documented.filter((x) => !covered.includes(x)).join(', ');
  return [
    ['coverage.statuses', `${row.statuses.covered.length}/${row.statuses.documented.length}`],
    ['coverage.statuses.not-seen', missing(row.statuses.documented, row.statuses.covered)],
    ['coverage.codes', `${row.codes.covered.length}/${row.codes.documented.length}`],
    ['coverage.codes.not-seen', missing(row.codes.documented, row.codes.covered)],
    ['coverage.constraints.inside', `${row.constraints.inside.length}/${row.constraints.documented.length}`],
    ['coverage.constraints.outside', `${row.constraints.outside.length}/${row.constraints.documented.length}`],
    ...(inputs
      ? ([
          ['coverage.inputs.sent', `${inputs.sent.covered}/${inputs.sent.documented}`],
          ['coverage.inputs.rules', `${inputs.rules.covered}/${inputs.rules.documented}`],
          ['coverage.inputs.never', inputs.missing.join('; ')],
        ] as Array<[string, string]>)
      : []),
  ];
}

export function renderJunit(report: Report): string {
  const total = { tests: 0, failures: 0, errors: 0, skipped: 0 };
  const suites: string[] = [];
  for (const op of report.operations) {
    const cases = op.checks.map((c) => {
      const name = `name="${xml(c.id)}" classname="${xml(op.operationId)}"`;
      if (c.status === 'skipped')
        return `    <testcase ${name}>\n      <skipped message="${xml(c.skipReasons.join('; '))}"/>\n    </testcase>`;
      if (c.status === 'passed') return `    <testcase ${name}/>`;
      const body = c.failures
        .map((f) =>
          [f.message, f.curl ? `reproduce: ${f.curl}` : '', f.requestId ? `request id: ${f.requestId}` : '']
            .filter(Boolean)
            .join('\n'),
        )
        .join('\n\n');
      return `    <testcase ${name}>\n      <failure message="${xml(`${c.title}: ${c.failures[0]?.message ?? ''}`.slice(0, 500))}" type="${xml(c.id)}">${xml(body)}</failure>\n    </testcase>`;
    });
    const failures = op.checks.filter((c) => c.status === 'failed').length;
    const skipped = op.checks.filter((c) => c.status === 'skipped').length;
    total.tests += op.checks.length;
    total.failures += failures;
    total.skipped += skipped;
    const title = op.method ? `${op.operationId} (${op.method} ${op.path})` : op.operationId;
    const row = report.coverage.rows.find((r) => r.operationId === op.operationId);
    const inputs = report.coverage.inputs.rows.find((r) => r.operationId === op.operationId);
    const props = row ? properties(coverageProperties(row, inputs)) : '';
    suites.push(
      `  <testsuite name="${xml(title)}" tests="${op.checks.length}" failures="${failures}" errors="0" skipped="${skipped}">\n${props}${cases.join('\n')}\n  </testsuite>`,
    );
  }
  // Problems outside any check are JUnit errors, so that failures counts failed checks alone, as
  // the summary and the progress line do.
  if (report.errors.length) {
    total.tests++;
    total.errors++;
    suites.push(
      `  <testsuite name="svc-contract" tests="1" failures="0" errors="1" skipped="0">\n    <testcase name="run.error" classname="svc-contract">\n      <error message="errors outside any check">${xml(report.errors.join('\n\n'))}</error>\n    </testcase>\n  </testsuite>`,
    );
  }
  // The run's totals: coverage and skips, as properties of a suite of their own (no test cases).
  const c = report.coverage;
  const s = report.summary.skipped;
  suites.push(
    `  <testsuite name="svc-contract coverage" tests="0" failures="0" errors="0" skipped="0">\n${properties([
      ['coverage.percent', String(c.percent)],
      ['coverage.operations', `${c.operations.exercised}/${c.operations.documented}`],
      ['coverage.statuses', `${c.statuses.exercised}/${c.statuses.documented}`],
      ['coverage.codes', `${c.codes.exercised}/${c.codes.documented}`],
      ['coverage.constraint-sides', `${c.constraintSides.exercised}/${c.constraintSides.documented}`],
      ['coverage.inputs.percent', String(c.inputs.percent)],
      ['coverage.inputs', `${c.inputs.covered}/${c.inputs.documented}`],
      ['coverage.inputs.min', String(c.inputs.min)],
      ['coverage.operations.never-reached', c.neverReached.operations.join(', ')],
      ['skipped.total', String(s.total)],
      ['skipped.counted', String(s.counted)],
      ['skipped.max', String(s.max)],
      ['warnings', report.warnings.join('; ')],
      ['hint', report.summary.hint ?? ''],
    ])}  </testsuite>`,
  );
  const seconds = (report.durationMs / 1000).toFixed(3);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${xml(`svc-contract ${report.target.baseUrl}`)}" tests="${total.tests}" failures="${total.failures}" errors="${total.errors}" skipped="${total.skipped}" time="${seconds}">\n${suites.join('\n')}\n</testsuites>\n`;
}
