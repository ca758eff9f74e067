// The built docs in a real browser, with the network off: Debian's Chromium driven by
// playwright-core (never a downloaded browser). dist/ is served from 127.0.0.1; every other
// request is aborted and recorded, and the page must not have needed any of them.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_LABEL, CURL_LABEL } from '../src/code-samples.js';
import { REFERENCE_GROUP } from '../src/docs-spec.js';
import { errorCatalogue } from '../src/error-catalogue.js';
import { buildGuides, guideTagName } from '../src/guides/index.js';
import { loadBundle } from '../src/load-bundle.js';
import { listOperations } from '../src/openapi.js';
import { DIST_DIR, DOCS_HTML, PACKAGE_DIR } from '../src/paths.js';
import { startStaticServer, type RunningServer } from '../src/static-server.js';
import { unspecifiedOperations } from '../src/unspecified-operations.js';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const IN_CI = process.env.CI === 'true';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
const RESULTS_DIR = join(PACKAGE_DIR, 'test-results');

/** Resource types a page cannot render without. Any of them aborted fails the test. */
const ESSENTIAL = new Set(['document', 'script', 'stylesheet', 'font', 'fetch', 'xhr', 'eventsource', 'websocket', 'manifest']);
/**
 * The one remote load known to remain: the "API docs by Redocly" badge's logo, which Redoc's
 * script mounts after hydration and hides when it fails to load. Decorative, not needed.
 */
const DECORATIVE = [/^https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(-full)?\.svg$/];

if (!HAVE_CHROMIUM && !IN_CI) {
  console.warn(`Skipping the browser test: ${CHROMIUM} not found (apt-get install -y chromium). With CI=true this is a failure.`);
}

interface AbortedRequest {
  url: string;
  resourceType: string;
}

const bundle = loadBundle();
const operations = listOperations(bundle.paths);
const guides = buildGuides(bundle);

describe.skipIf(!HAVE_CHROMIUM && !IN_CI)('the built docs in Chromium, offline', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  const aborted: AbortedRequest[] = [];
  const pageErrors: string[] = [];

  /** The top-level entries of the navigation (a group's entries are nested inside it). */
  const menuItems = () => page.locator('[data-component-name="Menu/Menu"]').first().locator(':scope > [role="listitem"]');
  /** A heading by its visible text (Redoc's accessible names also carry "link to …"). */
  const heading = (text: string): Locator =>
    page.locator('h1, h2, h3, h4').filter({ hasText: new RegExp(`^\\s*${escapeRegExp(text)}\\s*$`) });
  const menuItem = (label: string): Locator =>
    menuItems().filter({ has: page.locator(':scope > a [data-testid="menu-item-label"]', { hasText: new RegExp(`^${escapeRegExp(label)}$`) }) });

  beforeAll(async () => {
    if (!HAVE_CHROMIUM) {
      throw new Error(`CI=true but ${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium). The test never downloads a browser.`);
    }
    if (!existsSync(DOCS_HTML)) throw new Error(`${DOCS_HTML} is missing: run \`pnpm --filter @svc/docs build\` first.`);
    mkdirSync(RESULTS_DIR, { recursive: true });

    server = await startStaticServer(DIST_DIR);
    const origin = new URL(server.url).origin;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, serviceWorkers: 'block' });
    // The network is "off": only the local server answers; everything else is aborted and kept.
    await context.route('**/*', (route) => {
      const request = route.request();
      if (new URL(request.url()).origin === origin) return route.continue();
      aborted.push({ url: request.url(), resourceType: request.resourceType() });
      return route.abort('internetdisconnected');
    });
    page = await context.newPage();
    // Each step waits for an event; the limit only ends a hang, so it is sized for a loaded machine.
    page.setDefaultTimeout(60_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));

    await page.goto(server.url, { waitUntil: 'load' });
    // The page is prerendered; Redoc's embedded script then hydrates it, which is when React
    // attaches itself to the #redoc container. Without that, nothing would be interactive.
    await page.waitForFunction(`Object.keys(document.getElementById('redoc') ?? {}).some((key) => key.startsWith('__react'))`).catch(() => {
      throw new Error(`Redoc's scripts did not run offline. Requests aborted: ${JSON.stringify(aborted)}`);
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('renders with its scripts and styles embedded: nothing needed from the network', async () => {
    await expect.poll(() => page.locator('[data-testid="search-trigger"]').isVisible()).toBe(true);
    await expect.poll(() => heading(`${bundle.info.title} (${bundle.info.version})`).first().isVisible()).toBe(true);
    await page.screenshot({ path: join(RESULTS_DIR, 'docs.png') });
    expectNothingNeeded(aborted);
    expect(pageErrors).toEqual([]);
  });

  /** Index of the first top-level entry of the reference (after its separator). */
  async function referenceStart(): Promise<number> {
    // A group's label is its link; a separator ("Guides", "API reference") is just text.
    const labels = await menuItems().evaluateAll((items) => items.map((item) => (item.querySelector(':scope > a') ?? item).textContent?.trim() ?? ''));
    const separator = labels.indexOf(REFERENCE_GROUP);
    expect(separator, `"${REFERENCE_GROUP}" in the navigation`).toBeGreaterThan(-1);
    return separator + 1;
  }

  /** Opens a reference tag in the navigation and returns its entry (the navigation keeps one open). */
  async function openTag(tagName: string): Promise<Locator> {
    const start = await referenceStart();
    const labels = await menuItems().evaluateAll((items) => items.map((item) => item.querySelector(':scope > a')?.textContent?.trim() ?? ''));
    const index = labels.indexOf(tagName, start);
    expect(index, `tag ${tagName} in the reference`).toBeGreaterThan(-1);
    const tag = menuItems().nth(index);
    if ((await tag.locator('[role="listitem"]').count()) === 0) await tag.locator(':scope > a').click();
    await expect.poll(() => tag.locator('[role="listitem"]').count(), { message: tagName }).toBeGreaterThan(0);
    return tag;
  }

  it("shows every operation's summary from the bundle, each heading its own section", async () => {
    const start = await referenceStart();
    const count = await menuItems().count();
    const seen = new Set<string>();
    // Webhooks share the navigation; the operations under `paths` are the ones checked here.
    const pathSummaries = new Set(operations.map((entry) => entry.operation.summary));
    for (let index = start; index < count; index++) {
      const tagName = (await menuItems().nth(index).locator(':scope > a').innerText()).trim();
      const tag = await openTag(tagName);
      // Its operations appear under it, labelled by summary; each opens a section headed by it.
      const summaries = await tag.locator('[role="listitem"] [data-text]').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-text') ?? ''));
      for (const summary of summaries.filter((candidate) => pathSummaries.has(candidate))) {
        await tag.locator(`[data-text="${cssString(summary)}"]`).first().click();
        await expect.poll(() => heading(summary).first().isVisible(), { message: summary }).toBe(true);
        seen.add(summary);
      }
    }
    for (const entry of operations) expect([...seen], entry.operation.operationId).toContain(entry.operation.summary);
  });

  it('shows the generated curl and @svc/api-client samples of an operation', async () => {
    // A write on a phone-number path shows the most: %2B, Idempotency-Key, a body.
    const entry = operations.find((candidate) => candidate.path.includes('{contact_number}') && candidate.method !== 'get') ?? operations[0]!;
    const summary = entry.operation.summary!;
    const tag = await openTag(entry.operation.tags![0]!);
    await tag.locator(`[data-text="${cssString(summary)}"]`).first().click();
    const section = page.locator('[data-section-id]', { has: heading(summary) }).first();
    const samples = section.locator('[data-testid="right-panel"]', { hasText: CURL_LABEL }).first();
    await expect.poll(() => samples.innerText()).toContain('-H "Authorization: Api-Key $SVC_API_KEY"');
    expect(await samples.innerText()).toContain('%2B');
    expect(await samples.innerText()).toContain('Idempotency-Key: ');
    // The language switcher offers the client sample.
    await samples.getByText(CURL_LABEL, { exact: true }).first().click();
    await page.getByText(CLIENT_LABEL, { exact: true }).last().click();
    await expect.poll(() => section.innerText()).toContain("import { createSvcClient } from '@svc/api-client';");
    await page.screenshot({ path: join(RESULTS_DIR, 'docs-operation.png') });
  });

  it('lists every error code of the catalogue under its HTTP status', async () => {
    const errorsGuide = guides.find((guide) => guide.id === 'errors')!;
    await menuItem(errorsGuide.title).locator(':scope > a').click();
    await expect.poll(() => page.url()).toMatch(new RegExp(`#/${guideTagName(errorsGuide)}$`));
    const catalogue = errorCatalogue(bundle);
    for (const status of [...new Set(catalogue.map((entry) => entry.status))]) {
      // Each status is a sub-section of the guide ("404 Not Found"); open it and read it.
      const link = menuItem(errorsGuide.title).locator('[data-text]').filter({ hasText: new RegExp(`^${status}\\b`) });
      const label = (await link.first().getAttribute('data-text'))!;
      await link.first().click();
      const section = page.locator(`[data-section-id^="/${guideTagName(errorsGuide)}/"]`, { has: heading(label) });
      await expect.poll(() => section.count(), { message: label }).toBe(1);
      // Sections render as they come into view: wait until this one lists every code it should.
      const codes = catalogue.filter((candidate) => candidate.status === status).map((entry) => entry.code);
      await expect
        .poll(async () => {
          const text = await section.innerText();
          return codes.filter((code) => !text.includes(code));
        }, { message: `codes missing under ${label}` })
        .toEqual([]);
    }
  });

  it('finds an operation with the search box', async () => {
    const entry = operations.find((candidate) => (candidate.operation.summary ?? '').split(' ').length >= 4)!;
    const summary = entry.operation.summary!;
    const query = summary.split(' ').slice(1, 4).join(' ');
    await page.locator('[data-testid="search-trigger"]').click();
    const input = page.getByPlaceholder(/search/i);
    await input.fill(query);
    const dialog = page.locator('[data-testid="search-dialog"]');
    const hit = dialog.getByText(summary, { exact: false }).first();
    await expect.poll(() => hit.isVisible(), { message: `"${query}" finds "${summary}"` }).toBe(true);
    await hit.click();
    await expect.poll(() => heading(summary).first().isVisible()).toBe(true);
  });

  it('reaches the guides from the navigation and from the overview', async () => {
    const notYetSpecified = guides.find((guide) => guide.id === 'not-yet-specified')!;
    await menuItem(notYetSpecified.title).locator(':scope > a').click();
    await expect.poll(() => page.url()).toMatch(new RegExp(`#/${guideTagName(notYetSpecified)}$`));
    const section = page.locator(`[data-section-id="/${guideTagName(notYetSpecified)}"]`);
    await expect.poll(() => section.innerText()).toContain(notYetSpecified.title);
    const firstOpen = unspecifiedOperations(bundle)[0]!;
    await menuItem(notYetSpecified.title).locator('[data-text]').first().click();
    await expect.poll(() => page.locator('main').innerText()).toContain(firstOpen.name);

    // The overview links each guide; following one lands on it.
    const authentication = guides.find((guide) => guide.id === 'authentication')!;
    await menuItems().first().locator(':scope > a').click();
    await page.locator(`main a[href="#/${guideTagName(authentication)}"]`).first().click();
    await expect.poll(() => page.url()).toMatch(new RegExp(`#/${guideTagName(authentication)}$`));
    await expect.poll(() => heading(authentication.title).first().isVisible()).toBe(true);
  });

  it('still needed nothing from the network after all of the above', () => {
    expectNothingNeeded(aborted);
    expect(pageErrors).toEqual([]);
  });
});

function expectNothingNeeded(aborted: AbortedRequest[]): void {
  const essential = aborted.filter((request) => ESSENTIAL.has(request.resourceType));
  expect(essential, 'scripts, styles, fonts or data requested from the network').toEqual([]);
  const unexpected = aborted.filter((request) => !DECORATIVE.some((pattern) => pattern.test(request.url)));
  expect(unexpected, 'remote requests other than the decorative badge logo').toEqual([]);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A value for a CSS attribute selector in double quotes. */
function cssString(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}
