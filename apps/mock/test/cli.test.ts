// The svc-mock command, run from its build output (turbo builds before it tests), and the
// difference it exists for: plain `prism mock` (--plain) answers the same bad request with its own
// 422 problem+json where the mock answers the documented error.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';

/** The API's error body, as far as these tests read it. */
type ErrorBody = { error: { code: string; message: string } };

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGTERM');
});

function requireBuild() {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run pnpm build (or pnpm --filter @svc/mock build) first.`);
}

function start(args: string[]): Promise<{ child: ChildProcess; url: string; output: string }> {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(text)?.[1];
      if (url && text.includes('curl')) resolve({ child, url, output: text });
    });
    child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${text}`)));
    // A hang is caught by the test's own limit (sized for a loaded machine, vitest.config.ts).
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

it('prints its usage with --help', () => {
  requireBuild();
  const run = spawnSync(process.execPath, [cli, '--help'], { encoding: 'utf8' });
  expect(run.status).toBe(0);
  for (const option of ['--port', '--host', '--keys', '--plain', '--dynamic', 'Prefer'])
    expect(run.stdout).toContain(option);
  expect(run.stdout).toContain('--port <n>         Port to listen on (default: $SVC_MOCK_PORT, else $PORT, else 4011;');
});

it('reads its port from SVC_MOCK_PORT, else PORT; an empty one is an error, not port 0', () => {
  requireBuild();
  const env = (vars: Record<string, string>) => ({
    ...process.env,
    SVC_MOCK_PORT: undefined,
    PORT: undefined,
    ...vars,
  });
  for (const [name, vars] of [
    ['PORT', { PORT: '' }],
    ['SVC_MOCK_PORT', { SVC_MOCK_PORT: '', PORT: '4999' }],
  ] as const) {
    const run = spawnSync(process.execPath, [cli], { encoding: 'utf8', env: env(vars) });
    expect([run.status, run.stderr.split('\n')[0]]).toEqual([
      2,
      `svc-mock: ${name} must be an integer from 0 to 65535, got an empty value`,
    ]);
  }
});

it('refuses unknown options, bad ports and bad keys files with exit code 2', () => {
  requireBuild();
  expect(spawnSync(process.execPath, [cli, '--nope'], { encoding: 'utf8' }).status).toBe(2);
  expect(spawnSync(process.execPath, [cli, '--port', 'http'], { encoding: 'utf8' }).status).toBe(2);
  expect(spawnSync(process.execPath, [cli, '--port', '70000'], { encoding: 'utf8' }).status).toBe(2);
  const missing = spawnSync(process.execPath, [cli, '--keys', '/nonexistent/keys.json'], { encoding: 'utf8' });
  expect(missing.status).toBe(2);
  expect(missing.stderr).toContain('cannot read keys file');
  const dir = mkdtempSync(join(tmpdir(), 'svc-mock-'));
  writeFileSync(join(dir, 'bad.json'), JSON.stringify({ keys: [{ key: 'k', scopes: ['THREADS_REED'] }] }));
  const typo = spawnSync(process.execPath, [cli, '--keys', join(dir, 'bad.json')], { encoding: 'utf8' });
  expect(typo.status).toBe(2);
  expect(typo.stderr).toContain('unknown scope THREADS_REED');
});

it('says in one line that its port is busy, without a stack trace', async () => {
  requireBuild();
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const { port } = holder.address() as { port: number };
  try {
    const run = spawnSync(process.execPath, [cli, '--port', String(port)], { encoding: 'utf8' });
    expect(run.stderr.trim()).toBe(
      `svc-mock: port ${port} on 127.0.0.1 is already in use (another mock still running?): stop it, or --port 0 for any free port`,
    );
    expect(run.status).toBe(1);
  } finally {
    await new Promise((resolve) => holder.close(resolve));
  }
});

it('starts on a free port with a keys file and answers in the API dialect', async () => {
  requireBuild();
  const dir = mkdtempSync(join(tmpdir(), 'svc-mock-'));
  const keys = join(dir, 'keys.json');
  writeFileSync(keys, JSON.stringify({ keys: [{ key: 'demo_threads', scopes: ['THREADS_READ'] }] }));
  const { url, output } = await start(['--port', '0', '--keys', keys]);
  expect(output).toContain('Api-Key demo_threads');
  const ok = await fetch(`${url}/v2/api/threads/cth-5Lm1zX7e`, { headers: { Authorization: 'Api-Key demo_threads' } });
  expect(ok.status).toBe(200);
  const scope = await fetch(`${url}/v2/api/users`, { headers: { Authorization: 'Api-Key demo_threads' } });
  expect(scope.status).toBe(403);
  expect(((await scope.json()) as ErrorBody).error.message).toContain('USERS_READ');
  const unknown = await fetch(`${url}/v2/api/threads/cth-5Lm1zX7e`, { headers: { Authorization: 'Api-Key other' } });
  expect(((await unknown.json()) as ErrorBody).error.code).toBe('API_KEY_INVALID');
});

it('--plain runs plain prism mock, which answers a bad request with its own 422 problem+json', async () => {
  requireBuild();
  const port = await freePort();
  const child = spawn(process.execPath, [cli, '--plain', '--port', String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  // Wait for prism's own "listening" line however long a busy machine takes, rather than polling
  // a fixed number of times.
  await new Promise<void>((resolve, reject) => {
    let text = '';
    const seen = (chunk: Buffer) => {
      text += chunk.toString();
      if (/listening on/i.test(text)) resolve();
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.once('exit', (code) => reject(new Error(`plain prism exited with ${code}: ${text}`)));
  });
  const plain = await fetch(`http://127.0.0.1:${port}/v2/api/threads/xyz`, { headers: { Authorization: 'Api-Key x' } });
  expect(plain.status).toBe(422);
  expect(plain.headers.get('content-type')).toContain('application/problem+json');
  const { url } = await start(['--port', '0']);
  const mock = await fetch(`${url}/v2/api/threads/xyz`, { headers: { Authorization: 'Api-Key x' } });
  expect(mock.status).toBe(404);
  expect(((await mock.json()) as ErrorBody).error.code).toBe('THREAD_NOT_FOUND');
  // Two servers started, plain prism-cli's process the heavier: under a full `pnpm test` on a
  // loaded 2-core machine its start alone passed the file's 120 s limit (27 s when run alone).
}, 300_000);
