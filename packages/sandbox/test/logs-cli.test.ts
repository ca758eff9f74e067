// `svc-sandbox logs tail`, run from its build output: the banner on stderr, each exchange on
// stdout as it is answered, filtered, and bad filters refused as usage errors.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGTERM');
});

function requireBuild() {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run pnpm build first.`);
}

/** Starts `logs tail` and resolves with its URL and a way to wait for stdout lines. */
function startTail(args: string[]) {
  const child = spawn(process.execPath, [cli, 'logs', 'tail', '--port', '0', ...args], { stdio: 'pipe' });
  children.push(child);
  let out = '';
  const waiting: (() => void)[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk;
    for (const wake of waiting.splice(0)) wake();
  });
  const url = new Promise<string>((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk;
      const found = /listening on (http:\/\/\S+)/.exec(err);
      if (found) resolve(found[1]!);
    });
    child.once('exit', (code) => reject(new Error(`logs tail exited ${code}: ${err}`)));
  });
  /** Resolves once stdout holds `count` lines. */
  const lines = async (count: number) => {
    while (out.split('\n').filter(Boolean).length < count) await new Promise<void>((wake) => waiting.push(wake));
    return out.split('\n').filter(Boolean);
  };
  return { url, lines };
}

const auth = { Authorization: 'Api-Key sbx_demo_full_access' };

it('prints each exchange the filters keep, as JSON lines, with the key name and never the key', async () => {
  requireBuild();
  const tail = startTail(['--json', '--status', '4xx', '--operation', 'getThread']);
  const url = await tail.url;
  await fetch(`${url}/v2/api/threads/cth-5Lm1zX7e`, { headers: auth }); // 200: filtered out
  await fetch(`${url}/v2/api/users`, { headers: { ...auth, 'X-Request-Id': 'other-op' } }); // another operation
  const missing = await fetch(`${url}/v2/api/threads/cth-none`, { headers: auth });
  const id = missing.headers.get('x-request-id');
  const [line, ...rest] = await tail.lines(1);
  expect(rest).toEqual([]);
  expect(line).not.toContain('sbx_demo_full_access');
  expect(JSON.parse(line!)).toMatchObject({
    method: 'GET',
    path: '/v2/api/threads/cth-none',
    status: 404,
    error_code: 'THREAD_NOT_FOUND',
    request_id: id,
    operation: 'getThread',
    key_name: expect.any(String),
  });
});

it('refuses a filter it cannot read, and an unknown subcommand, with exit code 2', () => {
  requireBuild();
  for (const args of [['tail', '--status', 'teapot'], ['tail', '--operation', 'noSuchOperation'], ['follow']]) {
    const run = spawnSync(process.execPath, [cli, 'logs', ...args], { encoding: 'utf8' });
    expect(run.status, args.join(' ')).toBe(2);
    expect(run.stderr, args.join(' ')).toContain('Usage: svc-sandbox logs tail');
  }
});
