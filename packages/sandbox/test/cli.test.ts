// The svc-sandbox command, run from its build output (turbo builds before it tests).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { canListen } from '../src/free-port.js';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
/** A blocking spawn cannot be ended by the test's own limit, so it carries its own: long enough for
 * a start-up on a loaded 2-core machine (15 s was not: two such starts met 120 s under load), short
 * enough that two of them end a hang within the test's limit (vitest.config.ts). */
const SPAWN_LIMIT_MS = 50_000;

function requireBuild() {
  if (!existsSync(cli))
    throw new Error(`${cli} is missing: run pnpm build (or pnpm --filter @svc/sandbox build) first.`);
}

it('prints its usage with --help', () => {
  requireBuild();
  const run = spawnSync(process.execPath, [cli, '--help'], { encoding: 'utf8' });
  expect(run.status).toBe(0);
  for (const option of ['--port', '--host', '--seed', '--no-rate-limit', '--enable-reset', '--docs-rate'])
    expect(run.stdout).toContain(option);
});

it('reads its port from --port, else SVC_SANDBOX_PORT, else PORT, and says so in --help', async () => {
  requireBuild();
  const help = spawnSync(process.execPath, [cli, '--help'], { encoding: 'utf8' }).stdout;
  expect(help).toContain('--port <n>         Port to listen on (default: $SVC_SANDBOX_PORT, else $PORT, else 4010;');
  const env = (vars: Record<string, string>) => ({
    ...process.env,
    SVC_SANDBOX_PORT: undefined,
    PORT: undefined,
    ...vars,
  });
  const empty = spawnSync(process.execPath, [cli], { encoding: 'utf8', env: env({ PORT: '' }) });
  expect([empty.status, empty.stderr.split('\n')[0]]).toEqual([
    2,
    'svc-sandbox: PORT must be an integer from 0 to 65535, got an empty value',
  ]);
  // A port held by another server: the error names the port the command read.
  const { createServer } = await import('node:net');
  const holder = createServer();
  await new Promise<void>((done) => holder.listen(0, '127.0.0.1', done));
  const held = String((holder.address() as { port: number }).port);
  try {
    const sources: Record<string, string>[] = [{ PORT: held }, { SVC_SANDBOX_PORT: held, PORT: 'not-read' }];
    for (const vars of sources) {
      const run = spawnSync(process.execPath, [cli], { encoding: 'utf8', env: env(vars), timeout: SPAWN_LIMIT_MS });
      expect(run.stderr, JSON.stringify(vars)).toContain(`port ${held} on 127.0.0.1 is already in use`);
    }
  } finally {
    holder.close();
  }
});

it('refuses unknown options and bad values with exit code 2', () => {
  requireBuild();
  expect(spawnSync(process.execPath, [cli, '--nope'], { encoding: 'utf8' }).status).toBe(2);
  expect(spawnSync(process.execPath, [cli, '--port', 'http'], { encoding: 'utf8' }).status).toBe(2);
  const seed = spawnSync(process.execPath, [cli, '--seed', '/nonexistent/seed.json'], { encoding: 'utf8' });
  expect(seed.status).toBe(2);
  expect(seed.stderr).toContain('Cannot read the seed');
  for (const rate of ['fast', '-1', 'Infinity', '']) {
    const docsRate = spawnSync(process.execPath, [cli, '--docs', '.', `--docs-rate=${rate}`], { encoding: 'utf8' });
    expect(docsRate.status).toBe(2);
    expect(docsRate.stderr).toContain('--docs-rate must be a number of MiB per second');
  }
});

it('starts, prints the URL, the demo keys and a curl example, and serves the API', async () => {
  requireBuild();
  const child = spawn(process.execPath, [cli, '--port', '0', '--no-rate-limit', '--enable-reset'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const output = await new Promise<string>((resolve, reject) => {
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('curl')) resolve(text);
      });
      child.once('exit', (code) => reject(new Error(`exited with ${code}: ${text}`)));
      // A hang is caught by the test's own limit (sized for a loaded machine, vitest.config.ts).
    });
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
    expect(output).toContain('sbx_demo_full_access');
    expect(output).toContain('demo keys');
    expect(output).toContain('Rate limits: off');
    const res = await fetch(`${url}/v2/api/threads/cth-5Lm1zX7e`, {
      headers: { Authorization: 'Api-Key sbx_demo_full_access' },
    });
    expect(res.status).toBe(200);
    // Guarded in the API's order: the key before the body's Content-Type.
    expect((await fetch(`${url}/__sandbox/reset`, { method: 'POST' })).status).toBe(401);
    expect(
      (
        await fetch(`${url}/__sandbox/reset`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Api-Key sbx_demo_full_access' },
          body: '{}',
        })
      ).status,
    ).toBe(200);
  } finally {
    child.kill('SIGTERM');
  }
});

it('explains a busy port and suggests a port it found free, without a stack trace', async () => {
  requireBuild();
  const { createServer } = await import('node:net');
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const port = (holder.address() as { port: number }).port;
  // The next port is taken too (held here, or by something else already): the suggestion must skip it.
  const next = createServer();
  await new Promise<void>((resolve) => {
    next.once('error', () => resolve());
    next.listen(port + 1, '127.0.0.1', resolve);
  });
  try {
    const run = spawnSync(process.execPath, [cli, '--port', String(port)], {
      encoding: 'utf8',
      timeout: SPAWN_LIMIT_MS,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
    const suggested = Number(/--port (\d+) \(free just now\)/.exec(run.stderr)?.[1]);
    expect(suggested).toBeGreaterThan(port + 1);
    expect(await canListen(suggested, '127.0.0.1')).toBe(true);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stderr).not.toContain('EADDRINUSE');
  } finally {
    holder.close();
    next.close();
  }
});
