import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSandbox } from '../src/app.js';
import { acceptsEncoding, docsRoute } from '../src/docs-route.js';

const base = mkdtempSync(join(tmpdir(), 'svc-docs-'));
const dir = join(base, 'dist');
const outside = join(base, 'private');
mkdirSync(dir);
mkdirSync(outside);
mkdirSync(join(dir, 'guides'));
writeFileSync(join(dir, 'index.html'), '<!doctype html><title>API reference</title>');
writeFileSync(join(dir, 'openapi.json'), '{"openapi":"3.1.0"}');
writeFileSync(join(dir, 'guides', 'index.html'), '<title>Guides</title>');
writeFileSync(join(outside, 'secret.txt'), 'not for the web');
// Precompressed copies, as the docs build writes them: the page has both, openapi.json only gzip,
// and the guides' page has a brotli "copy" that is a link out of the folder.
const PAGE = '<!doctype html><title>API reference</title>';
writeFileSync(join(dir, 'index.html.br'), brotliCompressSync(PAGE));
writeFileSync(join(dir, 'index.html.gz'), gzipSync(PAGE));
writeFileSync(join(dir, 'openapi.json.gz'), gzipSync('{"openapi":"3.1.0"}'));
writeFileSync(join(outside, 'secret.br'), brotliCompressSync('not for the web'));
symlinkSync(join(outside, 'secret.br'), join(dir, 'guides', 'index.html.br'));
// Links: one to a file outside, one to a folder outside, one to a file inside (allowed).
symlinkSync(join(outside, 'secret.txt'), join(dir, 'leak.txt'));
symlinkSync(outside, join(dir, 'private'));
symlinkSync(join(dir, 'openapi.json'), join(dir, 'spec.json'));

/** A file's ETag and Last-Modified as @fastify/send makes them: from its size and modification time. */
function validatorsOf(file: string): [string, string] {
  const { size, mtime } = statSync(file);
  return [`W/"${size.toString(16)}-${mtime.getTime().toString(16)}"`, mtime.toUTCString()];
}

// /docs is a route of the sandbox's kernel: every other path is the API's.
const sandbox = createSandbox({ docsDir: dir, rateLimit: false });
const get = async (path: string, init: RequestInit = {}) => sandbox.fetch(new Request(`http://127.0.0.1${path}`, init));
/** The API's error code of an answer (the docs route answers plain text, never the API's error). */
const apiCode = async (response: Response) => ((await response.json()) as { error: { code: string } }).error.code;

describe('the /docs route of the sandbox', () => {
  it('serves the reference page and its files with their content types', async () => {
    const page = await get('/docs/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('API reference');
    expect((await get('/docs/openapi.json')).headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('sends validators, caching and nosniff, and answers a conditional request with 304', async () => {
    const page = await get('/docs/openapi.json');
    const etag = page.headers.get('etag');
    expect([etag, page.headers.get('last-modified')]).toEqual(validatorsOf(join(dir, 'openapi.json')));
    expect(page.headers.get('cache-control')).toMatch(/max-age=\d+/);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const again = await get('/docs/openapi.json', { headers: { 'If-None-Match': etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('redirects relatively, whatever the Host header says', async () => {
    const response = await get('/docs', { headers: { Host: 'evil.example' } });
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('docs/');
    const folder = await get('/docs/guides', { headers: { Host: 'evil.example' } });
    expect(folder.status).toBe(301);
    expect(folder.headers.get('location')).toBe('./guides/');
    expect(await (await get('/docs/guides/')).text()).toContain('Guides');
  });

  it('never serves a file outside the folder, by path or through a link', async () => {
    expect((await get('/docs/leak.txt')).status).toBe(404);
    expect((await get('/docs/private/secret.txt')).status).toBe(404);
    expect((await get('/docs/spec.json')).status).toBe(200); // a link that stays inside is fine
    // Dot segments are collapsed by URL parsing already; an encoded slash is what could climb out.
    expect((await get('/docs/..%2f..%2fpackage.json')).status).toBe(404);
    expect(await apiCode(await get('/docs/%2e%2e/%2e%2e/package.json'))).toBe('ENDPOINT_NOT_FOUND');
    expect((await get('/docs/missing.html')).status).toBe(404);
    expect((await get('/docs/%E0%A4%A.html')).status).toBe(404); // a malformed escape
  });

  it('serves whole files from memory (a link swapped in later is still refused) and ranges from the file', async () => {
    writeFileSync(join(dir, 'cached.txt'), '0123456789');
    expect(await (await get('/docs/cached.txt')).text()).toBe('0123456789');
    expect(await (await get('/docs/cached.txt')).text()).toBe('0123456789'); // the cached copy
    const range = await get('/docs/cached.txt', { headers: { Range: 'bytes=2-4' } });
    expect([range.status, await range.text()]).toEqual([206, '234']);
    expect(await (await get('/docs/cached.txt', { method: 'HEAD' })).text()).toBe('');
    // Containment is checked on every request, cached or not.
    rmSync(join(dir, 'cached.txt'));
    symlinkSync(join(outside, 'secret.txt'), join(dir, 'cached.txt'));
    expect((await get('/docs/cached.txt')).status).toBe(404);
  });

  it('leaves every other path to the API and refuses writes', async () => {
    expect(await apiCode(await get('/v2/api/tags'))).toBe('UNAUTHORIZED');
    expect(await apiCode(await get('/docsy'))).toBe('ENDPOINT_NOT_FOUND');
    expect((await get('/docs/', { method: 'POST' })).status).toBe(405);
  });
});

describe('precompressed copies under /docs', () => {
  const brotli = { headers: { 'Accept-Encoding': 'gzip, deflate, br' } };

  it('sends the brotli copy to a client that accepts it, with the original type and Vary', async () => {
    const page = await get('/docs/', brotli);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-encoding')).toBe('br');
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('vary')).toBe('Accept-Encoding');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('cache-control')).toMatch(/max-age=\d+/);
    expect([page.headers.get('etag'), page.headers.get('last-modified')]).toEqual(
      validatorsOf(join(dir, 'index.html.br')),
    );
    expect(brotliDecompressSync(Buffer.from(await page.arrayBuffer())).toString()).toBe(PAGE);
    // Its own validator: a conditional request for the copy is a 304.
    const etag = page.headers.get('etag')!;
    expect(etag).not.toBe((await get('/docs/')).headers.get('etag'));
    const again = await get('/docs/', { headers: { ...brotli.headers, 'If-None-Match': etag } });
    expect([again.status, again.headers.get('vary')]).toEqual([304, 'Accept-Encoding']);
  });

  it('falls back to gzip, then to the original, and never compresses a range', async () => {
    const gzip = await get('/docs/openapi.json', brotli);
    expect([gzip.headers.get('content-encoding'), gzip.headers.get('content-type')]).toEqual([
      'gzip',
      'application/json; charset=utf-8',
    ]);
    const identity = await get('/docs/', { headers: { 'Accept-Encoding': 'br;q=0, gzip;q=0' } });
    expect([identity.headers.get('content-encoding'), await identity.text()]).toEqual([null, PAGE]);
    expect(identity.headers.get('vary')).toBe('Accept-Encoding');
    const range = await get('/docs/', { headers: { ...brotli.headers, Range: 'bytes=0-8' } });
    expect([range.status, range.headers.get('content-encoding'), await range.text()]).toEqual([206, null, '<!doctype']);
  });

  it('never sends a copy that is a link out of the folder', async () => {
    const guides = await get('/docs/guides/', brotli);
    expect([guides.status, guides.headers.get('content-encoding'), await guides.text()]).toEqual([
      200,
      null,
      '<title>Guides</title>',
    ]);
  });

  it('reads Accept-Encoding by coding name and q value', () => {
    expect(acceptsEncoding('gzip, br;q=0.5', 'br')).toBe(true);
    expect(acceptsEncoding('gzip, BR ; q=0', 'br')).toBe(false);
    expect(acceptsEncoding('gzip', 'br')).toBe(false);
    expect(acceptsEncoding(null, 'gzip')).toBe(false);
  });
});

describe('the byte budget of /docs', () => {
  // 256 KiB/s, so half a second of it (the burst) is 128 KiB: two 64 KiB chunks at once.
  const KIB = 1024;
  let paced: ReturnType<typeof docsRoute>['serve'];
  const getPaced = (path: string) => paced(new Request(`http://127.0.0.1${path}`));
  const big = Buffer.alloc(512 * KIB, 7);
  writeFileSync(join(dir, 'big.bin'), big);
  writeFileSync(join(dir, 'small.txt'), 'small');
  beforeEach(() => {
    // The budget's clock is performance.now: faked before the budget is made.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    paced = docsRoute(dir, { bytesPerSecond: 256 * KIB }).serve;
  });
  afterEach(() => vi.useRealTimers());

  /** A reader of a response body that takes whatever is ready now, never waiting for the budget. */
  function collect(response: Response) {
    const reader = response.body!.getReader();
    const chunks: Uint8Array[] = [];
    let pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
    let done = false;
    return {
      chunks,
      get done() {
        return done;
      },
      async settle() {
        // A read still pending when nothing was ready is kept for the next call: its chunk is not lost.
        for (;;) {
          pending ??= reader.read();
          const next = await Promise.race([pending, new Promise<null>((resolve) => setImmediate(() => resolve(null)))]);
          if (next === null) return this;
          pending = undefined;
          if (next.done) {
            done = true;
            return this;
          }
          chunks.push(next.value);
        }
      },
      cancel: () => reader.cancel(),
    };
  }

  it('sends a file whole in chunks of at most 64 KiB, past the burst at the budget rate', async () => {
    const response = await getPaced('/docs/big.bin');
    expect(response.headers.get('content-length')).toBe(String(big.length));
    const body = await collect(response).settle();
    expect(body.chunks.map((c) => c.length)).toEqual([64 * KIB, 64 * KIB]);
    await vi.advanceTimersByTimeAsync(249); // the next 64 KiB take 250 ms at 256 KiB/s
    expect((await body.settle()).chunks).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect((await body.settle()).chunks).toHaveLength(3);
    for (let chunk = 4; chunk <= 8; chunk++) {
      await vi.advanceTimersByTimeAsync(250);
      await body.settle();
    }
    expect(body.done).toBe(true);
    expect(Buffer.concat(body.chunks).equals(big)).toBe(true);
  });

  it('serves a small file before the rest of a large one, and forgets a reader that hung up', async () => {
    const large = await collect(await getPaced('/docs/big.bin')).settle(); // the burst is spent
    const hungUp = await collect(await getPaced('/docs/big.bin')).settle(); // waits for its first chunk
    const small = await collect(await getPaced('/docs/small.txt')).settle();
    await hungUp.cancel();
    await vi.advanceTimersByTimeAsync(1); // 5 bytes of budget, at 256 KiB/s
    expect((await small.settle()).done).toBe(true);
    expect(Buffer.concat(small.chunks).toString()).toBe('small');
    expect((await large.settle()).chunks).toHaveLength(2);
    expect(hungUp.chunks).toHaveLength(0);
    // The one that hung up had less left than the large one: gone, it takes nothing, and the
    // large one's third chunk comes as soon as 64 KiB are back.
    await vi.advanceTimersByTimeAsync(250);
    expect((await large.settle()).chunks).toHaveLength(3);
    await large.cancel();
  });
});
