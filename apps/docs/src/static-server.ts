// A tiny static file server for dist/: used by `pnpm docs:serve` and by the browser test. Loopback
// only; GET and HEAD. @fastify/send (as the sandbox's /docs) resolves the path, refuses `..`,
// picks the Content-Type and streams the file.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import send from '@fastify/send';

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1; port 0 picks a free one. */
export async function startStaticServer(root: string, port = 0, host = '127.0.0.1'): Promise<RunningServer> {
  const server = createServer(async (request, response) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    // A request target that is no path (`//`, `//host`) is a bad request, never a crash.
    const pathname = URL.canParse(request.url ?? '/', 'http://localhost')
      ? new URL(request.url ?? '/', 'http://localhost').pathname
      : undefined;
    if (pathname === undefined) {
      response.writeHead(400).end();
      return;
    }
    // The docs are rebuilt in place; never let a browser keep a stale page.
    const { statusCode, headers, stream } = await send(request, pathname, { root, cacheControl: false });
    response.writeHead(statusCode, { ...headers, 'cache-control': 'no-cache' });
    stream.pipe(response);
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => done());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host}:${address.port}/`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
