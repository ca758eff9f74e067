// A run against a server given by --base-url loads no server code: neither @svc/sandbox nor the
// kernel under it (they are imported only when the embedded sandbox starts). The built CLI runs
// with a module hook that logs every module it resolves; the embedded run is the control that
// shows the log would name them.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { sandbox } from './support/servers.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const HOOK = fileURLToPath(new URL('./support/module-log.mjs', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'svc-contract-modules-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The folder of a package as Node resolves it (real path, as module URLs are). */
function packageRoot(name: string, from: string): string {
  return pathToFileURL(realpathSync(dirname(createRequire(from).resolve(`${name}/package.json`)))).href;
}
const SANDBOX = packageRoot('@svc/sandbox', import.meta.url);
const KERNEL = packageRoot('@svc/server-kernel', `${SANDBOX}/package.json`);

/** The modules a CLI run resolved, and its exit status. */
function modulesOf(name: string, args: string[]): Promise<{ code: number; modules: string[] }> {
  const log = join(work, `${name}.log`);
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST')));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', HOOK, CLI, '--only', 'users', '--rate', 'off', '--quiet', ...args],
      { env: { ...env, MODULE_LOG: log, SVC_API_KEY: '' }, cwd: work },
      (error) => {
        const code = error ? ((error as { code?: number }).code ?? 1) : 0;
        resolve({ code, modules: readFileSync(log, 'utf8').split('\n').filter(Boolean) });
      },
    );
  });
}

const serverModules = (modules: string[]) =>
  modules.filter((url) => url.startsWith(`${SANDBOX}/`) || url.startsWith(`${KERNEL}/`));

describe('a --base-url run', () => {
  it('loads no module of @svc/sandbox or @svc/server-kernel', async () => {
    const target = await sandbox();
    try {
      const remote = await modulesOf('remote', [
        '--base-url',
        target.url,
        '--api-key',
        target.apiKey,
        '--max-skipped',
        '1000',
      ]);
      expect(remote.code).toBe(0);
      expect(remote.modules.some((url) => url.endsWith('/dist/cli.js'))).toBe(true);
      expect(serverModules(remote.modules)).toEqual([]);
    } finally {
      await target.close();
    }
  });

  it('while the embedded sandbox loads both (the log sees them)', async () => {
    const embedded = await modulesOf('embedded', []);
    expect(embedded.code).toBe(0);
    const loaded = serverModules(embedded.modules);
    expect(loaded.some((url) => url.startsWith(SANDBOX))).toBe(true);
    expect(loaded.some((url) => url.startsWith(KERNEL))).toBe(true);
  });
});
