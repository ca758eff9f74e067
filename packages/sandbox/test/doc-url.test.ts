// doc_url resolves: with --docs the sandbox points each error at its own /docs section; with a
// configured public docs URL, there; otherwise the contract's default.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_DOC_URL_BASE } from '@svc/spec-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsErrorUrl } from '../src/doc-url.js';
import { type RunningSandbox, startSandboxServer } from '../src/index.js';

const missingThread = (url: string) =>
  fetch(`${url}/v2/api/threads/cth-0Zz0Zz0z`, { headers: { Authorization: 'Api-Key sbx_demo_full_access' } });
const docUrlOf = async (response: Response) =>
  ((await response.json()) as { error: { code: string; doc_url: string } }).error;

describe('doc_url', () => {
  let withDocs: RunningSandbox;
  let withoutDocs: RunningSandbox;
  let configured: RunningSandbox;
  beforeAll(async () => {
    const docsDir = mkdtempSync(join(tmpdir(), 'svc-docs-'));
    writeFileSync(join(docsDir, 'index.html'), '<!doctype html><title>docs</title>');
    withDocs = await startSandboxServer({ port: 0, docsDir });
    withoutDocs = await startSandboxServer({ port: 0 });
    configured = await startSandboxServer({
      port: 0,
      docUrl: (code) => docsErrorUrl('https://docs.example.org/api/', code),
    });
  });
  afterAll(async () => Promise.all([withDocs.close(), withoutDocs.close(), configured.close()]));

  it("points at the sandbox's own /docs section of the code when it serves the docs", async () => {
    const error = await docUrlOf(await missingThread(withDocs.url));
    expect(error.code).toBe('THREAD_NOT_FOUND');
    expect(error.doc_url).toBe(`${withDocs.url}/docs/#/guide-errors/thread_not_found`);
    // The page part of it is served.
    expect((await fetch(error.doc_url)).status).toBe(200);
  });

  it('points at the configured public docs otherwise, or the contract default', async () => {
    expect((await docUrlOf(await missingThread(configured.url))).doc_url).toBe(
      'https://docs.example.org/api/#/guide-errors/thread_not_found',
    );
    expect((await docUrlOf(await missingThread(withoutDocs.url))).doc_url).toBe(
      `${DEFAULT_DOC_URL_BASE}THREAD_NOT_FOUND`,
    );
  });
});
