// Serving the sandbox over HTTP (the kernel's listen: API requests straight from node:http, the
// rest, /docs included, as web Requests; the documented body for malformed HTTP). Port 0 picks a
// free port (tests, bench).
import { listen } from '@svc/server-kernel';
import { createSandbox, type Sandbox, type SandboxOptions } from './app.js';
import { docsErrorUrl, servedDocsUrl } from './doc-url.js';

export interface ServeOptions extends SandboxOptions {
  port?: number;
  host?: string;
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
  const listening = await listen(
    sandbox.fetch,
    sandbox.contract,
    options.port ?? DEFAULT_PORT,
    options.host ?? DEFAULT_HOST,
    sandbox.serveNode,
  );
  origin = listening.url;
  return { sandbox, ...listening };
}
