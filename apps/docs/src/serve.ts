// `pnpm docs:serve` / `pnpm serve`: serves the built dist/ on 127.0.0.1 and prints the URL. The
// port is read as every server command of this repository reads it (@svc/server-kernel/cli).
import { existsSync } from 'node:fs';
import { Cli, portUsage } from '@svc/server-kernel/cli';
import { CONSOLE_PAGE, SERVER_PARAMETER } from './console/page.js';
import { DIST_DIR, DOCS_HTML } from './paths.js';
import { startStaticServer } from './static-server.js';

export const DEFAULT_PORT = 4012;
/** Where the port comes from after --port, in order. */
const PORT_VARIABLES = ['SVC_DOCS_PORT', 'PORT'];

const USAGE = `Usage: serve [options]

Serves the built API docs (dist/) on 127.0.0.1.

Options:
${portUsage(PORT_VARIABLES, DEFAULT_PORT)}
  -h, --help         Show this help
`;

// Typed, so that TypeScript knows cli.fatal() never returns.
const cli: Cli = new Cli('serve', USAGE);

async function main(): Promise<void> {
  const values = cli.parse(process.argv.slice(2), { port: { type: 'string', short: 'p' } });
  if (!values) return;
  const port = cli.port(values.port, PORT_VARIABLES, DEFAULT_PORT);
  if (!existsSync(DOCS_HTML)) {
    console.error(`${DOCS_HTML} does not exist: run \`pnpm --filter @svc/docs build\` first.`);
    process.exit(1);
  }
  const running = await startStaticServer(DIST_DIR, port).catch((error: NodeJS.ErrnoException) => {
    console.error(error.code === 'EADDRINUSE' ? `Port ${port} is in use: pass another with --port.` : error.message);
    process.exit(1);
  });
  console.log(`Team Communications Service API docs: ${running.url}`);
  console.log(
    `Console (calls the sandbox on loopback, ?${SERVER_PARAMETER}= names another): ${running.url}${CONSOLE_PAGE}`,
  );
  console.log('Press Ctrl+C to stop.');
  cli.stopOnSignal(running);
}

cli.run(main);
