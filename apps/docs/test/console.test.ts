// The console in Chromium with the network off: every documented operation sent from the page
// where it is documented (its section's "Test Request", then Send) to a fresh sandbox, the answer
// shown with its status, headers and body. All 26 from the sandbox's own /docs (same origin); then
// one operation of each method from the docs server of `pnpm docs:serve`, with the sandbox on
// another port (CORS: each method and the headers it sends preflighted). Each request off the
// page's origin is aborted, the sandbox's API alone excepted in the second run.
import { join } from 'node:path';
import { type RunningSandbox, startSandboxServer } from '@svc/sandbox';
import { headerNamesOf } from '@svc/spec-runtime/walk';
import type { Browser, Locator, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_LINK_TEXT, consoleHref, referenceLink } from '../src/console/links.js';
import { CONSOLE_PAGE, SERVER_PARAMETER } from '../src/console/page.js';
import { loadBundle } from '../src/load-bundle.js';
import { asJson, listOperations, type OperationEntry } from '../src/openapi.js';
import { DIST_DIR, PACKAGE_DIR } from '../src/paths.js';
import { type RunningServer, startStaticServer } from '../src/static-server.js';
import { ENTRY_PAGES } from '../src/weight.js';
import { type AbortedRequest, launchChromium, offlineContext, SKIP_BROWSER } from './support/chromium.js';

const RESULTS_DIR = join(PACKAGE_DIR, 'test-results');
const bundle = loadBundle();
const operations = listOperations(bundle);
const names = headerNamesOf(asJson(bundle));

/** The statuses an operation documents, and its successes (`2XX` read as a range). */
function documented(entry: OperationEntry): { all: string[]; success: string[] } {
  const all = Object.keys(entry.operation.responses ?? {});
  return { all, success: all.filter((key) => key.startsWith('2')) };
}

function isListed(status: number, keys: string[]): boolean {
  return keys.some((key) => key === String(status) || key === `${String(status)[0]}XX` || key === 'default');
}

interface Setup {
  /** The console's address, and the origins the browser may reach. */
  pageUrl: string;
  origins: string[];
  sandbox: RunningSandbox;
  close(): Promise<void>;
}

/** One operation of each method: what the CORS run sends (each method and its headers preflighted). */
const ONE_PER_METHOD = [...new Map(operations.map((entry) => [entry.method, entry])).values()];

const SETUPS: { name: string; start: () => Promise<Setup>; sent: OperationEntry[] }[] = [
  {
    name: "the sandbox's own /docs",
    async start() {
      const sandbox = await startSandboxServer({ port: 0, docsDir: DIST_DIR });
      const origin = new URL(sandbox.url).origin;
      return { pageUrl: `${origin}/docs/${CONSOLE_PAGE}`, origins: [origin], sandbox, close: sandbox.close };
    },
    sent: operations,
  },
  {
    name: 'pnpm docs:serve, the sandbox on another port (CORS)',
    async start() {
      const sandbox = await startSandboxServer({ port: 0 });
      const docs: RunningServer = await startStaticServer(DIST_DIR);
      const server = encodeURIComponent(new URL(sandbox.url).origin);
      return {
        pageUrl: `${docs.url}${CONSOLE_PAGE}?${SERVER_PARAMETER}=${server}`,
        origins: [new URL(docs.url).origin, new URL(sandbox.url).origin],
        sandbox,
        close: async () => {
          await docs.close();
          await sandbox.close();
        },
      };
    },
    sent: ONE_PER_METHOD,
  },
];

describe.skipIf(SKIP_BROWSER).each(SETUPS)('the console from $name, offline', ({ name, start, sent }) => {
  let setup: Setup;
  let browser: Browser;
  let page: Page;
  const aborted: AbortedRequest[] = [];
  const pageErrors: string[] = [];
  const fetched: string[] = [];
  let apiFolder: string;

  beforeAll(async () => {
    setup = await start();
    apiFolder = `${new URL(setup.sandbox.url).origin}/v2/api/`;
    browser = await launchChromium();
    const context = await offlineContext(browser, setup.origins, aborted);
    page = await context.newPage();
    page.setDefaultTimeout(60_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('request', (request) => fetched.push(request.url()));
    await page.goto(setup.pageUrl, { waitUntil: 'load' });
  });

  afterAll(async () => {
    await browser?.close();
    await setup?.close();
  });

  it('loads the console with the demo key filled in, fetching only what the weight counts', async () => {
    await expect.poll(() => page.getByRole('button', { name: /Test Request/ }).count()).toBeGreaterThan(0);
    const pageOrigin = new URL(setup.pageUrl).origin;
    const files = fetched
      .filter((url) => new URL(url).origin === pageOrigin)
      .map((url) => new URL(url).pathname.split('/').pop());
    const counted = ENTRY_PAGES.find((entry) => entry.page === CONSOLE_PAGE)!;
    expect(new Set(files)).toEqual(new Set([counted.page, ...counted.loads]));
    expect(aborted).toEqual([]);
  });

  /**
   * Escape, then the dialog gone: a Test Request pressed while the last dialog is still closing is
   * lost (Scalar's modal ignores it), which a busy machine made happen about once in a hundred.
   */
  async function closeDialog(): Promise<void> {
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
  }

  /** Opens an operation's section by its console address, presses Test Request, then Send; returns the answer. */
  async function send(entry: OperationEntry): Promise<{ response: Response; dialog: Locator }> {
    const hash = consoleHref(entry).slice(consoleHref(entry).indexOf('#'));
    await page.evaluate((target) => {
      window.location.hash = target;
    }, hash);
    await page
      .locator(`section[id$="/${hash.slice(1)}"]`)
      .getByRole('button', { name: /Test Request/ })
      .click();
    const dialog = page.getByRole('dialog');
    const answered = page.waitForResponse(
      (response) => response.url().startsWith(apiFolder) && response.request().method() !== 'OPTIONS',
    );
    await dialog
      .getByRole('button', { name: /^Send\b/ })
      .first()
      .click();
    const response = await answered;
    // The console shows the status it got.
    await expect
      .poll(() => dialog.locator('a[href*="/HTTP/Status/"]').first().innerText())
      .toMatch(new RegExp(`^${response.status()}\\b`));
    return { response, dialog };
  }

  it.each(sent.map((entry) => ({ id: entry.operation.operationId!, entry })))(
    'sends $id from its section and gets a documented success',
    async ({ entry }) => {
      // A fresh sandbox for each operation: the example of one never stands in another's way.
      setup.sandbox.sandbox.reset();
      const { response } = await send(entry);
      const { all, success } = documented(entry);
      const status = response.status();
      expect(isListed(status, success), `${status} of ${entry.operation.operationId} is a documented success`).toBe(
        true,
      );
      expect(isListed(status, all)).toBe(true);
      expect(response.request().headers().authorization).toMatch(/^Api-Key \S+$/);
      await closeDialog();
    },
  );

  it('shows the answer with its response headers and body', async () => {
    setup.sandbox.sandbox.reset();
    const entry = sent[0]!;
    const { response, dialog } = await send(entry);
    await dialog.getByText(/^Response Headers/).click();
    const requestId = response.headers()[names.requestId.toLowerCase()]!;
    await expect.poll(() => dialog.getByText(requestId).count()).toBeGreaterThan(0);
    const member = Object.keys((await response.json()) as object)[0]!;
    await expect.poll(() => dialog.innerText()).toContain(`"${member}"`);
    await closeDialog();
  });

  it('needed nothing from the network, and only the API of the sandbox beside the page', async () => {
    await page.screenshot({ path: join(RESULTS_DIR, `console-${name.startsWith('pnpm') ? 'cors' : 'sandbox'}.png`) });
    expect(aborted).toEqual([]);
    expect(pageErrors).toEqual([]);
    const pageOrigin = new URL(setup.pageUrl).origin;
    const elsewhere = fetched.filter((url) => new URL(url).origin !== pageOrigin);
    expect(elsewhere.every((url) => url.startsWith(apiFolder))).toBe(true);
  });
});

describe.skipIf(SKIP_BROWSER)('the reference links every operation to the console', () => {
  let docs: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    docs = await startStaticServer(DIST_DIR);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await docs?.close();
  });

  it("follows an operation's link from the reference to its section in the console", async () => {
    const aborted: AbortedRequest[] = [];
    const context = await offlineContext(browser, [new URL(docs.url).origin], aborted);
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    const entry = operations.find((candidate) => candidate.operation.operationId === 'createThread') ?? operations[0]!;
    await page.goto(`${docs.url}#operation/${entry.operation.operationId}`, { waitUntil: 'load' });
    // The operation's section holds its link (Redoc renders each operation's description in it).
    const link = page.locator(`a[href="${referenceLink(entry)}"]`, { hasText: CONSOLE_LINK_TEXT }).first();
    await expect.poll(() => link.isVisible()).toBe(true);
    await link.click();
    // The address is what the link decides; the console's load (a few MB of script) is waited for by
    // the poll below, which a busy machine may take long to satisfy.
    await page.waitForURL((url) => url.pathname.endsWith(`/${CONSOLE_PAGE}`), { waitUntil: 'commit' });
    const hash = consoleHref(entry).slice(consoleHref(entry).indexOf('#') + 1);
    await expect
      .poll(() => page.locator(`section[id$="/${hash}"]`).getByText(entry.operation.summary!).first().isVisible(), {
        timeout: 120_000,
      })
      .toBe(true);
    expect(aborted).toEqual([]);
  });
});
