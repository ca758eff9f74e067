// The CI steps users copy: the GitHub Action's step (action/run.sh, fed the action's inputs as
// GitHub feeds them) and the GitLab snippet's script lines from the README, each run against a
// sandbox as written, installing the suite from the tarballs `pnpm release:pack` makes: three
// shards, one failing on purpose, then the merge, which still runs and fails.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox, type Target } from './support/servers.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const ACTION = fileURLToPath(new URL('../action/', import.meta.url));
const README = fileURLToPath(new URL('../README.md', import.meta.url));
const LOCAL_BIN = `${process.execPath} ${CLI}`;
const RELEASE_PACK = fileURLToPath(new URL('../../../scripts/release-pack.mjs', import.meta.url));

let target: Target;
const dirs: string[] = [];
/** The tarballs `pnpm release:pack` writes, packed once for every test here. */
let packs: string;
/** The runner's temporary folder, shared by the action's runs as one runner's steps share it. */
let runnerTemp: string;
beforeAll(async () => {
  target = await sandbox();
  packs = mkdtempSync(join(tmpdir(), 'svc-contract-packs-'));
  runnerTemp = mkdtempSync(join(tmpdir(), 'svc-contract-runner-'));
  dirs.push(packs, runnerTemp);
  const packed = await bash(['-c', `"${process.execPath}" "${RELEASE_PACK}" --out "${packs}"`], packs, {});
  expect(packed.code, packed.stderr).toBe(0);
}, 300_000);
afterAll(async () => {
  await target.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A working folder holding the config the sandbox's keys and fixtures make. */
function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-contract-ci-'));
  dirs.push(dir);
  writeFileSync(
    join(dir, 'contract.config.json'),
    JSON.stringify({ keys: target.config.keys, fixtures: target.config.fixtures }),
  );
  return dir;
}

function bash(
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !k.startsWith('VITEST') && !k.startsWith('INPUT_') && k !== 'SVC_API_KEY' && k !== 'INIT_CWD',
    ),
  );
  return new Promise((resolve) => {
    execFile('bash', args, { cwd, env: { ...clean, ...env }, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('the GitHub Action', () => {
  it('runs the CLI with its inputs and leaves the JUnit report where the upload step looks', async () => {
    const cwd = workspace();
    const result = await bash([join(ACTION, 'run.sh')], cwd, {
      SVC_CONTRACT_BIN: LOCAL_BIN,
      SVC_API_KEY: target.apiKey,
      INPUT_BASE_URL: target.url,
      INPUT_CONFIG: 'contract.config.json',
      INPUT_PROFILE: 'full',
      INPUT_ALLOW_WRITES: 'false',
      INPUT_ONLY: 'users,tags',
      INPUT_OUTPUT: 'contract-report',
      INPUT_MAX_SKIPPED: '',
    });
    expect(result.stderr).not.toContain(target.apiKey);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/\nPASSED\n/);
    expect(result.stdout).not.toContain(target.apiKey);
    expect(readFileSync(join(cwd, 'contract-report', 'junit.xml'), 'utf8')).toContain('classname="listUsers"');
    expect(existsSync(join(cwd, 'contract-report', 'report.json'))).toBe(true);
  });

  it('fails the step when the server fails, and refuses to start without base-url or key', async () => {
    const cwd = workspace();
    const failing = await bash([join(ACTION, 'run.sh')], cwd, {
      SVC_CONTRACT_BIN: LOCAL_BIN,
      SVC_API_KEY: 'svc-contract-wrong-key',
      INPUT_BASE_URL: target.url,
      INPUT_ONLY: 'listTags',
      INPUT_MAX_SKIPPED: '100',
    });
    expect(failing.code).toBe(1);
    expect(readFileSync(join(cwd, 'svc-contract-report', 'junit.xml'), 'utf8')).toContain('<failure');
    expect((await bash([join(ACTION, 'run.sh')], cwd, { SVC_API_KEY: 'k' })).code).toBe(2);
    expect((await bash([join(ACTION, 'run.sh')], cwd, { INPUT_BASE_URL: target.url })).code).toBe(2);
  });

  it('installs the suite from the packed tarballs, runs three shards (one failing on purpose) and merges them, the merge failing; every verdict in the job summary', async () => {
    const cwd = workspace();
    const summary = join(cwd, 'step-summary.md');
    const step = (env: Record<string, string>) =>
      bash([join(ACTION, 'run.sh')], cwd, {
        RUNNER_TEMP: runnerTemp,
        GITHUB_STEP_SUMMARY: summary,
        INPUT_PACKS: packs,
        ...env,
      });
    for (const index of [1, 2, 3]) {
      const job = await step({
        // One key shared by the jobs; the second job's is wrong, on purpose.
        SVC_API_KEY: index === 2 ? 'svc-contract-wrong-key' : target.apiKey,
        INPUT_BASE_URL: target.url,
        INPUT_CONFIG: 'contract.config.json',
        INPUT_ONLY: 'users,tags,deals',
        INPUT_SHARD: `${index}/3`,
        INPUT_OUTPUT: `shards/svc-contract-shard-${index}`,
      });
      expect(job.code, job.stdout + job.stderr).toBe(index === 2 ? 1 : 0);
      expect(job.stdout + job.stderr).not.toContain(target.apiKey);
      const file = JSON.parse(readFileSync(join(cwd, 'shards', `svc-contract-shard-${index}`, 'shard.json'), 'utf8'));
      expect(file.shard).toEqual({ index, count: 3 });
    }
    // The verdict job: no base-url, no key, the same action with `merge`.
    const merged = await step({ INPUT_MERGE: 'shards/*' });
    expect(merged.code, merged.stdout + merged.stderr).toBe(1);
    expect(readFileSync(join(cwd, 'svc-contract-report', 'junit.xml'), 'utf8')).toContain('<failure');
    const shown = readFileSync(summary, 'utf8');
    expect(shown.match(/^## svc-contract: .*$/gm)).toEqual([
      '## svc-contract: ✅ PASSED',
      expect.stringMatching(/^## svc-contract: ❌ FAILED: \d+ failed checks$/),
      '## svc-contract: ✅ PASSED',
      expect.stringMatching(/^## svc-contract: ❌ FAILED: \d+ failed checks$/),
    ]);
    // Installed once for the runner, from the tarballs.
    expect(existsSync(join(runnerTemp, 'svc-contract-install', 'node_modules', '.bin', 'svc-contract'))).toBe(true);
  });

  it('hands every input of action.yml to the step, and uploads the output folder', () => {
    const yml = readFileSync(join(ACTION, 'action.yml'), 'utf8');
    const inputs = [
      ...(yml.split('\ninputs:\n')[1]?.split('\noutputs:\n')[0] ?? '').matchAll(/^ {2}([a-z-]+):$/gm),
    ].map((m) => m[1] as string);
    expect(inputs).toEqual([
      'base-url',
      'api-key',
      'config',
      'profile',
      'allow-writes',
      'max-skipped',
      'only',
      'shard',
      'shared-key',
      'export-failures',
      'merge',
      'artifact',
      'output',
      'packs',
      'version',
      'node-version',
    ]);
    const script = readFileSync(join(ACTION, 'run.sh'), 'utf8');
    // node-version and artifact serve the action's other steps, not the command.
    for (const input of inputs.filter((i) => i !== 'node-version' && i !== 'artifact')) {
      const variable = input === 'api-key' ? 'SVC_API_KEY' : `INPUT_${input.toUpperCase().replace(/-/g, '_')}`;
      expect(yml, input).toContain(`${variable}: \${{ inputs.${input} }}`);
      expect(script, input).toContain(variable);
    }
    expect(yml).toContain('node-version: ${{ inputs.node-version }}');
    expect(yml).toMatch(/uses: actions\/upload-artifact@v4\n\s+with:\n(\s+.*\n)*?\s+path: \$\{\{ inputs\.output \}\}/);
    expect(yml).toContain('name: ${{ inputs.artifact }}');
  });
});

describe('the GitLab snippet of the README', () => {
  it('runs as written: three shard jobs installing from the tarballs (one failing on purpose), then the merge, which runs and fails', async () => {
    const readme = readFileSync(README, 'utf8');
    const snippet = readme.split('### GitLab CI')[1]?.split('```yaml\n')[1]?.split('```')[0] ?? '';
    const jobs = snippet.split(/\n(?=[a-z-]+:\n)/);
    const job = (name: string) => jobs.find((j) => j.startsWith(`${name}:`)) ?? '';
    const scriptOf = (name: string) =>
      (
        job(name)
          .split('  script:\n')[1]
          ?.split(/\n {2}[a-z]/)[0] ?? ''
      )
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l.startsWith('- '))
        .map((l) => l.slice(2));
    const shardScript = scriptOf('contract');
    const mergeScript = scriptOf('contract-verdict');
    expect(shardScript).toHaveLength(3);
    expect(shardScript[0]).toMatch(/^npm install .*\.\/dist-packs\/\*\.tgz/);
    expect(mergeScript[0]).toBe(shardScript[0]);
    expect(/parallel: (\d+)/.exec(job('contract'))?.[1]).toBe('3');
    // The verdict job runs whatever the shards did.
    expect(job('contract-verdict')).toMatch(/\n {2}when: always\n/);
    const junit = /junit: (\S+)/.exec(job('contract-verdict'))?.[1];
    expect(junit).toBe('contract-report/merged/junit.xml');
    const cwd = workspace();
    // What the contract-packs job leaves: dist-packs/ (made here as `pnpm release:pack` makes it).
    symlinkSync(packs, join(cwd, 'dist-packs'));
    const [install, exportKey, run] = shardScript as [string, string, string];
    // Each GitLab job starts from a fresh container, so every job's install line installs the same
    // tarballs into an empty folder: here all the jobs share one folder, and the line (the same in
    // both jobs, as asserted above) runs once, as written, before the jobs' other lines. Running it
    // again over its own node_modules would prove nothing more and cost an npm install per job.
    const installed = await bash(['-c', install], cwd, {});
    expect(installed.code, installed.stdout + installed.stderr).toBe(0);
    expect(existsSync(join(cwd, 'node_modules', '.bin', 'svc-contract'))).toBe(true);
    for (const index of ['1', '2', '3']) {
      const result = await bash(['-c', `${exportKey}\n${run} --only users,tags,deals --rate off --quiet`], cwd, {
        // One key per job here; the second is wrong, on purpose.
        [`SVC_API_KEY_${index}`]: index === '2' ? 'svc-contract-wrong-key' : target.apiKey,
        SVC_BASE_URL: target.url,
        CI_NODE_INDEX: index,
        CI_NODE_TOTAL: '3',
      });
      expect(result.code, result.stdout + result.stderr).toBe(index === '2' ? 1 : 0);
      expect(existsSync(join(cwd, 'contract-report', `shard-${index}`, 'shard.json'))).toBe(true);
    }
    // The verdict job: its lines after the install (run above, the same line).
    const merged = await bash(['-c', mergeScript.slice(1).join('\n')], cwd, {});
    expect(merged.code, merged.stdout + merged.stderr).toBe(1);
    expect(merged.stdout).toMatch(/^FAILED: \d+ failed checks?( and \d+ errors?)?$/m);
    const report = readFileSync(join(cwd, junit as string), 'utf8');
    expect(report).toContain('classname="listUsers"');
    expect(report).toContain('classname="listTags"');
    expect(report).toContain('<failure');
    expect(readFileSync(join(cwd, 'contract-report', 'merged', 'report.md'), 'utf8')).toMatch(
      /^## svc-contract: ❌ FAILED/,
    );
  });
});
