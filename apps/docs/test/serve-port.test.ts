// The docs server's command reads its port as every server command does (@svc/server-kernel/cli):
// --port, else SVC_DOCS_PORT, else PORT, else 4012, and says so in --help.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const tsx = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));
const serve = fileURLToPath(new URL('../src/serve.ts', import.meta.url));
const run = (args: string[], vars: Record<string, string> = {}) =>
  spawnSync(tsx, [serve, ...args], {
    encoding: 'utf8',
    env: { ...process.env, SVC_DOCS_PORT: undefined, PORT: undefined, ...vars },
  });

it('says where the port comes from in --help', () => {
  const help = run(['--help']);
  expect(help.status).toBe(0);
  expect(help.stdout).toContain(
    '--port <n>         Port to listen on (default: $SVC_DOCS_PORT, else $PORT, else 4012;',
  );
});

it('refuses an empty or bad port from any source with exit code 2, naming the source', () => {
  for (const [args, vars, first] of [
    [['--port', ''], {}, 'serve: --port must be an integer from 0 to 65535, got an empty value'],
    [[], { PORT: '' }, 'serve: PORT must be an integer from 0 to 65535, got an empty value'],
    [[], { SVC_DOCS_PORT: 'web', PORT: '4012' }, 'serve: SVC_DOCS_PORT must be an integer from 0 to 65535, got web'],
  ] as const) {
    const result = run([...args], vars);
    expect([result.status, result.stderr.split('\n')[0]]).toEqual([2, first]);
  }
});
