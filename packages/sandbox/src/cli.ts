#!/usr/bin/env node
// svc-sandbox: runs the sandbox on http://127.0.0.1:4010 and prints how to call it.
import { bundledContract } from '@svc/server-kernel';
import { Cli, portUsage } from '@svc/server-kernel/cli';
import { RESET_PATH } from './app.js';
import { contractCommandLines, demoKeyLines, withDemoContractConfig } from './cli-contract-config.js';
import { docsErrorUrl } from './doc-url.js';
import { DOCS_BYTES_PER_SECOND } from './docs-route.js';
import { busyPortMessage } from './free-port.js';
import { DEFAULT_SEED_PATH, loadSeedFile } from './seed-file.js';
import { DEFAULT_HOST, DEFAULT_PORT, startSandboxServer } from './server.js';
import type { SeedFile } from './store/model.js';
import { runTrigger } from './trigger-command.js';
import { WEBHOOK_TRIGGER_PATH } from './webhook-trigger.js';

const { readRequestsPerSecond, writeRequestsPerSecond } = bundledContract().limits;
const MIB = 1024 * 1024;
/** Where the port comes from after --port, in order. */
const PORT_VARIABLES = ['SVC_SANDBOX_PORT', 'PORT'];

const USAGE = `Usage: svc-sandbox [options]
       svc-sandbox trigger <topic> --url <url>   (send a webhook delivery; trigger --help)

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

async function main(): Promise<void> {
  if (process.argv[2] === 'trigger') {
    process.exitCode = await runTrigger(process.argv.slice(3), {
      out: (text) => process.stdout.write(text),
      err: (text) => process.stderr.write(text),
    });
    return;
  }
  const values = cli.parse(process.argv.slice(2), {
    port: { type: 'string' },
    host: { type: 'string' },
    seed: { type: 'string' },
    'no-rate-limit': { type: 'boolean' },
    'enable-reset': { type: 'boolean' },
    'enable-webhook-trigger': { type: 'boolean' },
    docs: { type: 'string' },
    'docs-url': { type: 'string' },
    'docs-rate': { type: 'string' },
  });
  if (!values) return;
  const port = cli.port(values.port, PORT_VARIABLES, DEFAULT_PORT);
  const docsUrl = values['docs-url'];
  if (docsUrl !== undefined && !URL.canParse(docsUrl)) cli.fatal(`--docs-url must be an absolute URL, got ${docsUrl}`);
  const docsRate = values['docs-rate'];
  // Digits with an optional fraction, as --port takes digits: Number() alone would read '' as 0.
  if (docsRate !== undefined && !/^\d+(\.\d+)?$/.test(docsRate))
    cli.fatal(`--docs-rate must be a number of MiB per second (0: no limit), got ${docsRate}`);
  const docsBytesPerSecond = docsRate === undefined ? DOCS_BYTES_PER_SECOND : Number(docsRate) * MIB;
  let seed: SeedFile;
  try {
    seed = loadSeedFile(values.seed ?? DEFAULT_SEED_PATH);
  } catch (error) {
    cli.fatal((error as Error).message);
  }
  const demo = withDemoContractConfig(seed, Object.keys(bundledContract().scopes));
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
  process.stdout.write(
    [
      `Sandbox of the Team Communications Service API listening on ${running.url}`,
      `Rate limits: ${values['no-rate-limit'] ? 'off' : `on (${readRequestsPerSecond} reads/s, ${writeRequestsPerSecond} writes/s per key)`}; reset endpoint: ${values['enable-reset'] ? `POST ${running.url}${RESET_PATH}` : 'off'}`,
      ...(values.docs ? [`API reference: ${running.url}/docs/ (errors' doc_url points there)`] : []),
      ...(values['enable-webhook-trigger']
        ? [
            `Webhook trigger: POST ${running.url}${WEBHOOK_TRIGGER_PATH} with a sandbox key and Content-Type: application/json, {"topic":"CALL_RECEIVED","url":"<your receiver>"}`,
          ]
        : []),
      '',
      'Sandbox demo keys (fictional data, valid only against this sandbox):',
      ...demoKeyLines(seed, demo),
      '',
      'Try:',
      `  curl -H 'Authorization: Api-Key sbx_demo_full_access' ${running.url}/v2/api/threads/cth-5Lm1zX7e`,
      ...contractCommandLines(running.url, demo),
      '',
    ].join('\n'),
  );
  cli.stopOnSignal(running);
}

cli.run(main);
