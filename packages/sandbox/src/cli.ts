#!/usr/bin/env node
// svc-sandbox: runs the sandbox on http://127.0.0.1:4010 and prints how to call it.
import { bundledContract } from '@svc/server-kernel';
import { Cli, portUsage } from '@svc/server-kernel/cli';
import { RESET_PATH } from './app.js';
import { contractCommandLines, demoKeyLines, withDemoContractConfig } from './cli-contract-config.js';
import { docsErrorUrl } from './doc-url.js';
import { DOCS_BYTES_PER_SECOND } from './docs-route.js';
import { busyPortMessage } from './free-port.js';
import { exchangeFilter, LOGS_OPTIONS, LOGS_USAGE, tailLine } from './logs-command.js';
import { REQUESTS_PATH } from './request-log-route.js';
import { DEFAULT_SEED_PATH, loadSeedFile } from './seed-file.js';
import { DEFAULT_HOST, DEFAULT_PORT, type RunningSandbox, startSandboxServer } from './server.js';
import type { SeedFile } from './store/model.js';
import { runTrigger } from './trigger-command.js';
import { WEBHOOK_TRIGGER_PATH } from './webhook-trigger.js';

const { readRequestsPerSecond, writeRequestsPerSecond } = bundledContract().limits;
const MIB = 1024 * 1024;
/** Where the port comes from after --port, in order. */
const PORT_VARIABLES = ['SVC_SANDBOX_PORT', 'PORT'];

const USAGE = `Usage: svc-sandbox [options]
       svc-sandbox trigger <topic> --url <url>   (send a webhook delivery; trigger --help)
       svc-sandbox logs tail [--status 4xx] [--operation <id>] [--json] [options]
                                                 (run it and print each exchange; logs tail --help)

Runs the stateful sandbox of the Team Communications Service API (in memory, seeded).

Options:
${portUsage(PORT_VARIABLES, DEFAULT_PORT)}
  --host <host>      Interface to bind (default ${DEFAULT_HOST})
  --seed <file>      Seed JSON to load instead of the bundled fixtures/seed.json
  --no-rate-limit    Turn off the ${readRequestsPerSecond} reads/s and ${writeRequestsPerSecond} writes/s per-key limits
  --docs <dir>       Serve a built docs folder (apps/docs/dist) under /docs; errors' doc_url then points there
  --docs-rate <MiB>  What /docs may send per second, all readers together (default ${DOCS_BYTES_PER_SECOND / MIB}; 0: no limit)
  --docs-url <url>   Where errors' doc_url points otherwise: your published docs page (default: the contract's)
  --enable-reset     Serve POST ${RESET_PATH}, which restores the seed (for tests)
  --enable-webhook-trigger
                     Serve POST ${WEBHOOK_TRIGGER_PATH} (sends a webhook delivery to a URL you give)
  -h, --help         Show this help
`;

// Typed, so that TypeScript knows cli.fatal() never returns.
const cli: Cli = new Cli('svc-sandbox', USAGE);

const SERVE_OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  seed: { type: 'string' },
  'no-rate-limit': { type: 'boolean' },
  'enable-reset': { type: 'boolean' },
  'enable-webhook-trigger': { type: 'boolean' },
  docs: { type: 'string' },
  'docs-url': { type: 'string' },
  'docs-rate': { type: 'string' },
} as const;

type ServeValues = {
  [name in keyof typeof SERVE_OPTIONS]?: (typeof SERVE_OPTIONS)[name]['type'] extends 'boolean' ? boolean : string;
};

/** Starts the sandbox the options describe and writes its banner with `write`. */
async function serve(command: Cli, values: ServeValues, write: (text: string) => void): Promise<RunningSandbox> {
  const port = command.port(values.port, PORT_VARIABLES, DEFAULT_PORT);
  const docsUrl = values['docs-url'];
  if (docsUrl !== undefined && !URL.canParse(docsUrl))
    command.fatal(`--docs-url must be an absolute URL, got ${docsUrl}`);
  const docsRate = values['docs-rate'];
  // Digits with an optional fraction, as --port takes digits: Number() alone would read '' as 0.
  if (docsRate !== undefined && !/^\d+(\.\d+)?$/.test(docsRate))
    command.fatal(`--docs-rate must be a number of MiB per second (0: no limit), got ${docsRate}`);
  const docsBytesPerSecond = docsRate === undefined ? DOCS_BYTES_PER_SECOND : Number(docsRate) * MIB;
  let seed: SeedFile;
  try {
    seed = loadSeedFile(values.seed ?? DEFAULT_SEED_PATH);
  } catch (error) {
    command.fatal((error as Error).message);
  }
  const demo = withDemoContractConfig(seed, bundledContract());
  const running = await startSandboxServer({
    port,
    host: values.host ?? DEFAULT_HOST,
    seed: demo.seed,
    serveContractConfig: demo.apiKey !== undefined,
    rateLimit: values['no-rate-limit'] ? false : {},
    enableReset: values['enable-reset'] === true,
    enableWebhookTrigger: values['enable-webhook-trigger'] === true,
    ...(values.docs
      ? { docsDir: values.docs, docsBytesPerSecond: docsBytesPerSecond === 0 ? false : docsBytesPerSecond }
      : {}),
    ...(docsUrl !== undefined && !values.docs ? { docUrl: (code: string) => docsErrorUrl(docsUrl, code) } : {}),
  }).catch(async (error: unknown) => {
    // The usual first stumble: another sandbox (or anything) already holds the port.
    if ((error as { code?: unknown }).code === 'EADDRINUSE') {
      process.stderr.write(await busyPortMessage(port, values.host ?? DEFAULT_HOST));
      process.exit(1);
    }
    throw error;
  });
  write(bannerOf(running.url, values, seed, demo));
  return running;
}

function bannerOf(
  url: string,
  values: ServeValues,
  seed: SeedFile,
  demo: ReturnType<typeof withDemoContractConfig>,
): string {
  return [
    `Sandbox of the Team Communications Service API listening on ${url}`,
    `Rate limits: ${values['no-rate-limit'] ? 'off' : `on (${readRequestsPerSecond} reads/s, ${writeRequestsPerSecond} writes/s per key)`}; reset endpoint: ${values['enable-reset'] ? `POST ${url}${RESET_PATH}` : 'off'}`,
    ...(values.docs ? [`API reference: ${url}/docs/ (errors' doc_url points there)`] : []),
    ...(values['enable-webhook-trigger']
      ? [
          `Webhook trigger: POST ${url}${WEBHOOK_TRIGGER_PATH} with a sandbox key and Content-Type: application/json, {"topic":"CALL_RECEIVED","url":"<your receiver>"}`,
        ]
      : []),
    `Request log: GET ${url}${REQUESTS_PATH}/<request_id> with a sandbox key (the last exchanges; svc-sandbox logs tail prints them as they come)`,
    '',
    'Sandbox demo keys (fictional data, valid only against this sandbox):',
    ...demoKeyLines(seed, demo),
    '',
    'Try:',
    `  curl -H 'Authorization: Api-Key sbx_demo_full_access' ${url}/v2/api/threads/cth-5Lm1zX7e`,
    ...contractCommandLines(url, demo),
    '',
  ].join('\n');
}

/** `svc-sandbox logs tail`: the sandbox, its banner on stderr, each exchange on stdout (logs-command.ts). */
async function tail(args: string[]): Promise<void> {
  const command: Cli = new Cli('svc-sandbox logs tail', LOGS_USAGE);
  if (args[0] !== 'tail')
    command.fatal(args[0] === undefined ? 'logs needs a subcommand: tail' : `unknown logs subcommand ${args[0]}`);
  const values = command.parse(args.slice(1), { ...SERVE_OPTIONS, ...LOGS_OPTIONS });
  if (!values) return;
  const shown = exchangeFilter(values, bundledContract());
  if (typeof shown !== 'function') command.fatal(shown.error);
  const running = await serve(command, values, (text) => process.stderr.write(text));
  const json = values.json === true;
  running.sandbox.requestLog?.subscribe((exchange) => {
    if (shown(exchange)) process.stdout.write(tailLine(exchange, json));
  });
  command.stopOnSignal(running);
}

async function main(): Promise<void> {
  if (process.argv[2] === 'trigger') {
    process.exitCode = await runTrigger(process.argv.slice(3), {
      out: (text) => process.stdout.write(text),
      err: (text) => process.stderr.write(text),
    });
    return;
  }
  if (process.argv[2] === 'logs') return tail(process.argv.slice(3));
  const values = cli.parse(process.argv.slice(2), SERVE_OPTIONS);
  if (!values) return;
  const running = await serve(cli, values, (text) => process.stdout.write(text));
  cli.stopOnSignal(running);
}

cli.run(main);
