// How the suite learns a sandbox's demo keys and fixtures when the sandbox runs apart: asked only
// with a sandbox demo key and no config, never with a credential, and believed only when the
// answer is the sandbox's own, made for the run's key. Then the README's pair of commands: the
// sandbox started by its CLI as `pnpm start` starts it, and the contract command its banner prints,
// which passes with nothing skipped for configuration.
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { CONTRACT_CONFIG_PATH, contractConfigOf, loadSeedFile, withScopeKeys } from '@svc/sandbox';
import { afterAll, describe, expect, it } from 'vitest';
import { configFromSandbox } from '../src/sandbox-config.js';
import { loadSpec } from '../src/spec.js';
import { sandbox } from './support/servers.js';

const { contract } = loadSpec();
const scopes = Object.keys(contract.scopes);
const DEMO_KEY = 'sbx_demo_full_access';
const declared = contractConfigOf(withScopeKeys(loadSeedFile(), contract), scopes);

interface Seen {
  path: string | undefined;
  headers: IncomingHttpHeaders;
}

/** A server that records each request and answers it with `answer`. */
async function fakeServer(answer: (res: ServerResponse) => void) {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    seen.push({ path: req.url, headers: req.headers });
    answer(res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const jsonAnswer = (body: unknown) => (res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

const ask = (baseUrl: string, apiKey = DEMO_KEY) =>
  configFromSandbox({ baseUrl, apiKey, knownScopes: scopes, timeoutMs: 10_000 });

describe('configFromSandbox', () => {
  it('reads the sandbox config without sending any credential', async () => {
    const server = await fakeServer(jsonAnswer({ data: declared }));
    try {
      const result = await ask(server.url);
      expect(server.seen).toHaveLength(1);
      expect(server.seen[0]?.path).toBe(CONTRACT_CONFIG_PATH);
      expect(server.seen[0]?.headers.authorization).toBeUndefined();
      expect(result.config?.keys.map((k) => k.key)).toEqual(declared.config.keys.map((k) => k.key));
      expect(result.config?.keys.find((k) => k.key === 'sbx_demo_revoked')?.kind).toBe('revoked');
      expect(result.config?.fixtures.deal_ids).toEqual(declared.config.fixtures.deal_ids);
      expect(result.note).toBe(`the sandbox's demo keys and fixtures come from ${server.url}${CONTRACT_CONFIG_PATH}`);
    } finally {
      await server.close();
    }
  });

  it('never asks when the key is not a sandbox demo key', async () => {
    const server = await fakeServer(jsonAnswer({ data: declared }));
    try {
      expect(await ask(server.url, 'live_key_of_a_real_account')).toEqual({});
      expect(server.seen).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it.each([
    ['a 404', (res: ServerResponse) => res.writeHead(404).end('{}'), 'answered 404'],
    [
      'a redirect elsewhere',
      (res: ServerResponse) => res.writeHead(302, { location: 'http://127.0.0.2/' }).end(),
      'answered 302',
    ],
    ['not JSON', (res: ServerResponse) => res.writeHead(200).end('<html>'), 'the answer is not JSON'],
    [
      'another server',
      jsonAnswer({ data: { ...declared, server: 'something-else' } }),
      'the answer is not the sandbox’s',
    ],
    [
      'a config for another key',
      jsonAnswer({ data: { ...declared, api_key: 'sbx_other' } }),
      'another of its demo keys',
    ],
    ['an invalid config', jsonAnswer({ data: { ...declared, config: { keys: 'all' } } }), '"keys" must be an array'],
    ['a body over the cap', (res: ServerResponse) => res.writeHead(200).end('x'.repeat(300 * 1024)), 'larger than'],
  ])('sets aside %s, with a note', async (_what, answer, why) => {
    const server = await fakeServer(answer);
    try {
      const result = await ask(server.url);
      expect(result.config).toBeUndefined();
      expect(result.note).toContain(why);
      expect(result.note).toContain('pass --config');
      expect(server.seen).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('is what the sandbox serves, when started to serve it', async () => {
    const target = await sandbox({ serveContractConfig: true });
    try {
      const result = await ask(target.url, target.apiKey);
      // The sandbox names each demo key by its value; the tests' configs by the seed's name for it.
      expect(result.config).toEqual({ ...target.config, keys: target.config.keys.map((k) => ({ ...k, name: k.key })) });
    } finally {
      await target.close();
    }
  });
});

const CONTRACT_CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const SANDBOX_CLI = join(
  dirname(createRequire(import.meta.url).resolve('@svc/sandbox/package.json')),
  'dist',
  'cli.js',
);
const children = new Set<ReturnType<typeof spawn>>();
const dirs: string[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGTERM');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Starts the sandbox's CLI as `pnpm start` does (on a free port); resolves the contract command its banner prints. */
async function startSandboxCli(): Promise<{ url: string; command: string }> {
  const child = spawn(process.execPath, [SANDBOX_CLI, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.add(child);
  let url: string | undefined;
  let heading = false;
  for await (const line of createInterface({ input: child.stdout })) {
    url ??= /listening on (http:\/\/\S+)/.exec(line)?.[1];
    if (heading) return { url: url ?? '', command: line.trim() };
    heading = line.startsWith('Check it against the contract');
  }
  throw new Error('the sandbox ended before printing the contract command');
}

describe('pnpm start, then the contract command its banner prints', () => {
  it('passes, with nothing skipped for want of configuration', async () => {
    const { url, command } = await startSandboxCli();
    const port = new URL(url).port;
    expect(command).toBe(`SVC_API_KEY=${DEMO_KEY} pnpm contract --base-url http://localhost:${port} --allow-writes`);
    const cwd = mkdtempSync(join(tmpdir(), 'svc-contract-start-'));
    dirs.push(cwd);
    const clean = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'SVC_API_KEY'),
    );
    // `pnpm contract` is the package's `contract` script after a build: node dist/cli.js, with the
    // same arguments and the key from the environment, as the command sets it.
    const [assignment = '', , , ...args] = command.split(' ');
    const [name = '', value = ''] = assignment.split('=');
    const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [CONTRACT_CLI, ...args],
        { cwd, env: { ...clean, [name]: value }, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) =>
          resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
    // Exit 0 means every check passed and no more than --max-skipped (default 0) were skipped for configuration.
    expect(result.stderr).toContain(
      `the sandbox's demo keys and fixtures come from http://localhost:${port}${CONTRACT_CONFIG_PATH}`,
    );
    expect(result.stdout).toMatch(/^PASSED$/m);
    expect(result.code, result.stdout.slice(-3000)).toBe(0);
  });
});
