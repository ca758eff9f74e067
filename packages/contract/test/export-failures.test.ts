// --export-failures: the scripts a run against a broken relay (a mutant of the sandbox) writes exit
// non-zero against that relay and zero against the sandbox; without curl they say so and exit 2;
// their names are safe for any file system; and no key reaches the files, wherever it stood.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedactor } from '../src/redact.js';
import { keyVariableOf } from '../src/replay/sent.js';
import { exportFailures, scriptName } from '../src/report/export-failures.js';
import type { Report } from '../src/report/shape.js';
import { runContract } from '../src/run.js';
import { loadSpec } from '../src/spec.js';
import { MUTANTS } from './support/mutants.js';
import { type Mutation, mutatingProxy, sandbox, type Target } from './support/servers.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-contract-export-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function sh(script: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('/bin/sh', [script], { env }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const mutant = (name: string) => {
  const found = MUTANTS.find((m) => m.name === name);
  if (!found) throw new Error(`no mutant ${name}`);
  return found;
};

describe.each(['returns an undocumented error code', 'answers with the wrong status'])(
  'the scripts of a run against the mutant that %s',
  (name) => {
    let upstream: Target;
    let relay: Target;
    let scripts: string[];
    let dir: string;

    beforeAll(async () => {
      upstream = await sandbox();
      relay = await mutatingProxy(upstream, mutant(name).mutation as Mutation);
      dir = tempDir();
      const result = await runContract({
        baseUrl: relay.url,
        apiKey: upstream.apiKey,
        config: upstream.config,
        only: mutant(name).only,
        rate: 'off',
        quiet: true,
        print: false,
        output: tempDir(),
        exportFailures: dir,
      });
      expect(result.exitCode).toBe(1);
      scripts = result.files.filter((f) => f.endsWith('.sh'));
    });
    afterAll(async () => {
      await relay?.close();
      await upstream?.close();
    });

    it('one per failure of the mutant, each named by its place, check and operation, listed in failures.txt', () => {
      expect(scripts.length).toBeGreaterThan(0);
      for (const script of scripts) expect(script.split('/').pop()).toMatch(/^\d{3}-[A-Za-z0-9._-]+\.sh$/);
      const index = readFileSync(join(dir, 'failures.txt'), 'utf8');
      expect(index).toContain(mutant(name).caughtBy);
      expect(scripts.some((s) => s.includes(mutant(name).caughtBy))).toBe(true);
    });

    it('exit 1 against the broken relay, printing what came and what was expected; 0 against the sandbox', async () => {
      // Each config key from its variable, as a user's shell would hold them.
      const keys = Object.fromEntries(upstream.config.keys.map((k) => [keyVariableOf(k.name), k.key]));
      const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', SVC_API_KEY: upstream.apiKey, ...keys };
      for (const script of scripts) {
        const broken = await sh(script, { ...env, SVC_BASE_URL: relay.url });
        expect(broken.code, `${script}\n${broken.stdout}${broken.stderr}`).toBe(1);
        expect(broken.stdout).toMatch(/^got: {6}\d{3}/m);
        expect(broken.stdout).toMatch(/^expected: /m);
        const fixed = await sh(script, { ...env, SVC_BASE_URL: upstream.url });
        expect(fixed.code, `${script}\n${fixed.stdout}${fixed.stderr}`).toBe(0);
      }
    });

    it('exit 2 with the reason when curl is absent, or the key variable is unset', async () => {
      const [script] = scripts as [string];
      const noCurl = await sh(script, { PATH: '/nonexistent', SVC_API_KEY: upstream.apiKey });
      expect(noCurl).toMatchObject({ code: 2, stderr: expect.stringContaining('curl is not installed') });
      const noKey = await sh(script, { PATH: process.env.PATH ?? '/usr/bin:/bin' });
      expect(noKey).toMatchObject({ code: 2, stderr: expect.stringContaining('set SVC_API_KEY') });
      expect(readFileSync(script, 'utf8')).not.toContain(upstream.apiKey);
    });
  },
);

describe('what the files hold', () => {
  const KEY = 'sk_live_export_4f2a9b7c1d';
  const OTHER = 'other/team"key_9x8y7z';

  function reportWith(failures: Report['failures']): Report {
    return { target: { baseUrl: 'http://127.0.0.1:9', embedded: false }, failures } as unknown as Report;
  }

  it('no key string, wherever the request carried it (query, body, headers, message), in any escaped form', () => {
    const dir = tempDir();
    const redact = createRedactor([
      { value: KEY, placeholder: '${SVC_API_KEY}' },
      { value: OTHER, placeholder: '<redacted:other team>' },
    ]);
    const expected = { judge: 'answer' as const, answers: [{ status: 404, codes: ['THREAD_NOT_FOUND'] }] };
    exportFailures(
      loadSpec(),
      reportWith([
        {
          check: 'tenants.other-team',
          operationId: 'getThread',
          message: `refused ${KEY} and ${JSON.stringify(OTHER)}`,
          request: {
            method: 'POST',
            url: `http://127.0.0.1:9/v2/api/threads/x?api_key=${KEY}&other=${encodeURIComponent(OTHER)}&raw=${OTHER}`,
            headers: { Authorization: `Api-Key ${OTHER}`, 'X-Echo': KEY },
            body: JSON.stringify({ key: KEY, other: OTHER }),
            key: { name: 'other team', kind: 'other-team' },
          },
          expected,
        },
      ]),
      dir,
      redact,
    );
    const files = readdirSync(dir);
    expect(files).toEqual(['001-tenants.other-team-getThread.sh', 'failures.txt']);
    for (const file of files) {
      const text = readFileSync(join(dir, file), 'utf8');
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(OTHER);
      expect(text).not.toContain(JSON.stringify(OTHER).slice(1, -1));
    }
    const script = readFileSync(join(dir, files[0] as string), 'utf8');
    // The other team's key is read from its variable, named by the key's name.
    expect(script).toContain('SVC_KEY_OTHER_TEAM');
    expect(script).toContain('set SVC_KEY_OTHER_TEAM to the API key named other team (kind other-team)');
  });

  it('names from the check, the operation and the place only: nothing a file system refuses', () => {
    expect(scriptName(0, { check: 'response.schema', operationId: '(api-wide)' })).toBe(
      '001-response.schema-_api-wide_.sh',
    );
    expect(scriptName(41, { check: '../../etc/passwd', operationId: 'a:b*c?"<>|\\' })).toBe(
      '042-.._.._etc_passwd-a_b_c______.sh',
    );
  });

  it('a failure a shell cannot judge is listed with the reason, not written', () => {
    const dir = tempDir();
    exportFailures(
      loadSpec(),
      reportWith([
        {
          check: 'response.schema',
          operationId: 'getThread',
          message: 'missing comment_count',
          request: { method: 'GET', url: 'http://127.0.0.1:9/v2/api/threads/x', headers: {} },
          expected: { judge: 'exchange' },
        },
      ]),
      dir,
      (t) => t,
    );
    expect(readdirSync(dir)).toEqual(['failures.txt']);
    expect(readFileSync(join(dir, 'failures.txt'), 'utf8')).toMatch(
      /^not exported: response.schema on getThread: judged on more than the status and error code/,
    );
  });

  it('a failure whose rule judged a state is left to replay, which runs the rule again', () => {
    const dir = tempDir();
    exportFailures(
      loadSpec(),
      reportWith([
        {
          check: 'custom-fields.partial-update',
          operationId: 'updateCustomField',
          message: 'the description was cleared',
          status: 200,
          request: { method: 'PATCH', url: 'http://127.0.0.1:9/v2/api/crm/attributes/x', headers: {}, body: '{}' },
          expected: { judge: 'state' },
        },
      ]),
      dir,
      (t) => t,
    );
    expect(readdirSync(dir)).toEqual(['failures.txt']);
    expect(readFileSync(join(dir, 'failures.txt'), 'utf8')).toMatch(
      /^not exported: custom-fields.partial-update on updateCustomField: its rule judged a state .*`svc-contract replay` runs the rule again/,
    );
  });
});
