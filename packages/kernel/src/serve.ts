// Serving a kernel (or any web-standard fetch handler of this repository) over node:http with
// @hono/node-server. Port 0 picks a free port (tests, bench). Malformed HTTP gets the documented
// error body through Node's `clientError` hook, not Node's bare 400/431/408.
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { answerClientError, type Contract } from '@svc/spec-runtime';
import { startBodyWorker } from './body-offload.js';

export interface Listening {
  /** http://host:port, the host bracketed when it is IPv6. */
  url: string;
  port: number;
  close(): Promise<void>;
}

export function urlOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

export function listen(fetch: (request: Request) => Promise<Response> | Response, contract: Contract, port: number, host: string): Promise<Listening> {
  startBodyWorker(contract); // before any request: its start-up is no request's cost
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port, hostname: host }, (info: AddressInfo) => {
      server.off('error', reject);
      resolve({
        port: info.port,
        url: urlOf(host, info.port),
        close: () =>
          new Promise<void>((done, fail) => {
            if ('closeAllConnections' in server) server.closeAllConnections();
            server.close((error) => (error ? fail(error) : done()));
          }),
      });
    });
    server.once('error', reject);
    server.on('clientError', (error: NodeJS.ErrnoException, socket) => answerClientError(contract, error, socket));
  });
}
