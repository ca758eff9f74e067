// JUnit XML for CI: one testsuite per operation, one testcase per check (classname the
// operationId, name the check id), a <failure> per failing check with every message and its
// curl, a <skipped> with the reason. CI systems (GitHub, GitLab, Jenkins) render this format.
import type { Report } from './model.js';

function xml(text: string): string {
  return text
    // Characters XML 1.0 cannot carry at all.
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '?')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

export function renderJunit(report: Report): string {
  const total = { tests: 0, failures: 0, skipped: 0 };
  const suites: string[] = [];
  for (const op of report.operations) {
    const cases: string[] = [];
    let failures = 0;
    let skipped = 0;
    for (const c of op.checks) {
      const name = `name="${xml(c.id)}" classname="${xml(op.operationId)}"`;
      if (c.status === 'failed') {
        failures++;
        const body = c.failures.map((f) => [f.message, f.curl ? `reproduce: ${f.curl}` : '', f.requestId ? `request id: ${f.requestId}` : ''].filter(Boolean).join('\n')).join('\n\n');
        cases.push(`    <testcase ${name}>\n      <failure message="${xml(`${c.title}: ${c.failures[0]?.message ?? ''}`.slice(0, 500))}" type="${xml(c.id)}">${xml(body)}</failure>\n    </testcase>`);
      } else if (c.status === 'skipped') {
        skipped++;
        cases.push(`    <testcase ${name}>\n      <skipped message="${xml(c.skipReasons.join('; '))}"/>\n    </testcase>`);
      } else {
        cases.push(`    <testcase ${name}/>`);
      }
    }
    total.tests += op.checks.length;
    total.failures += failures;
    total.skipped += skipped;
    const title = op.method ? `${op.operationId} (${op.method} ${op.path})` : op.operationId;
    suites.push(`  <testsuite name="${xml(title)}" tests="${op.checks.length}" failures="${failures}" errors="0" skipped="${skipped}">\n${cases.join('\n')}\n  </testsuite>`);
  }
  if (report.errors.length) {
    total.tests++;
    total.failures++;
    suites.push(`  <testsuite name="svc-contract" tests="1" failures="1" errors="0" skipped="0">\n    <testcase name="suite.error" classname="svc-contract">\n      <failure message="errors outside any check">${xml(report.errors.join('\n\n'))}</failure>\n    </testcase>\n  </testsuite>`);
  }
  const seconds = (report.durationMs / 1000).toFixed(3);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${xml(`svc-contract ${report.target.baseUrl}`)}" tests="${total.tests}" failures="${total.failures}" errors="0" skipped="${total.skipped}" time="${seconds}">\n${suites.join('\n')}\n</testsuites>\n`;
}
