// Serving the mock over HTTP (the kernel's listen). Port 0 picks a free port (tests, bench).
import { listen } from '@svc/server-kernel';
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

export async function startMockServer(options: ServeOptions = {}): Promise<RunningMock> {
  const mock = await createMock(options);
  return {
    mock,
    ...(await listen(mock.fetch, mock.contract, options.port ?? DEFAULT_PORT, options.host ?? DEFAULT_HOST)),
  };
}
