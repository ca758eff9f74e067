// svc-contract replay, beside the mutants (whose reports each replay against the broken server
// and a sandbox, test/support/mutants.ts): its usage errors, the keys taken from the environment
// only and never printed, writes held back without --allow-writes, shard files and folders, and
// the command's exit statuses (the built dist/cli.js).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCli } from '../src/options.js';
import { replayFailures } from '../src/replay/replay.js';
import type { CheckAgain } from '../src/replay/rerun.js';
import type { Report } from '../src/report/shape.js';
import { runContract, runReplay } from '../src/run.js';
import { UsageError } from '../src/tool.js';
import { json, mutatingProxy, sandbox, type Target } from './support/servers.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-contract-replay-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function cli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'SVC_API_KEY'),
  );
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: { ...clean, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const reportFile = (failures: unknown[], target = { baseUrl: 'http://127.0.0.1:9', embedded: false }) => {
  const file = join(tempDir(), 'report.json');
  writeFileSync(file, JSON.stringify({ target, profile: 'full', failures }));
  return file;
};

describe('usage', () => {
  it('parses its options; anything else is a usage error', () => {
    expect(
      parseCli(['replay', 'a.json', 'dir', '--check', 'negative,response.schema', '--operation', 'listTags']),
    ).toEqual({
      kind: 'replay',
      options: {
        inputs: ['a.json', 'dir'],
        checks: ['negative', 'response.schema'],
        operations: ['listTags'],
        allowWrites: false,
        json: false,
      },
    });
    expect(() => parseCli(['replay'])).toThrow(UsageError);
    expect(() => parseCli(['replay', 'a.json', '--only', 'x'])).toThrow(UsageError);
    expect(() => parseCli(['replay', 'a.json', '--base-url', 'http://user:secret@host'])).toThrow(/credentials/);
  });

  it('refuses what it cannot read, a selection of nothing, and a run of the embedded sandbox without --base-url', async () => {
    await expect(runReplay({ inputs: [join(tempDir(), 'none.json')], print: false })).rejects.toThrow(UsageError);
    const foreign = join(tempDir(), 'other.json');
    writeFileSync(foreign, '{"failures": "no"}');
    await expect(runReplay({ inputs: [foreign], print: false })).rejects.toThrow(
      /neither a report.json nor a shard.json/,
    );
    await expect(runReplay({ inputs: [tempDir()], print: false })).rejects.toThrow(/no report.json or shard.json/);
    const one = [{ check: 'response.schema', operationId: 'listTags', message: 'bad' }];
    await expect(runReplay({ inputs: [reportFile(one)], checks: ['auth'], print: false })).rejects.toThrow(
      /select none of the failures/,
    );
    const embedded = reportFile(one, { baseUrl: 'http://127.0.0.1:9', embedded: true });
    await expect(runReplay({ inputs: [embedded], print: false })).rejects.toThrow(/--base-url/);
  });

  it('exit 2 on a usage error, 0 with no failure to replay (the built command)', async () => {
    const usage = await cli(['replay']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/replay needs a report.json/);
    expect((await cli(['--help'])).stdout).toContain('svc-contract replay <report.json|shard.json|dir>');
    const none = await cli(['replay', reportFile([])]);
    expect(none).toMatchObject({ code: 0, stdout: 'svc-contract replay: no failures to replay\n' });
  });

  it("replay --help and merge --help print their own usage: their arguments, every flag, an example; not the run's", async () => {
    const ownFlags = {
      replay: [
        '--check',
        '--operation',
        '--base-url',
        '--allow-writes',
        '--config',
        '--json',
        '--timeout',
        '-h, --help',
      ],
      merge: ['--reporter', '--output', '-h, --help'],
    };
    for (const [sub, flags] of Object.entries(ownFlags)) {
      const help = await cli([sub, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^Usage: svc-contract ${sub} <`));
      for (const flag of flags) expect(help.stdout).toMatch(new RegExp(`\\n  ${flag} `));
      expect(help.stdout).toMatch(new RegExp(`Example:\\n  .*svc-contract ${sub} `));
      // None of the run's own flags: this is the subcommand's usage, not the whole one.
      expect(help.stdout).not.toContain('--min-input-coverage');
      expect(help.stdout).not.toContain('svc-contract proxy');
    }
    // A usage error of a subcommand shows that subcommand's usage too.
    const wrong = await cli(['replay', '--no-such-flag']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/Usage: svc-contract replay </);
    expect(wrong.stderr).not.toContain('--min-input-coverage');
  });
});

describe('against a server that echoes the key it gets (as its request id too) and answers listTags with 201', () => {
  let upstream: Target;
  let leaky: Target;
  let report: string;
  let output: string;

  beforeAll(async () => {
    upstream = await sandbox();
    leaky = await mutatingProxy(upstream, {
      response: (r, q) => {
        const auth = q.headers.get('authorization') ?? '';
        const status = r.status === 200 && q.path.startsWith('/v2/api/tags') ? 201 : r.status;
        // The key as the request id too, which response.request-id's problem quotes.
        const headers = new Headers(r.headers);
        headers.set('x-request-id', auth.replace(/^Api-Key /, ''));
        return json({ ...r, status, headers }, (b) => {
          if (b.error) (b.error as Record<string, unknown>).message = `Rejected ${auth}`;
          else b.echo = auth;
        });
      },
    });
    output = tempDir();
    const result = await runContract({
      baseUrl: leaky.url,
      apiKey: upstream.apiKey,
      config: upstream.config,
      only: ['listTags'],
      rate: 'off',
      quiet: true,
      print: false,
      reporters: ['json'],
      output,
      shard: { index: 1, count: 1 },
    });
    expect(result.exitCode).toBe(1);
    report = join(output, 'report.json');
  });
  afterAll(async () => {
    await leaky?.close();
    await upstream?.close();
  });

  it('the failure carries the request (its key by name and kind) and what its check expected', () => {
    const { failures } = JSON.parse(readFileSync(report, 'utf8')) as Report;
    const status = failures.find((f) => f.check === 'response.status-documented');
    expect(status?.request).toMatchObject({
      method: 'GET',
      url: `${leaky.url}/v2/api/tags`,
      headers: { Authorization: 'Api-Key ${SVC_API_KEY}' },
      key: { name: 'api-key', kind: 'active', env: 'SVC_API_KEY' },
    });
    expect(status?.expected).toEqual({ judge: 'exchange' });
    expect(readFileSync(report, 'utf8')).not.toContain(upstream.apiKey);
  });

  it('still fails there, passes against the sandbox, and prints no key (text and JSON)', async () => {
    const env = { SVC_API_KEY: upstream.apiKey };
    const again = await runReplay({ inputs: [report], checks: ['response.status-documented'], env, print: false });
    expect(again.exitCode).toBe(1);
    expect(again.results.map((r) => r.outcome)).toContain('still fails');
    expect(again.text).toMatch(
      /STILL FAILS {2}response.status-documented on listTags: GET \/v2\/api\/tags\n {4}before 201/,
    );
    // response.request-id's problem quotes the echoed key: printed as its variable.
    const asText = await runReplay({ inputs: [report], checks: ['response.request-id'], env, print: false });
    const asJson = await runReplay({
      inputs: [report],
      checks: ['response.request-id'],
      env,
      json: true,
      print: false,
    });
    expect(asText.results.map((r) => r.outcome)).toContain('still fails');
    for (const text of [asText.text, asJson.text]) {
      expect(text).not.toContain(upstream.apiKey);
      expect(text).toContain('${SVC_API_KEY}');
    }
    const fixed = await runReplay({
      inputs: [report],
      checks: ['response.status-documented'],
      baseUrl: upstream.url,
      env,
      print: false,
    });
    expect(fixed).toMatchObject({ exitCode: 0, results: [expect.objectContaining({ outcome: 'passes' })] });
    expect(fixed.text).toMatch(/PASSES NOW .*\n {4}before 201 .*\n {4}after {2}200 +the check passes\n/);
  });

  it('takes the key from the environment only: without it, nothing is sent and it says which variable to set', async () => {
    const result = await runReplay({ inputs: [report], checks: ['response.status-documented'], env: {}, print: false });
    expect(result.exitCode).toBe(1);
    expect(result.results[0]).toMatchObject({
      outcome: 'not replayed',
      reason: expect.stringMatching(/^set SVC_API_KEY/),
    });
  });

  it('a folder: its report.json and shard.json hold the same failures, replayed once', async () => {
    const fromReport = await runReplay({ inputs: [report], env: {}, print: false });
    const fromFolder = await runReplay({ inputs: [output], env: {}, print: false });
    expect(fromFolder.results.length).toBe(fromReport.results.length);
    const shardOnly = await runReplay({ inputs: [join(output, 'shard.json')], env: {}, print: false });
    expect(shardOnly.results.map((r) => r.check).sort()).toEqual(fromReport.results.map((r) => r.check).sort());
  });
});

describe("a failure of the run's pace is run again at the pace the report recorded", () => {
  const paced = (check: string, status: number) => ({
    check,
    operationId: 'listTags',
    message: 'refused',
    status,
    request: { method: 'GET', url: 'http://127.0.0.1:9/v2/api/tags', headers: {} },
    expected: { judge: 'exchange' },
  });

  it('a rate window, the budget and a 429: each runs again with the rate and --burst of its run, never sent alone', async () => {
    const file = join(tempDir(), 'report.json');
    const rate = { readsPerSecond: 7, writesPerSecond: 3 };
    const failures = [
      paced('response.rate-limit-window', 200),
      paced('response.rate-limit-budget', 429),
      paced('response.schema', 429),
    ];
    writeFileSync(
      file,
      JSON.stringify({
        target: { baseUrl: 'http://127.0.0.1:9', embedded: false },
        profile: 'full',
        rate,
        burst: true,
        failures,
      }),
    );
    const asked: CheckAgain[] = [];
    const result = await replayFailures({ inputs: [file], env: {}, print: false }, async (again) => {
      asked.push(again);
      return { outcomes: [{ check: again.check, operationId: again.operationId, status: 'passed' }], exchanges: [] };
    });
    expect(asked.map((a) => [a.check, a.operationId, a.rate, a.burst])).toEqual(
      failures.map((f) => [f.check, 'listTags', rate, true]),
    );
    expect(result.results.map((r) => [r.outcome, r.again])).toEqual(failures.map(() => ['passes', 'pace']));
    expect(result.exitCode).toBe(0);
    expect(result.text).toMatch(
      / {4}after {2}run again at the run's pace +the check, run again at the run's pace, passes\n/,
    );
  });

  it('a response check that fails again on the new traffic still fails, with what it found', async () => {
    const file = reportFile([paced('response.rate-limit-window', 200)]);
    const result = await replayFailures({ inputs: [file], env: {}, print: false }, async (again) => {
      expect(again).toMatchObject({ rate: null, burst: false });
      const failed = { check: again.check, operationId: again.operationId, status: 'failed' as const };
      return { outcomes: [{ ...failed, detail: 'Remaining rose' }], exchanges: [] };
    });
    expect(result.results[0]).toMatchObject({ outcome: 'still fails', again: 'pace', problems: ['Remaining rose'] });
    expect(result.exitCode).toBe(1);
  });
});

describe('where a request goes', () => {
  it("a key only reaches the run's server or --base-url: a request the file says went elsewhere is not sent", async () => {
    const file = reportFile([
      {
        check: 'response.schema',
        operationId: 'listTags',
        message: 'bad',
        request: {
          method: 'GET',
          url: 'https://elsewhere.example/v2/api/tags',
          headers: { Authorization: 'Api-Key ${SVC_API_KEY}' },
        },
        expected: { judge: 'exchange' },
      },
    ]);
    const result = await runReplay({ inputs: [file], env: { SVC_API_KEY: 'sk_never_sent_0123' }, print: false });
    expect(result.results[0]).toMatchObject({
      outcome: 'not replayed',
      reason: "the request went elsewhere than the run's server http://127.0.0.1:9",
    });
  });
});

describe('writes', () => {
  it('a request that may change data is sent only with --allow-writes', async () => {
    const file = reportFile([
      {
        check: 'threads.duplicate',
        operationId: 'createThread',
        message: 'expected 409',
        status: 201,
        request: { method: 'POST', url: 'http://127.0.0.1:9/v2/api/threads', headers: {}, body: '{}' },
        expected: { judge: 'answer', answers: [{ status: 409, codes: ['THREAD_ALREADY_EXISTS'] }] },
      },
    ]);
    const held = await runReplay({ inputs: [file], env: {}, print: false });
    expect(held.results[0]).toMatchObject({
      outcome: 'not replayed',
      reason: 'changes data: replay with --allow-writes',
    });
    expect(held.exitCode).toBe(1);
  });
});

describe('a rule that judged a state is run again alone, its verdict the replay', () => {
  const stateFailure = (url: string, check = 'request-id.echo', operationId = 'listTags') => ({
    check,
    operationId,
    message: 'not echoed',
    status: 200,
    request: { method: 'GET', url: `${url}/v2/api/tags`, headers: { Authorization: 'Api-Key ${SVC_API_KEY}' } },
    expected: { judge: 'state' },
  });

  it('fails again against the broken server and passes against the sandbox, before and after side by side', async () => {
    const upstream = await sandbox();
    const broken = await mutatingProxy(upstream, {
      response: (r, q) => {
        if (!q.headers.has('x-request-id')) return r;
        const headers = new Headers(r.headers);
        headers.set('x-request-id', 'req_AAAAAAAAAAAA');
        return { ...r, headers };
      },
    });
    try {
      const file = reportFile([stateFailure(broken.url)], { baseUrl: broken.url, embedded: false });
      const env = { SVC_API_KEY: upstream.apiKey };
      const again = await runReplay({ inputs: [file], config: upstream.config, env, print: false });
      expect(again.results).toEqual([expect.objectContaining({ outcome: 'still fails', again: 'rule' })]);
      expect(again.results[0]?.after).toMatchObject({ status: 200 });
      expect(again.exitCode).toBe(1);
      const fixed = await runReplay({
        inputs: [file],
        baseUrl: upstream.url,
        config: upstream.config,
        env,
        print: false,
      });
      expect(fixed.results).toEqual([expect.objectContaining({ outcome: 'passes', again: 'rule' })]);
      expect(fixed.exitCode).toBe(0);
      expect(fixed.text).toMatch(
        /PASSES NOW {2}request-id.echo on listTags: GET \/v2\/api\/tags\n {4}before 200 +not echoed\n {4}after {2}rule run again +the rule, run again alone, passes\n/,
      );
      expect(fixed.text).not.toContain(upstream.apiKey);
    } finally {
      await broken.close();
      await upstream.close();
    }
  });

  it('runs nothing without the key, a write without --allow-writes, or a check that never runs alone, and says why', async () => {
    const url = 'http://127.0.0.1:9';
    const file = reportFile([
      stateFailure(url),
      { ...stateFailure(url, 'threads.duplicate', 'createThread'), request: undefined },
      stateFailure(url, 'fixtures.discovery'),
      stateFailure(url, 'threads.no-such-check'),
    ]);
    const withoutKey = await runReplay({ inputs: [file], checks: ['request-id.echo'], env: {}, print: false });
    expect(withoutKey.results[0]).toMatchObject({
      outcome: 'not replayed',
      reason: expect.stringMatching(/^set SVC_API_KEY/),
    });
    const { results, exitCode } = await runReplay({
      inputs: [file],
      env: { SVC_API_KEY: 'sk_never_sent_0123' },
      print: false,
    });
    expect(exitCode).toBe(1);
    expect(results.slice(1).map((r) => r.reason)).toEqual([
      'changes data: replay with --allow-writes',
      'fixtures.discovery is not one a run can select: it never runs alone',
      'threads.no-such-check on listTags is no check of this version',
    ]);
  });
});
