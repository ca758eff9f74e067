// The svc-contract command (the built dist/cli.js): usage, exit statuses, report files, progress
// and summary, and the promise that no key ever appears in any output, even when the server
// echoes it back in its answers.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { json, mutatingProxy, sandbox } from './support/servers.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-contract-cli-'));
  dirs.push(dir);
  return dir;
}

function run(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const clean = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'SVC_API_KEY'),
    );
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { ...clean, ...env }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

describe('svc-contract', () => {
  it('prints its usage and version', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    for (const option of [
      '--base-url',
      '--api-key',
      '--config',
      '--allow-writes',
      '--profile',
      '--only',
      '--reporter',
      '--output',
      '--rate',
      '--burst',
    ])
      expect(help.stdout).toContain(option);
    expect((await run(['--version'])).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it('exits 2 on usage and config errors', async () => {
    expect((await run(['--profile', 'staging'])).code).toBe(2);
    expect((await run(['--only', 'no-such-thing'])).stderr).toMatch(/matches no resource/);
    const noKey = await run(['--base-url', 'http://127.0.0.1:9']);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/SVC_API_KEY/);
    const config = join(tempDir(), 'config.json');
    writeFileSync(config, JSON.stringify({ keys: [{ name: 'ro', key_env: 'NOT_SET_ANYWHERE', scopes: [] }] }));
    const bad = await run(['--config', config]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/NOT_SET_ANYWHERE is not set/);
  });

  it('exits 2 on a bad --shard and on a merge without a complete set of shard files', async () => {
    const shard = await run(['--shard', '4/3']);
    expect(shard.code).toBe(2);
    expect(shard.stderr).toMatch(/--shard must be i\/n with 1 <= i <= n <= 64, got 4\/3/);
    expect((await run(['merge'])).stderr).toMatch(/merge needs the report dirs/);
    const empty = await run(['merge', tempDir()]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/is not a shard file of svc-contract --shard/);
  });

  it('runs the embedded sandbox, shows progress per operation and a summary, and exits 0', async () => {
    const result = await run(['--rate', 'off', '--only', 'users,tags']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/✔ listUsers\s+\d+ passed/);
    expect(result.stdout).toMatch(/Summary: \d+ checks over \d+ operations: \d+ passed, 0 failed/);
    expect(result.stdout).toMatch(/\nPASSED\n/);
    expect(result.stdout).toContain('Coverage (exercised / documented)');
    expect(result.stdout).toContain('Not testable yet');
  });

  it('never prints a key, not even one the server echoes back, and exits 1 on a failure', async () => {
    const upstream = await sandbox();
    // A server that quotes the Authorization header it received in every answer, and fails listTags.
    const leaky = await mutatingProxy(upstream, {
      response: (r, q) => {
        const auth = q.headers.get('authorization') ?? '';
        const headers = new Headers(r.headers);
        headers.set('x-echo-authorization', auth);
        const status = r.status === 200 && q.path.startsWith('/v2/api/tags') ? 201 : r.status;
        return json({ ...r, status, headers }, (b) => {
          if (b.error) (b.error as Record<string, unknown>).message = `Rejected ${auth}`;
          else b.echo = auth;
        });
      },
    });
    const dir = tempDir();
    const config = join(dir, 'config.json');
    const [viaEnv, inline] = upstream.config.keys;
    writeFileSync(
      config,
      JSON.stringify({
        keys: [
          { name: 'from-env', key_env: 'SVC_CONTRACT_KEY_RO', scopes: viaEnv!.scopes },
          { name: 'inline', key: inline!.key, scopes: inline!.scopes },
        ],
        fixtures: upstream.config.fixtures,
      }),
    );
    try {
      const result = await run(
        [
          '--base-url',
          leaky.url,
          '--config',
          config,
          '--only',
          'tags,users',
          '--reporter',
          'json,junit,text',
          '--output',
          join(dir, 'out'),
          '--rate',
          'off',
        ],
        {
          SVC_API_KEY: upstream.apiKey,
          SVC_CONTRACT_KEY_RO: viaEnv!.key,
        },
      );
      expect(result.code).toBe(1);
      const files = readdirSync(join(dir, 'out')).map((f) => readFileSync(join(dir, 'out', f), 'utf8'));
      expect(files).toHaveLength(3);
      const everything = [result.stdout, result.stderr, ...files].join('\n');
      for (const key of [upstream.apiKey, viaEnv!.key, inline!.key]) expect(everything).not.toContain(key);
      // The failure is reproducible: the curl names the variable instead of the key.
      expect(result.stdout).toContain('reproduce: curl');
      expect(result.stdout).toContain('"Authorization: Api-Key ${SVC_API_KEY}"');
      const report = JSON.parse(files.find((f) => f.startsWith('{'))!) as { failures: Array<{ check: string }> };
      expect(report.failures.map((f) => f.check)).toContain('response.status-documented');
      expect(files.some((f) => f.startsWith('<?xml') && f.includes('<failure'))).toBe(true);
    } finally {
      await leaky.close();
      await upstream.close();
    }
  });
  it('counts failures once, the same in the progress line, the summary, the FAILED line and the JUnit file', async () => {
    const upstream = await sandbox();
    // Every successful answer of users and tags comes back as 201: many problems, few failed checks.
    const wrong = await mutatingProxy(upstream, {
      response: (r, q) => (r.status === 200 && /^\/v2\/api\/(tags|users)/.test(q.path) ? { ...r, status: 201 } : r),
    });
    const dir = tempDir();
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify(upstream.config));
    try {
      const result = await run(
        [
          ...['--base-url', wrong.url, '--config', config, '--only', 'tags,users'],
          ...['--reporter', 'json,junit', '--output', join(dir, 'out'), '--rate', 'off'],
        ],
        { SVC_API_KEY: upstream.apiKey },
      );
      expect(result.code).toBe(1);
      const progress = [...result.stderr.matchAll(/(\d+) failed checks? so far/g)].map((m) => Number(m[1]));
      const counted = progress.at(-1);
      const report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as {
        failures: unknown[];
        summary: { checks: { failed: number }; hint?: string };
      };
      expect(counted).toBeGreaterThan(1);
      expect(report.failures.length).toBeGreaterThan(counted!);
      expect(report.summary.checks.failed).toBe(counted);
      expect(result.stdout).toMatch(
        new RegExp(`Summary: \\d+ checks over \\d+ operations: \\d+ passed, ${counted} failed`),
      );
      expect(result.stdout).toContain(`FAILED: ${counted} failed checks\n`);
      const xml = readFileSync(join(dir, 'out', 'junit.xml'), 'utf8');
      expect(xml).toMatch(new RegExp(`<testsuites [^>]*failures="${counted}" errors="0"`));
      // Wrong statuses are not what a stateless server does: no hint.
      expect(report.summary.hint).toBeUndefined();
      expect(result.stdout).not.toContain('stateless');
    } finally {
      await wrong.close();
      await upstream.close();
    }
  });

  it('--only createThread: the JUnit file holds createThread alone, not the operations fixtures were found through', async () => {
    const dir = tempDir();
    const result = await run([
      '--rate',
      'off',
      '--only',
      'createThread',
      '--reporter',
      'junit',
      '--output',
      dir,
      '--quiet',
    ]);
    expect(result.code).toBe(0);
    const xml = readFileSync(join(dir, 'junit.xml'), 'utf8');
    const classes = new Set([...xml.matchAll(/classname="([^"]+)"/g)].map((m) => m[1]));
    expect([...classes]).toEqual(['createThread']);
  });

  it('--api-key any: only the Authorization value is redacted, never the word', async () => {
    const upstream = await sandbox();
    // Takes the short key for the real one, and fails listTags with a message that uses the word.
    const lenient = await mutatingProxy(upstream, {
      request: (q) => {
        const headers = new Headers(q.headers);
        if (headers.get('authorization') === 'Api-Key any') headers.set('authorization', `Api-Key ${upstream.apiKey}`);
        return { ...q, headers };
      },
      response: (r, q) =>
        r.status === 200 && q.path.startsWith('/v2/api/tags')
          ? json({ ...r, status: 201 }, (b) => (b.note = 'any tag, many tags'))
          : r,
    });
    const dir = tempDir();
    try {
      const result = await run(
        [
          '--base-url',
          lenient.url,
          '--only',
          'listTags',
          '--reporter',
          'json',
          '--output',
          dir,
          '--rate',
          'off',
          '--quiet',
          '--max-skipped',
          '100',
        ],
        { SVC_API_KEY: 'any' },
      );
      expect(result.code).toBe(1);
      const report = readFileSync(join(dir, 'report.json'), 'utf8');
      expect(report).toContain('any tag, many tags');
      expect(report).toContain('Authorization: Api-Key ${SVC_API_KEY}');
      expect(report).not.toContain('Api-Key any');
      expect(result.stdout).not.toContain('Api-Key any');
    } finally {
      await lenient.close();
      await upstream.close();
    }
  });
});
