// Prism's validating proxy, built as `prism proxy <bundle> <upstream>` builds it (prism-cli 5.14's
// createServer: prism-http-server with request and response validation, security checked,
// `--errors` off, CORS on), but listening on a free port that it picks itself.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

interface PrismServer {
  listen(port: number, host: string): Promise<string>;
  close(): Promise<void>;
}

export interface RunningPrismProxy {
  url: string;
  close(): Promise<void>;
}

export async function startPrismProxy(documentPath: string, upstream: string): Promise<RunningPrismProxy> {
  const { createServer } = require('@stoplight/prism-http-server') as {
    createServer(operations: unknown, options: unknown): PrismServer;
  };
  const { getHttpOperationsFromSpec } = require('@stoplight/prism-http') as {
    getHttpOperationsFromSpec(path: string): Promise<unknown[]>;
  };
  const { createLogger } = require('@stoplight/prism-core') as {
    createLogger(name: string, options: object): { child(bindings: object): unknown };
  };
  const operations = await getHttpOperationsFromSpec(documentPath);
  const server = createServer(operations, {
    cors: true,
    config: {
      isProxy: true,
      upstream: new URL(upstream),
      validateRequest: true,
      validateResponse: true,
      checkSecurity: true,
      errors: false,
      mock: { dynamic: false },
    },
    // Violations are read from each answer's sl-violations header; logging would only slow Prism.
    components: { logger: createLogger('CLI', { level: 'silent' }).child({ name: 'HTTP SERVER' }) },
  });
  const url = await server.listen(0, '127.0.0.1');
  return { url, close: () => server.close() };
}
