// `pnpm docs:serve` / `pnpm serve`: serves the built dist/ on 127.0.0.1 (port from --port, default
// 4012) and prints the URL.
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DIST_DIR, DOCS_HTML } from './paths.js';
import { startStaticServer } from './static-server.js';

export const DEFAULT_PORT = 4012;

const { values } = parseArgs({ options: { port: { type: 'string', short: 'p' } }, allowPositionals: false });
const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a port number, got ${values.port}`);
  process.exit(2);
}
if (!existsSync(DOCS_HTML)) {
  console.error(`${DOCS_HTML} does not exist: run \`pnpm --filter @svc/docs build\` first.`);
  process.exit(1);
}

const running = await startStaticServer(DIST_DIR, port).catch((error: NodeJS.ErrnoException) => {
  console.error(error.code === 'EADDRINUSE' ? `Port ${port} is in use: pass another with --port.` : error.message);
  process.exit(1);
});
console.log(`Team Communications Service API docs: ${running.url}`);
console.log('Press Ctrl+C to stop.');
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void running.close().then(() => process.exit(0)));
}
