// Serves the built API reference (apps/docs/dist) under /docs, beside the API, with
// @fastify/send, a maintained static-file handler: it streams each file (memory does not grow
// with the file or the number of slow readers), answers conditional requests (ETag and
// Last-Modified, 304) and ranges, and refuses `..` and dot files. On top of it:
// - only regular files inside the folder are served *after resolving links*: send checks the
//   path as a string, so a symbolic link inside the folder that points out of it (or a folder
//   that is one) would be followed; the onFile hook resolves the real path and refuses it;
// - Cache-Control (a short max-age: the reference changes with each build) and
//   X-Content-Type-Options: nosniff on every file;
// - redirects are relative (`/docs` -> `docs/`, a folder -> `./name/`), never built from the
//   Host header;
// - a whole file of at most 4 MiB comes from the kernel's byte-bounded FileCache (read once per
//   version, one shared buffer for every reader): 200 slow readers of the 3 MB page hold no file
//   stream each, and a full read costs no disk reads. Ranges and larger files are streamed;
// - precompressed copies: a client that accepts brotli or gzip gets `<file>.br` or `<file>.gz`
//   when the docs build wrote one (the 3 MB page is 0.66 MB in brotli), with the original's
//   Content-Type, Content-Encoding and Vary: Accept-Encoding; its ETag and Last-Modified are the
//   copy's own, so conditional requests work on either. @fastify/send has no such option, so the
//   copy is a second send of the same options (same containment check). Ranges get the original;
// - every response is sent in chunks of at most 64 KiB, each when a byte budget shared by all of
//   /docs allows it (the kernel's SharedBudget). /docs needs no key, so no rate limit held back
//   a client re-reading the 0.66 MB page without pause: about 350 MB/s over loopback, and API
//   calls beside it waited 2 to 4 times as long as on a quiet sandbox. When the budget is spent,
//   the response with the fewest bytes left goes first: in arrival order a page load queued behind
//   200 readers filling their sockets with the 3 MB page (over 2 s); shared equally it got a 201st
//   of the budget (6.7 s); by bytes left it goes before all of them.
// Anything else under /docs is a plain 404, never the API's error.
import { realpathSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import send from '@fastify/send';
import { FileCache, type Grant, SharedBudget } from '@svc/server-kernel';

export const DOCS_PATH = '/docs';
/** Seconds a browser may reuse a file of the reference before asking again (with its ETag). */
export const DOCS_MAX_AGE_SECONDS = 300;
/** What /docs may send per second in all (the comment at the top says why there is a budget). */
export const DOCS_BYTES_PER_SECOND = 16 * 1024 * 1024;

/** The most a /docs response sends per pull: the budget's unit, and the size of a file stream's reads. */
const CHUNK_BYTES = 64 * 1024;

function* slices(whole: Uint8Array): Generator<Uint8Array> {
  for (let at = 0; at < whole.byteLength; at += CHUNK_BYTES) yield whole.subarray(at, at + CHUNK_BYTES);
}

/**
 * A web stream that takes the next chunk only when the response asks for more (highWaterMark 0),
 * so a client that does not read holds one chunk in memory, not the file (Readable.toWeb of
 * Node 20 reads ahead regardless: 200 slow readers of a 3 MB page held the pages in memory), and
 * only once the byte budget of /docs allows it. A file stream's chunks are 64 KiB at most.
 */
function paced(
  chunks: Iterator<Uint8Array> | AsyncIterator<Uint8Array>,
  size: number,
  budget: SharedBudget | undefined,
  release: () => void,
): ReadableStream<Uint8Array> {
  let left = size;
  let waiting: Grant | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        // The budget first, then the read: a response waiting its turn holds no chunk.
        waiting = left > 0 ? budget?.take(Math.min(CHUNK_BYTES, left), left) : undefined;
        await waiting?.ready;
        waiting = undefined;
        const { value, done } = await chunks.next();
        if (done) return controller.close();
        left -= value.byteLength;
        controller.enqueue(value);
      },
      cancel() {
        waiting?.cancel();
        release();
      },
    },
    { highWaterMark: 0 },
  );
}

/** Precompressed copies the docs build writes beside each file, in order of preference. */
const PRECOMPRESSED = [
  ['br', '.br'],
  ['gzip', '.gz'],
] as const;

/** Whether Accept-Encoding names `coding` without q=0 (split by hand: no pattern on the header). */
export function acceptsEncoding(header: string | null, coding: string): boolean {
  for (const part of header?.split(',') ?? []) {
    const [name = '', ...params] = part.split(';');
    if (name.trim().toLowerCase() !== coding) continue;
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  }
  return false;
}

function plain(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(text, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', ...headers },
  });
}

function realFolder(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return resolve(dir); // a folder that does not exist (yet): every file is then a 404
  }
}

/** Wraps a fetch handler so that GET /docs and /docs/* are answered from `docsDir`. */
type FetchHandler = (request: Request) => Response | Promise<Response>;

export interface DocsOptions {
  /** Bytes per second that /docs may send in all (DOCS_BYTES_PER_SECOND), or false for no limit. */
  bytesPerSecond?: number | false;
}

export function withDocs(
  handler: FetchHandler,
  docsDir: string,
  { bytesPerSecond = DOCS_BYTES_PER_SECOND }: DocsOptions = {},
): FetchHandler {
  const root = realFolder(docsDir);
  const budget = bytesPerSecond === false ? undefined : new SharedBudget({ perSecond: bytesPerSecond });
  const files = new FileCache();
  const inside = root.endsWith(sep) ? root : `${root}${sep}`;
  const options = {
    root,
    index: ['index.html'],
    dotfiles: 'ignore' as const,
    maxAge: DOCS_MAX_AGE_SECONDS * 1000,
    async onFile(path: string) {
      const real = await realpath(path);
      // The real file must lie inside the real folder (the stat send made followed the links).
      if (!real.startsWith(inside)) throw new Error(`${path} lies outside the docs folder`);
    },
  };
  // Not async: an API request is handed on as it is (a synchronous answer stays synchronous).
  return (request) => {
    const url = new URL(request.url);
    const { pathname } = url;
    if (pathname !== DOCS_PATH && !pathname.startsWith(`${DOCS_PATH}/`)) return handler(request);
    return serveDocs(request, url);
  };

  async function serveDocs(request: Request, url: URL): Promise<Response> {
    const { pathname } = url;
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return plain(405, 'Method not allowed', { Allow: 'GET, HEAD' });
    // Relative to /docs, `docs/` is /docs/ on whatever host the browser asked.
    if (pathname === DOCS_PATH) return plain(301, 'Moved', { Location: `docs/${url.search}` });
    const headers = Object.fromEntries(request.headers);
    const fromFolder = (path: string) => send({ headers, method: request.method } as never, path, options);
    let result;
    try {
      result = await fromFolder(pathname.slice(DOCS_PATH.length));
    } catch {
      // A link out of the folder, or a file that vanished between stat and open.
      return plain(404, 'Not found');
    }
    if (result.type === 'error') {
      result.stream.destroy();
      return plain(
        result.statusCode === 403 || result.statusCode === 400 ? 404 : result.statusCode,
        result.statusCode === 416 ? 'Range not satisfiable' : 'Not found',
        result.statusCode === 416 ? { 'Content-Range': result.headers['Content-Range'] ?? '' } : {},
      );
    }
    if (result.type === 'directory') {
      result.stream.destroy();
      // A folder asked without its slash: its last segment plus `/`, relative to where it is.
      const segment = pathname.slice(pathname.lastIndexOf('/') + 1);
      return plain(301, 'Moved', { Location: `./${segment}/${url.search}` });
    }
    if (!result.metadata.stat.isFile()) {
      result.stream.destroy();
      return plain(404, 'Not found');
    }
    const contentType = result.headers['Content-Type'];
    const accepted = request.headers.has('range')
      ? []
      : PRECOMPRESSED.filter(([coding]) => acceptsEncoding(request.headers.get('accept-encoding'), coding));
    for (const [coding, suffix] of accepted) {
      const copy = await fromFolder(`${result.metadata.path.slice(root.length)}${suffix}`).catch(() => undefined);
      if (copy?.type === 'file' && copy.metadata.stat.isFile()) {
        result.stream.destroy();
        result = copy;
        result.headers['Content-Encoding'] = coding;
        break;
      }
      copy?.stream.destroy();
    }
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(result.headers)) responseHeaders.set(name, String(value));
    if (contentType !== undefined) responseHeaders.set('Content-Type', String(contentType));
    responseHeaders.set('X-Content-Type-Options', 'nosniff');
    responseHeaders.set('Vary', 'Accept-Encoding');
    const unread = request.method === 'HEAD' || result.statusCode === 304;
    const whole =
      !unread && result.statusCode === 200 ? await files.get(result.metadata.path, result.metadata.stat) : undefined;
    const { stream } = result;
    if (unread || whole) stream.destroy();
    const body = unread
      ? null
      : whole
        ? paced(slices(whole), whole.byteLength, budget, () => {})
        : paced(
            stream[Symbol.asyncIterator](),
            Number(result.headers['Content-Length'] ?? Number.MAX_SAFE_INTEGER),
            budget,
            () => stream.destroy(),
          );
    return new Response(body, { status: result.statusCode, headers: responseHeaders });
  }
}
