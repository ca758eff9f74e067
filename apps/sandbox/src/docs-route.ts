// Serves the built API reference (apps/docs/dist) under /docs, beside the API. Only files inside
// the given folder are served; anything else under /docs is a plain 404, never the API's error.
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

export const DOCS_PATH = '/docs';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** Wraps a fetch handler so that GET /docs and /docs/* are answered from `docsDir`. */
export function withDocs(
  handler: (request: Request) => Promise<Response>,
  docsDir: string,
): (request: Request) => Promise<Response> {
  const root = normalize(docsDir + sep);
  return async (request) => {
    const { pathname } = new URL(request.url);
    if (pathname !== DOCS_PATH && !pathname.startsWith(`${DOCS_PATH}/`)) return handler(request);
    if (pathname === DOCS_PATH) return Response.redirect(new URL(`${DOCS_PATH}/`, request.url), 301);
    if (request.method !== 'GET' && request.method !== 'HEAD') return new Response(null, { status: 405, headers: { Allow: 'GET, HEAD' } });
    try {
      const relative = decodeURIComponent(pathname.slice(DOCS_PATH.length + 1)) || 'index.html';
      const file = normalize(join(root, relative));
      if (!file.startsWith(root)) return new Response('Not found', { status: 404 });
      if (!(await stat(file)).isFile()) return new Response('Not found', { status: 404 });
      const body = request.method === 'HEAD' ? null : await readFile(file);
      return new Response(body, { headers: { 'Content-Type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' } });
    } catch {
      return new Response('Not found', { status: 404 });
    }
  };
}
