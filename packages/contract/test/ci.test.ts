// The CI steps users copy: the GitHub Action's step (action/run.sh, fed the action's inputs as
// GitHub feeds them) and the GitLab snippet's script line from the README, each run against a
// sandbox with the local build in place of the published CLI.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox, type Target } from './support/servers.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const ACTION = fileURLToPath(new URL('../action/', import.meta.url));
const README = fileURLToPath(new URL('../README.md', import.meta.url));
const LOCAL_BIN = `${process.execPath} ${CLI}`;

let target: Target;
const dirs: string[] = [];
beforeAll(async () => {
  target = await sandbox();
}, 30_000);
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

  it('gives the job its --shard and leaves the shard file for the merge', async () => {
    const cwd = workspace();
    const result = await bash([join(ACTION, 'run.sh')], cwd, {
      SVC_CONTRACT_BIN: LOCAL_BIN,
      SVC_API_KEY: target.apiKey,
      INPUT_BASE_URL: target.url,
      INPUT_CONFIG: 'contract.config.json',
      INPUT_ONLY: 'users',
      INPUT_SHARD: '1/1',
      INPUT_OUTPUT: 'shard-1',
    });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const file = JSON.parse(readFileSync(join(cwd, 'shard-1', 'shard.json'), 'utf8')) as { shard: unknown };
    expect(file.shard).toEqual({ index: 1, count: 1 });
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
      'artifact',
      'output',
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
  it('runs as written (with the local build in place of npx): four shard jobs, then the merge and its JUnit report', async () => {
    const readme = readFileSync(README, 'utf8');
    const snippet = readme.split('### GitLab CI')[1]?.split('```yaml\n')[1]?.split('```')[0] ?? '';
    const lines = snippet
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.startsWith('- export ') || l.startsWith('- npx --yes @svc/contract'))
      .map((l) => l.slice(2).replace('npx --yes @svc/contract', LOCAL_BIN));
    const [exportKey, shardJob, mergeJob] = lines as [string, string, string];
    expect(lines).toHaveLength(3);
    expect(/parallel: (\d+)/.exec(snippet)?.[1]).toBe('4');
    const junit = /junit: (\S+)/.exec(snippet)?.[1];
    expect(junit).toBe('contract-report/merged/junit.xml');
    const cwd = workspace();
    const keys = Object.fromEntries([1, 2, 3, 4].map((i) => [`SVC_API_KEY_${i}`, target.apiKey]));
    for (const index of ['1', '2', '3', '4']) {
      const job = await bash(['-c', `${exportKey}\n${shardJob} --only users,tags --quiet`], cwd, {
        ...keys,
        SVC_BASE_URL: target.url,
        CI_NODE_INDEX: index,
        CI_NODE_TOTAL: '4',
      });
      expect(job.code, job.stdout + job.stderr).toBe(0);
      expect(existsSync(join(cwd, 'contract-report', `shard-${index}`, 'shard.json'))).toBe(true);
    }
    const merged = await bash(['-c', mergeJob], cwd, {});
    expect(merged.code, merged.stdout + merged.stderr).toBe(0);
    const report = readFileSync(join(cwd, junit as string), 'utf8');
    expect(report).toContain('classname="listUsers"');
    expect(report).toContain('classname="listTags"');
  });
});
