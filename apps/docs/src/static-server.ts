// The static server of dist/: used by `pnpm docs:serve` and by the browser test. Loopback only. The
// files are served by the sandbox's docs handler (the one static handler of the docs folder:
// @fastify/send, `..` and links out of the folder refused, GET and HEAD only), mounted at the
// root and revalidated on every load (the docs are rebuilt in place: never a stale page), over
// the kernel's node:http server.
import { docsRoute } from '@svc/sandbox';
import { bundledContract, listen } from '@svc/server-kernel';

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1; port 0 picks a free one. */
export async function startStaticServer(root: string, port = 0, host = '127.0.0.1'): Promise<RunningServer> {
  const files = docsRoute(root, { mount: '', maxAgeSeconds: 0, bytesPerSecond: false });
  const running = await listen(files.serve, bundledContract(), port, host);
  return { url: `${running.url}/`, close: running.close };
}
