// The validating proxy: traffic relayed to the sandbox passes; the same traffic relayed to a
// server that answers a bad request with the wrong error fails, by name; the reports are written
// when it stops; and the command stops on SIGINT with the report.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runProxy } from '../src/proxy-run.js';
import { json, mutatingProxy, sandbox, type Target } from './support/servers.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-contract-proxy-'));
  dirs.push(dir);
  return dir;
};

/** An integrator's traffic: valid requests and requests wrong on purpose. */
async function traffic(base: string, key: string): Promise<number[]> {
  const auth = { authorization: `Api-Key ${key}` };
  const sends = [
    fetch(`${base}/v2/api/users`, { headers: auth }),
    fetch(`${base}/v2/api/crm/attributes?size=100`, { headers: auth }),
    fetch(`${base}/v2/api/crm/attributes?size=101`, { headers: auth }),
    fetch(`${base}/v2/api/tags`),
    fetch(`${base}/v2/api/no-such-thing`, { headers: auth }),
    fetch(`${base}/favicon.ico`),
    fetch(`${base}/v2/api/threads`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"entity_type": ',
    }),
    fetch(`${base}/v2/api/threads`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'text/plain' },
      body: 'hello',
    }),
  ];
  const statuses: number[] = [];
  for (const send of sends) statuses.push((await send).status);
  return statuses;
}

async function throughProxy(upstream: Target, output: string) {
  let stop!: () => void;
  const until = new Promise<void>((resolve) => (stop = resolve));
  let listening!: (url: string) => void;
  const url = new Promise<string>((resolve) => (listening = resolve));
  const silent = { write: () => true } as unknown as NodeJS.WritableStream;
  const run = runProxy({
    upstream: upstream.url,
    until,
    onListening: listening,
    reporters: ['json', 'junit'],
    output,
    quiet: true,
    stdout: silent,
    stderr: silent,
  });
  const statuses = await traffic(await url, upstream.apiKey);
  stop();
  return { result: await run, statuses };
}

describe('svc-contract proxy', () => {
  it('relays traffic to the sandbox, checks every exchange and the refusals, and passes', async () => {
    const upstream = await sandbox();
    try {
      const output = tempDir();
      const { result, statuses } = await throughProxy(upstream, output);
      expect(statuses.slice(0, 5)).toEqual([200, 200, 400, 401, 404]);
      expect([401, 404]).toContain(statuses[5]);
      expect(statuses.slice(6)).toEqual([400, 415]);
      expect(result.report.failures).toEqual([]);
      expect(result.exitCode).toBe(0);
      expect(result.report.requests).toBe(8);
      const refusals = result.report.operations.flatMap((op) => op.checks).filter((c) => c.id === 'proxy.refusal');
      expect(refusals.reduce((n, c) => n + c.passed, 0)).toBe(6);
      // The rate windows are followed through the proxy too (each exchange carries when it was sent and answered).
      const windows = result.report.operations
        .flatMap((op) => op.checks)
        .filter((c) => c.id === 'response.rate-limit-window');
      expect(windows.reduce((n, c) => n + c.passed, 0)).toBeGreaterThan(0);
      const written = JSON.parse(readFileSync(join(output, 'report.json'), 'utf8')) as { requests: number };
      expect(written.requests).toBe(8);
      expect(readFileSync(join(output, 'junit.xml'), 'utf8')).toContain('classname="listCustomFields"');
      // The integrator's key never reaches the reports.
      expect(readFileSync(join(output, 'report.json'), 'utf8')).not.toContain(upstream.apiKey);
    } finally {
      await upstream.close();
    }
  });

  it('fails, by name, a server that answers a request wrong on purpose with the wrong error', async () => {
    const upstream = await sandbox();
    const broken = await mutatingProxy(upstream, {
      // size=101 answered as if it were fine: the documented INVALID_PAGE_SIZE is missing.
      response: (r, q) =>
        q.path.includes('size=101')
          ? json({ ...r, status: 200 }, (b) =>
              Object.assign(b, {
                error: undefined,
                data: [],
                pagination: { page: 1, size: 101, total_count: 0, total_pages: 0, has_more: false },
              }),
            )
          : r,
    });
    try {
      const { result } = await throughProxy(broken, tempDir());
      expect(result.report.failures.map((f) => f.check)).toContain('proxy.refusal');
      expect(result.report.failures.find((f) => f.check === 'proxy.refusal')?.message).toMatch(
        /expected 400 INVALID_PAGE_SIZE/,
      );
      expect(result.exitCode).toBe(1);
    } finally {
      await broken.close();
      await upstream.close();
    }
  });

  it('as a command, stops on SIGINT and prints the report', async () => {
    const upstream = await sandbox();
    try {
      const output = tempDir();
      const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
      const child = spawn(
        process.execPath,
        [cli, 'proxy', '--upstream', upstream.url, '--port', '0', '--reporter', 'junit', '--output', output, '--quiet'],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stdout = '';
      const url = await new Promise<string>((resolve) => {
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += String(chunk);
          const found = /listening on (http:\/\/\S+),/.exec(stdout);
          if (found?.[1]) resolve(found[1]);
        });
      });
      await fetch(`${url}/v2/api/users`, { headers: { authorization: `Api-Key ${upstream.apiKey}` } });
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(stdout).toMatch(/\nPASSED\n/);
      expect(readFileSync(join(output, 'junit.xml'), 'utf8')).toContain('classname="listUsers"');
    } finally {
      await upstream.close();
    }
  });
});
