import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withDocs } from '../src/docs-route.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-docs-'));
writeFileSync(join(dir, 'index.html'), '<!doctype html><title>API reference</title>');
writeFileSync(join(dir, 'openapi.json'), '{"openapi":"3.1.0"}');
const api = async () => new Response('from the API', { status: 418 });
const fetchWithDocs = withDocs(api, dir);
const get = (path: string, method = 'GET') => fetchWithDocs(new Request(`http://127.0.0.1${path}`, { method }));

describe('the /docs route of the sandbox', () => {
  it('serves the reference page and its files with their content types', async () => {
    const page = await get('/docs/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('API reference');
    expect((await get('/docs/openapi.json')).headers.get('content-type')).toBe('application/json');
  });

  it('redirects /docs to /docs/ so relative links resolve', async () => {
    const response = await get('/docs');
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('http://127.0.0.1/docs/');
  });

  it('never serves a file outside the folder', async () => {
    // Dot segments are collapsed by URL parsing already; an encoded slash is what could climb out.
    expect((await get('/docs/..%2f..%2fpackage.json')).status).toBe(404);
    expect((await get('/docs/%2e%2e/%2e%2e/package.json')).status).toBe(418);
    expect((await get('/docs/missing.html')).status).toBe(404);
    expect((await get('/docs/%E0%A4%A.html')).status).toBe(404); // a malformed escape
  });

  it('leaves every other path to the API and refuses writes', async () => {
    expect((await get('/v2/api/tags')).status).toBe(418);
    expect((await get('/docsy')).status).toBe(418);
    expect((await get('/docs/', 'POST')).status).toBe(405);
  });
});
