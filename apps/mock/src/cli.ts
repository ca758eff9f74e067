#!/usr/bin/env node
// svc-mock: the Prism-powered mock on http://127.0.0.1:4011, answering in the API's error dialect;
// --plain starts prism-cli's plain `prism mock` of the same bundle instead, for comparison.
import { parseArgs } from 'node:util';
import { DEFAULT_HOST, DEFAULT_PORT } from './defaults.js';
import { loadKeysFile, type MockKey } from './keys-file.js';

// Prism and the contract are imported only once the arguments are known to be usable, so --help
// and usage errors answer at once.

const USAGE = `Usage: svc-mock [options]

Mock of the Team Communications Service API: Prism serves every documented example, and this
layer answers invalid requests, bad keys and unknown routes with the API's own error bodies.

Options:
  --port <n>      Port to listen on (default ${DEFAULT_PORT}; 0 picks a free port)
  --host <host>   Interface to bind (default ${DEFAULT_HOST})
  --keys <file>   Known keys and scopes, {"keys":[{"key":"...","scopes":["..."]}]}: unknown keys get
                  401 API_KEY_INVALID and missing scopes 403 (default: any Api-Key is accepted)
  --dynamic       Generate responses from the schemas instead of serving the examples
  --plain         Run plain \`prism mock\` of the same bundle instead (Prism's own dialect)
  -h, --help      Show this help

Choose a documented response per request with Prefer, e.g.
  Prefer: code=404, example=THREAD_NOT_FOUND      Prefer: example=RATE_LIMIT_EXCEEDED
  Prefer: dynamic=true
`;

function fatal(message: string): never {
  process.stderr.write(`svc-mock: ${message}\n\n${USAGE}`);
  process.exit(2);
}

async function main(): Promise<void> {
  let values;
  try {
    // `pnpm start -- --port 5000` hands the script a leading `--` (npm habits): skip it.
    const args = process.argv.slice(2);
    if (args[0] === '--') args.shift();
    ({ values } = parseArgs({
      args,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        keys: { type: 'string' },
        dynamic: { type: 'boolean' },
        plain: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    fatal((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
  if (!/^\d+$/.test(values.port ?? '0') || !Number.isInteger(port) || port < 0 || port > 65535) fatal(`--port must be an integer from 0 to 65535, got ${values.port}`);
  const host = values.host ?? DEFAULT_HOST;

  if (values.plain) {
    if (values.keys !== undefined) fatal('--keys has no effect with --plain (plain Prism accepts any key)');
    // Plain Prism prints its own banner and a log line per request.
    const { spawnPlainPrism } = await import('./plain.js');
    const child = spawnPlainPrism({ port, host, dynamic: values.dynamic === true });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    process.once('SIGINT', forward);
    process.once('SIGTERM', forward);
    child.once('exit', (code) => process.exit(code ?? 0));
    return;
  }

  let keys: MockKey[] | undefined;
  if (values.keys !== undefined) {
    try {
      const { bundledContract } = await import('./contract.js');
      keys = loadKeysFile(values.keys, bundledContract().scopes);
    } catch (error) {
      fatal((error as Error).message);
    }
  }
  const { startMockServer } = await import('./server.js');
  const running = await startMockServer({ port, host, ...(keys ? { keys } : {}), dynamic: values.dynamic === true });
  process.stdout.write(
    [
      `Mock of the Team Communications Service API listening on ${running.url}`,
      `Keys: ${keys ? `${keys.length} from ${values.keys} (others get 401 API_KEY_INVALID)` : 'any Authorization: Api-Key <key> is accepted'}; responses: ${values.dynamic ? 'generated' : 'documented examples'}`,
      '',
      'Try:',
      `  curl -H 'Authorization: Api-Key ${keys?.[0]?.key ?? 'any_key'}' ${running.url}/v2/api/threads/cth-5Lm1zX7e`,
      `  curl -H 'Authorization: Api-Key ${keys?.[0]?.key ?? 'any_key'}' -H 'Prefer: code=404' ${running.url}/v2/api/threads/cth-5Lm1zX7e`,
      '',
    ].join('\n'),
  );
  const stop = () => {
    running.close().finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`svc-mock: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
