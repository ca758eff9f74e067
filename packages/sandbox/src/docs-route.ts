// Serves the built API reference (apps/docs/dist) under /docs, beside the API (a web route of the
// kernel: its routing sends /docs and /docs/* here, by either way in), with
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
// - a whole file of at most 4 MiB comes from a byte-bounded FileCache (file-cache.ts) (read once per
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
import { type Grant, SharedBudget, type WebRoute } from '@svc/server-kernel';
import { FileCache } from './file-cache.js';

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

export interface DocsOptions {
  /** Bytes per second that /docs may send in all (DOCS_BYTES_PER_SECOND), or false for no limit. */
  bytesPerSecond?: number | false;
  /** Where the folder is served (default /docs); '' serves it at every path (the docs server). */
  mount?: string;
  /** Seconds a browser may reuse a file before asking again with its ETag (default DOCS_MAX_AGE_SECONDS). */
  maxAgeSeconds?: number;
}

/** What serving one folder needs: where it is, send's options, the file cache and the byte budget. */
interface Folder {
  root: string;
  mount: string;
  options: SendOptions;
  files: FileCache;
  budget: SharedBudget | undefined;
}

type SendOptions = NonNullable<Parameters<typeof send>[2]>;
type SendResult = Awaited<ReturnType<typeof send>>;
type FileResult = Extract<SendResult, { type: 'file' }>;

function folderOf(docsDir: string, mount: string, maxAgeSeconds: number, bytesPerSecond: number | false): Folder {
  const root = realFolder(docsDir);
  const inside = root.endsWith(sep) ? root : `${root}${sep}`;
  const options = {
    root,
    index: ['index.html'],
    dotfiles: 'ignore' as const,
    maxAge: maxAgeSeconds * 1000,
    async onFile(path: string) {
      const real = await realpath(path);
      // The real file must lie inside the real folder (the stat send made followed the links).
      if (!real.startsWith(inside)) throw new Error(`${path} lies outside the docs folder`);
    },
  };
  const budget = bytesPerSecond === false ? undefined : new SharedBudget({ perSecond: bytesPerSecond });
  return { root, mount, options, files: new FileCache(), budget };
}

/**
 * The one static handler of the docs folder, as a web route of the kernel (GET /docs and /docs/*
 * answered from `docsDir`): the sandbox's /docs, and the docs server (apps/docs).
 */
export function docsRoute(
  docsDir: string,
  { bytesPerSecond = DOCS_BYTES_PER_SECOND, mount = DOCS_PATH, maxAgeSeconds = DOCS_MAX_AGE_SECONDS }: DocsOptions = {},
): WebRoute {
  const folder = folderOf(docsDir, mount, maxAgeSeconds, bytesPerSecond);
  return { path: mount, serve: (request) => serveDocs(folder, request, new URL(request.url)) };
}

function fromFolder(folder: Folder, request: Request, path: string): Promise<SendResult> {
  const headers = Object.fromEntries(request.headers);
  return send({ headers, method: request.method } as never, path, folder.options);
}

async function serveDocs(folder: Folder, request: Request, url: URL): Promise<Response> {
  const { pathname } = url;
  const { mount } = folder;
  if (request.method !== 'GET' && request.method !== 'HEAD')
    return plain(405, 'Method not allowed', { Allow: 'GET, HEAD' });
  // Relative to /docs, `docs/` is /docs/ on whatever host the browser asked.
  if (mount !== '' && pathname === mount)
    return plain(301, 'Moved', { Location: `${mount.slice(mount.lastIndexOf('/') + 1)}/${url.search}` });
  let result: SendResult;
  try {
    result = await fromFolder(folder, request, pathname.slice(mount.length));
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
  return fileResponse(folder, request, await precompressed(folder, request, result));
}

/** The brotli or gzip copy of a file when the client accepts it and the build wrote one, else the file. */
async function precompressed(folder: Folder, request: Request, result: FileResult): Promise<FileResult> {
  if (request.headers.has('range')) return result;
  const contentType = result.headers['Content-Type'];
  for (const [coding, suffix] of PRECOMPRESSED) {
    if (!acceptsEncoding(request.headers.get('accept-encoding'), coding)) continue;
    const path = `${result.metadata.path.slice(folder.root.length)}${suffix}`;
    const copy = await fromFolder(folder, request, path).catch(() => undefined);
    if (copy?.type === 'file' && copy.metadata.stat.isFile()) {
      result.stream.destroy();
      copy.headers['Content-Encoding'] = coding;
      // The original's Content-Type, not the copy's (application/brotli, ...).
      if (contentType !== undefined) copy.headers['Content-Type'] = contentType;
      return copy;
    }
    copy?.stream.destroy();
  }
  return result;
}

/** The file's answer: its headers, and its bytes paced by the budget (none for HEAD or a 304). */
async function fileResponse(folder: Folder, request: Request, result: FileResult): Promise<Response> {
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(result.headers)) responseHeaders.set(name, String(value));
  responseHeaders.set('X-Content-Type-Options', 'nosniff');
  responseHeaders.set('Vary', 'Accept-Encoding');
  const unread = request.method === 'HEAD' || result.statusCode === 304;
  const whole =
    !unread && result.statusCode === 200
      ? await folder.files.get(result.metadata.path, result.metadata.stat)
      : undefined;
  const { stream } = result;
  if (unread || whole) stream.destroy();
  const body = unread
    ? null
    : whole
      ? paced(slices(whole), whole.byteLength, folder.budget, () => {})
      : paced(
          stream[Symbol.asyncIterator](),
          Number(result.headers['Content-Length'] ?? Number.MAX_SAFE_INTEGER),
          folder.budget,
          () => stream.destroy(),
        );
  return new Response(body, { status: result.statusCode, headers: responseHeaders });
}
