// Serving a kernel (or any web-standard fetch handler of this repository) over node:http. A
// kernel's API requests are answered by its serveNode, without a web Request; whatever it leaves
// (and any other handler) goes through @hono/node-server's listener, which bridges web Requests
// and Responses, streamed bodies included. Port 0 picks a free port (tests, bench). Malformed
// HTTP gets the documented error body through Node's `clientError` hook, not Node's bare
// 400/431/408, paced by a budget shared by all connections (client-error-pacing.ts); so does an
// HTTP/1.1 request without exactly one Host header (Node's own check answers a bare 400).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { Contract } from '@svc/spec-runtime';
import { startBodyWorker } from './body-offload.js';
import { pacedClientErrors } from './client-error-pacing.js';
import { hostProblem, malformedAnswer } from './malformed-http.js';
import type { NodeHandler } from './node-request.js';

export interface Listening {
  /** http://host:port, the host bracketed when it is IPv6. */
  url: string;
  port: number;
  close(): Promise<void>;
}

export function urlOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

export function listen(
  fetch: (request: Request) => Promise<Response> | Response,
  contract: Contract,
  port: number,
  host: string,
  serveNode: NodeHandler = () => false,
): Promise<Listening> {
  startBodyWorker(contract); // before any request: its start-up is no request's cost
  const viaFetch = getRequestListener(fetch);
  const server = createServer({ requireHostHeader: false }, (incoming, outgoing) => {
    const host = hostProblem(incoming);
    if (host !== undefined) {
      const { status, headers, body } = malformedAnswer(contract, host);
      outgoing.writeHead(status, headers).end(body);
    } else if (!serveNode(incoming, outgoing)) void viaFetch(incoming, outgoing);
  });
  server.on('clientError', pacedClientErrors(contract));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const { port: bound } = server.address() as AddressInfo;
      resolve({
        port: bound,
        url: urlOf(host, bound),
        close: () =>
          new Promise<void>((done, fail) => {
            server.closeAllConnections();
            server.close((error) => (error ? fail(error) : done()));
          }),
      });
    });
  });
}
