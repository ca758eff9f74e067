import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startStaticServer } from '../src/static-server.js';

describe('static server', () => {
  let server: RunningServer;
  const root = mkdtempSync(join(tmpdir(), 'svc-docs-'));

  beforeAll(async () => {
    mkdirSync(join(root, 'site'));
    writeFileSync(join(root, 'site', 'index.html'), '<h1>docs</h1>');
    writeFileSync(join(root, 'site', 'openapi.json'), '{}');
    writeFileSync(join(root, 'secret.txt'), 'outside the root');
    server = await startStaticServer(join(root, 'site'));
  });
  afterAll(() => server.close());

  it('listens on 127.0.0.1 and serves index.html at /', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const response = await fetch(server.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await response.text()).toBe('<h1>docs</h1>');
  });

  it('serves other files with their type, and 404 for missing ones', async () => {
    const json = await fetch(new URL('openapi.json', server.url));
    expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect((await fetch(new URL('missing.html', server.url))).status).toBe(404);
  });

  it('never serves outside its root', async () => {
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt']) {
      const response = await fetch(`${server.url.slice(0, -1)}${path}`);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).toBe('Not found');
    }
  });

  it('answers a request target that starts with // as a path of its own, and goes on serving', async () => {
    // `//` once crashed the server. Read as a URL path (the kernel's), `//` is the root and
    // `//host` a file that does not exist: never a crash, never a file outside the root.
    const { port } = new URL(server.url);
    const statusOf = (path: string) =>
      new Promise<number | undefined>((resolve, reject) => {
        get({ host: '127.0.0.1', port, path }, (response) => {
          response.resume();
          resolve(response.statusCode);
        }).on('error', reject);
      });
    expect(await statusOf('//')).toBe(200);
    expect(await statusOf('//host')).toBe(404);
    expect((await fetch(server.url)).status).toBe(200);
  });

  it('answers only GET and HEAD', async () => {
    expect((await fetch(server.url, { method: 'POST' })).status).toBe(405);
    expect((await fetch(server.url, { method: 'HEAD' })).status).toBe(200);
  });
});
