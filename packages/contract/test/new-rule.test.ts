// "A new rule is one entry": a check added as CONTRIBUTING.md says (test/support/example-rule.mjs,
// one rule() entry, loaded before the built CLI) is in the catalogue, the JSON report, the JUnit
// file and RULES.md's written column, with no other edit. In child processes, so that the test's
// entry never joins the registry of the other test files.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const at = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const ENTRY = at('./support/example-rule.mjs');
const output = mkdtempSync(join(tmpdir(), 'svc-contract-new-rule-'));
afterAll(() => rmSync(output, { recursive: true, force: true }));

function node(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'SVC_API_KEY'),
  );
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', ENTRY, ...args], { env, cwd: at('..') }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

// What pnpm rules:write would write with the entry loaded, printed instead of written.
const WRITE = `
import { readFileSync } from 'node:fs';
import { DESCRIBING_MODULES, writtenCatalogue, writtenRules } from './scripts/rules-text.mjs';
for (const module of DESCRIBING_MODULES) await import('./dist/' + module);
const { describedChecks } = await import('./dist/check-descriptions.js');
const { checkInfo, knownCheckIds } = await import('./dist/catalogue.js');
const { RULE_EXTENSIONS } = await import('./dist/reach/rules.js');
const all = describedChecks();
const isRuleId = (t) => RULE_EXTENSIONS.some((x) => t.startsWith(x + ' '));
console.log(JSON.stringify({
  info: checkInfo('example.users-listed'),
  known: knownCheckIds().includes('example.users-listed'),
  catalogue: writtenCatalogue(readFileSync('src/catalogue.ts', 'utf8'), all),
  rules: writtenRules(readFileSync('RULES.md', 'utf8'), all, isRuleId),
}));
`;

describe('a new check is one entry', () => {
  it('runs, and the JSON report and the JUnit file name it with its title', async () => {
    const run = await node([
      'dist/cli.js',
      '--only',
      'example',
      '--rate',
      'off',
      '--quiet',
      '--reporter',
      'json,junit',
      '--output',
      output,
    ]);
    expect(run.stderr).toBe('');
    // The second entry's precondition is never reached: not exercised, counted against --max-skipped 0.
    expect(run.code).toBe(1);
    const report = JSON.parse(readFileSync(join(output, 'report.json'), 'utf8')) as {
      operations: Array<{ operationId: string; checks: Array<{ id: string; title: string; status: string }> }>;
      summary: { skipped: { counted: number } };
    };
    const checks = report.operations.flatMap((op) => op.checks.map((c) => ({ op: op.operationId, ...c })));
    expect(checks.filter((c) => c.id.startsWith('example.'))).toEqual([
      expect.objectContaining({
        op: 'listUsers',
        id: 'example.many-users',
        status: 'skipped',
        skipKind: 'precondition',
        skipReasons: [expect.stringMatching(/^not exercised: the team lists \d+ users, not 1000$/)],
        passed: 0,
      }),
      expect.objectContaining({
        op: 'listUsers',
        id: 'example.users-listed',
        title: 'The user list answers 200 (a check added by a test)',
        status: 'passed',
      }),
    ]);
    expect(report.summary.skipped.counted).toBe(1);
    const junit = readFileSync(join(output, 'junit.xml'), 'utf8');
    expect(junit).toContain('<testcase name="example.users-listed" classname="listUsers"');
    expect(junit).toMatch(/<skipped message="not exercised: the team lists \d+ users, not 1000"\/>/);
  });

  it("is in the catalogue and in RULES.md's written column of the rule it enforces", async () => {
    const written = await node(['--input-type=module', '-e', WRITE]);
    expect(written.stderr).toBe('');
    const { info, known, catalogue, rules } = JSON.parse(written.stdout) as {
      info: unknown;
      known: boolean;
      catalogue: string;
      rules: string;
    };
    expect(info).toEqual({
      id: 'example.users-listed',
      title: 'The user list answers 200 (a check added by a test)',
      source: 'listUsers 200',
      enforces: ['x-svc-option-rules LABEL_UNIQUE'],
      precondition: 'any answer of the user list',
    });
    expect(known).toBe(true);
    expect(catalogue).toContain(
      '"example.users-listed": {\n    title: "The user list answers 200 (a check added by a test)",',
    );
    const row = (text: string) => text.split('\n').find((l) => l.startsWith('| ') && l.includes('LABEL_UNIQUE`'));
    expect(row(rules)).toContain('| `custom-fields.option-invalid`, `example.users-listed` |');
    // Its precondition in the row's "reached first" cell.
    expect(row(rules)).toMatch(/`example.users-listed`: any answer of the user list \|$/);
    // Without the entry, the row is as committed.
    expect(row(readFileSync(at('../RULES.md'), 'utf8'))).toContain('| `custom-fields.option-invalid` |');
  });
});
