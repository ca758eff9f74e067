// Serving the sandbox over HTTP with @hono/node-server. Port 0 picks a free port (tests, bench).
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { answerClientError } from '@svc/spec-runtime';
import { createSandbox, type Sandbox, type SandboxOptions } from './app.js';
import { docsErrorUrl, servedDocsUrl } from './doc-url.js';
import { withDocs } from './docs-route.js';

export interface ServeOptions extends SandboxOptions {
  port?: number;
  host?: string;
  /** A built docs folder (apps/docs/dist) to serve under /docs; errors' doc_url then points there. */
  docsDir?: string;
}

export interface RunningSandbox {
  sandbox: Sandbox;
  url: string;
  port: number;
  close(): Promise<void>;
}

export const DEFAULT_PORT = 4010;
export const DEFAULT_HOST = '127.0.0.1';

export function startSandboxServer(options: ServeOptions = {}): Promise<RunningSandbox> {
  // When the sandbox serves the docs, an error's doc_url is the code's section in them (the origin
  // is known once listening; no request is answered before that).
  let origin = '';
  const ownDocs = options.docsDir !== undefined && options.docUrl === undefined;
  const sandbox = createSandbox(ownDocs ? { ...options, docUrl: (code) => docsErrorUrl(servedDocsUrl(origin), code) } : options);
  sandbox.contract.precompile();
  const host = options.host ?? DEFAULT_HOST;
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: options.docsDir ? withDocs(sandbox.fetch, options.docsDir) : sandbox.fetch, port: options.port ?? DEFAULT_PORT, hostname: host }, (info: AddressInfo) => {
      const shownHost = host.includes(':') ? `[${host}]` : host;
      origin = `http://${shownHost}:${info.port}`;
      resolve({
        sandbox,
        port: info.port,
        url: `http://${shownHost}:${info.port}`,
        close: () =>
          new Promise<void>((done, fail) => {
            if ('closeAllConnections' in server) server.closeAllConnections();
            server.close((error) => (error ? fail(error) : done()));
          }),
      });
    });
    server.once('error', reject);
    // Malformed HTTP gets the documented error body, not Node's bare 400/431/408.
    server.on('clientError', (error: NodeJS.ErrnoException, socket) => answerClientError(sandbox.contract, error, socket));
  });
}
