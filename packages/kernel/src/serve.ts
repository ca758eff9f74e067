// Serving a kernel (or any web-standard fetch handler of this repository) over node:http, with
// nothing between Node and the kernel but its two adapters: a kernel's API requests are answered
// by its serveNode, without a web Request; whatever it leaves (and any other handler) goes to
// fetch as a web Request, its Response written back (node-web.ts). Port 0 picks a free port
// (tests, bench). Malformed HTTP gets the documented error body through Node's `clientError`
// hook, not Node's bare 400/431/408, paced by a budget shared by all connections
// (client-error-pacing.ts); so do an HTTP/1.1 request without exactly one Host header (Node's own
// check answers a bare 400) and a target no web Request can hold (`*`, an authority).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Contract } from '@svc/spec-runtime';
import { startBodyWorker } from './body-offload.js';
import { pacedClientErrors } from './client-error-pacing.js';
import { keepIdleConnectionsPastTheHint } from './keep-alive.js';
import { hostProblem, malformedAnswer } from './malformed-http.js';
import type { NodeHandler } from './node-request.js';
import { webRequestOf, writeResponse } from './node-web.js';

export interface Listening {
  /** http://host:port, the host bracketed when it is IPv6. */
  url: string;
  port: number;
  close(): Promise<void>;
}

type FetchHandler = (request: Request) => Promise<Response> | Response;

export function urlOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

function answerMalformed(contract: Contract, outgoing: ServerResponse, message: string): void {
  const { status, headers, body } = malformedAnswer(contract, message);
  outgoing.writeHead(status, headers).end(body);
}

/** node:http to a fetch handler: the request as a web Request, aborted when the client hangs up first. */
function viaFetch(fetch: FetchHandler, contract: Contract, onError: (error: unknown) => void) {
  return async (incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> => {
    const hangUp = new AbortController();
    outgoing.once('close', () => outgoing.writableFinished || hangUp.abort());
    const request = webRequestOf(incoming, hangUp.signal);
    if (request === undefined)
      return answerMalformed(contract, outgoing, 'The request target or a header cannot be read as a URL request.');
    try {
      await writeResponse(await fetch(request), outgoing);
    } catch (error) {
      // A handler's bug, or a body that failed mid-way: that connection alone ends.
      if (!hangUp.signal.aborted) onError(error);
      outgoing.destroy();
    }
  };
}

function reportToStderr(error: unknown): void {
  console.error('[svc] a response could not be written:', error);
}

export function listen(
  fetch: FetchHandler,
  contract: Contract,
  port: number,
  host: string,
  serveNode: NodeHandler = () => false,
): Promise<Listening> {
  startBodyWorker(contract); // before any request: its start-up is no request's cost
  const toFetch = viaFetch(fetch, contract, reportToStderr);
  const server = createServer({ requireHostHeader: false }, (incoming, outgoing) => {
    const host = hostProblem(incoming);
    if (host !== undefined) answerMalformed(contract, outgoing, host);
    else if (!serveNode(incoming, outgoing)) void toFetch(incoming, outgoing);
  });
  server.on('clientError', pacedClientErrors(contract));
  keepIdleConnectionsPastTheHint(server);
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
