// Serving the mock with node:http. Port 0 picks a free port (tests, bench).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerClientError } from '@svc/spec-runtime';
import { createMock, type Mock, type MockOptions } from './app.js';
import { DEFAULT_HOST, DEFAULT_PORT } from './defaults.js';

export interface ServeOptions extends MockOptions {
  port?: number;
  host?: string;
}

export interface RunningMock {
  mock: Mock;
  url: string;
  port: number;
  close(): Promise<void>;
}

export { DEFAULT_HOST, DEFAULT_PORT };

export function urlOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

export async function startMockServer(options: ServeOptions = {}): Promise<RunningMock> {
  const mock = await createMock(options);
  const host = options.host ?? DEFAULT_HOST;
  const server = createServer(mock.handle);
  // Malformed HTTP gets the documented error body, not Node's bare 400/431/408.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => answerClientError(mock.contract, error, socket));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_PORT, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    mock,
    port,
    url: urlOf(host, port),
    close: () =>
      new Promise<void>((done, fail) => {
        server.closeAllConnections();
        server.close((error) => (error ? fail(error) : done()));
      }),
  };
}
