import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withDocs } from '../src/docs-route.js';

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
// Links: one to a file outside, one to a folder outside, one to a file inside (allowed).
symlinkSync(join(outside, 'secret.txt'), join(dir, 'leak.txt'));
symlinkSync(outside, join(dir, 'private'));
symlinkSync(join(dir, 'openapi.json'), join(dir, 'spec.json'));

const api = async () => new Response('from the API', { status: 418 });
const fetchWithDocs = withDocs(api, dir);
const get = (path: string, init: RequestInit = {}) => fetchWithDocs(new Request(`http://127.0.0.1${path}`, init));

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
    expect(etag).toBeTruthy();
    expect(page.headers.get('last-modified')).toBeTruthy();
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
    expect((await get('/docs/%2e%2e/%2e%2e/package.json')).status).toBe(418);
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
    expect((await get('/v2/api/tags')).status).toBe(418);
    expect((await get('/docsy')).status).toBe(418);
    expect((await get('/docs/', { method: 'POST' })).status).toBe(405);
  });
});
