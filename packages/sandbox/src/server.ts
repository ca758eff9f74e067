// Serving the sandbox over HTTP (the kernel's listen: API requests straight from node:http, the
// rest, /docs included, as web Requests; the documented body for malformed HTTP; CORS for loopback origins). Port 0 picks a free port (tests, bench).
import { listen } from '@svc/server-kernel';
import { createSandbox, type Sandbox, type SandboxOptions } from './app.js';
import { withLoopbackCors } from './cors-wiring.js';
import { docsErrorUrl, servedDocsUrl } from './doc-url.js';
import { withDocs } from './docs-route.js';

export interface ServeOptions extends SandboxOptions {
  port?: number;
  host?: string;
  /** A built docs folder (apps/docs/dist) to serve under /docs; errors' doc_url then points there. */
  docsDir?: string;
  /** Bytes per second that /docs may send in all (default DOCS_BYTES_PER_SECOND), or false for no limit. */
  docsBytesPerSecond?: number | false;
}

export interface RunningSandbox {
  sandbox: Sandbox;
  url: string;
  port: number;
  close(): Promise<void>;
}

export const DEFAULT_PORT = 4010;
export const DEFAULT_HOST = '127.0.0.1';

export async function startSandboxServer(options: ServeOptions = {}): Promise<RunningSandbox> {
  // When the sandbox serves the docs, an error's doc_url is the code's section in them (the origin
  // is known once listening; no request is answered before that).
  let origin = '';
  const ownDocs = options.docsDir !== undefined && options.docUrl === undefined;
  const own = { ...options, origin: () => origin || undefined };
  const sandbox = createSandbox(
    ownDocs ? { ...own, docUrl: (code) => docsErrorUrl(servedDocsUrl(origin), code) } : own,
  );
  sandbox.contract.precompile();
  const fetch = options.docsDir
    ? withDocs(sandbox.fetch, options.docsDir, { bytesPerSecond: options.docsBytesPerSecond })
    : sandbox.fetch;
  // CORS for loopback origins (loopback-cors.ts): a console on another local port can call the API.
  const ways = withLoopbackCors(fetch, sandbox.serveNode, sandbox.contract);
  const listening = await listen(
    ways.fetch,
    sandbox.contract,
    options.port ?? DEFAULT_PORT,
    options.host ?? DEFAULT_HOST,
    ways.serveNode,
  );
  origin = listening.url;
  return { sandbox, ...listening };
}
