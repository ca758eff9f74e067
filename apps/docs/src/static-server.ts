// A tiny static file server (node:http) for dist/: used by `pnpm docs` and by the browser test.
// Loopback only; GET and HEAD; never serves outside its root.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

export interface RunningServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

export function createStaticServer(root: string): Server {
  const base = resolve(root);
  return createServer(async (request, response) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    } catch {
      response.writeHead(400).end('Bad request');
      return;
    }
    const file = resolve(base, normalize(`.${sep}${pathname}`));
    if (file !== base && !file.startsWith(base + sep)) {
      response.writeHead(403).end('Forbidden');
      return;
    }
    const target = pathname.endsWith('/') ? join(file, 'index.html') : file;
    try {
      const info = await stat(target);
      if (!info.isFile()) throw new Error('not a file');
      response.writeHead(200, {
        'content-type': CONTENT_TYPES[extname(target)] ?? 'application/octet-stream',
        'content-length': info.size,
        // The docs are rebuilt in place; never let a browser keep a stale page.
        'cache-control': 'no-cache',
      });
      if (request.method === 'HEAD') response.end();
      else createReadStream(target).pipe(response);
    } catch {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
    }
  });
}

/** Starts a server on 127.0.0.1; port 0 picks a free one. */
export async function startStaticServer(root: string, port = 0, host = '127.0.0.1'): Promise<RunningServer> {
  const server = createStaticServer(root);
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => done());
  });
  const address = server.address() as AddressInfo;
  return {
    server,
    url: `http://${host}:${address.port}/`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
