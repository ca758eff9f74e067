#!/usr/bin/env node
// svc-mock: the Prism-powered mock on http://127.0.0.1:4011, answering in the API's error dialect;
// --plain starts prism-cli's plain `prism mock` of the same bundle instead, for comparison.
import { bundledContract } from '@svc/server-kernel';
import { Cli, portUsage } from '@svc/server-kernel/cli';
import { DEFAULT_HOST, DEFAULT_PORT } from './defaults.js';
import { loadKeysFile, type MockKey } from './keys-file.js';

/** Where the port comes from after --port, in order. */
const PORT_VARIABLES = ['SVC_MOCK_PORT', 'PORT'];

// Prism is imported and the contract loaded only once the arguments are known to be usable, so --help
// and usage errors answer at once.

const USAGE = `Usage: svc-mock [options]

Mock of the Team Communications Service API: Prism serves every documented example, and this
layer answers invalid requests, bad keys and unknown routes with the API's own error bodies.

Options:
${portUsage(PORT_VARIABLES, DEFAULT_PORT)}
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

// Typed, so that TypeScript knows cli.fatal() never returns.
const cli: Cli = new Cli('svc-mock', USAGE);

async function main(): Promise<void> {
  const values = cli.parse(process.argv.slice(2), {
    port: { type: 'string' },
    host: { type: 'string' },
    keys: { type: 'string' },
    dynamic: { type: 'boolean' },
    plain: { type: 'boolean' },
  });
  if (!values) return;
  const port = cli.port(values.port, PORT_VARIABLES, DEFAULT_PORT);
  const host = values.host ?? DEFAULT_HOST;

  if (values.plain) {
    if (values.keys !== undefined) cli.fatal('--keys has no effect with --plain (plain Prism accepts any key)');
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
      keys = loadKeysFile(values.keys, bundledContract().scopes);
    } catch (error) {
      cli.fatal((error as Error).message);
    }
  }
  const { startMockServer } = await import('./server.js');
  const running = await startMockServer({
    port,
    host,
    ...(keys ? { keys } : {}),
    dynamic: values.dynamic === true,
  }).catch((error: unknown) => {
    // The usual first stumble: another mock (or anything) already holds the port. No port is
    // suggested that was not tried: --port 0 takes one that is free.
    if ((error as { code?: unknown }).code !== 'EADDRINUSE') throw error;
    process.stderr.write(
      `svc-mock: port ${port} on ${host} is already in use (another mock still running?): stop it, or --port 0 for any free port\n`,
    );
    process.exit(1);
  });
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
  cli.stopOnSignal(running);
}

cli.run(main);
