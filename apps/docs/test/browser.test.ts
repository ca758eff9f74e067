// The built docs in a real browser, with the network off: Debian's Chromium driven by
// playwright-core (never a downloaded browser). dist/ is served from 127.0.0.1; every other
// request is aborted and recorded, and the page must not have needed any of them.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { docsErrorUrl } from '@svc/sandbox';
import { readUnspecifiedOperations } from '@svc/spec-runtime/facts';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_LABEL, CURL_LABEL } from '../src/code-samples.js';
import { REFERENCE_GROUP } from '../src/docs-spec.js';
import { errorCatalogue } from '../src/error-catalogue.js';
import { buildGuides, guideTagName } from '../src/guides/index.js';
import { loadBundle } from '../src/load-bundle.js';
import { asJson, listOperations } from '../src/openapi.js';
import { DIST_DIR, DOCS_HTML, PACKAGE_DIR } from '../src/paths.js';
import { type RunningServer, startStaticServer } from '../src/static-server.js';
import { type AbortedRequest, launchChromium, offlineContext, SKIP_BROWSER } from './support/chromium.js';

const RESULTS_DIR = join(PACKAGE_DIR, 'test-results');

/** Resource types a page cannot render without. Any of them aborted fails the test. */
const ESSENTIAL = new Set([
  'document',
  'script',
  'stylesheet',
  'font',
  'fetch',
  'xhr',
  'eventsource',
  'websocket',
  'manifest',
]);
const bundle = loadBundle();
const operations = listOperations(bundle);
const guides = buildGuides(bundle);

describe.skipIf(SKIP_BROWSER)('the built docs in Chromium, offline', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  const aborted: AbortedRequest[] = [];
  const pageErrors: string[] = [];

  /** The top-level entries of the navigation (a group's entries are nested inside it). */
  const menuItems = () =>
    page.locator('[data-component-name="Menu/Menu"]').first().locator(':scope > [role="listitem"]');
  /** A heading by its visible text (Redoc's accessible names also carry "link to …"). */
  const heading = (text: string): Locator =>
    page.locator('h1, h2, h3, h4').filter({ hasText: new RegExp(`^\\s*${escapeRegExp(text)}\\s*$`) });
  const menuItem = (label: string): Locator =>
    menuItems().filter({
      has: page.locator(':scope > a [data-testid="menu-item-label"]', {
        hasText: new RegExp(`^${escapeRegExp(label)}$`),
      }),
    });

  beforeAll(async () => {
    if (!existsSync(DOCS_HTML))
      throw new Error(`${DOCS_HTML} is missing: run \`pnpm --filter @svc/docs build\` first.`);
    mkdirSync(RESULTS_DIR, { recursive: true });

    server = await startStaticServer(DIST_DIR);
    const origin = new URL(server.url).origin;
    browser = await launchChromium();
    // The network is "off": only the local server answers; everything else is aborted and kept.
    const context = await offlineContext(browser, [origin], aborted);
    page = await context.newPage();
    // Each step waits for an event; the limit only ends a hang, so it is sized for a loaded machine.
    page.setDefaultTimeout(60_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));

    await page.goto(server.url, { waitUntil: 'load' });
    // The page is prerendered; Redoc's embedded script then hydrates it, which is when React
    // attaches itself to the #redoc container. Without that, nothing would be interactive.
    await page
      .waitForFunction(`Object.keys(document.getElementById('redoc') ?? {}).some((key) => key.startsWith('__react'))`)
      .catch(() => {
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
    const labels = await menuItems().evaluateAll((items) =>
      items.map((item) => (item.querySelector(':scope > a') ?? item).textContent?.trim() ?? ''),
    );
    const separator = labels.indexOf(REFERENCE_GROUP);
    expect(separator, `"${REFERENCE_GROUP}" in the navigation`).toBeGreaterThan(-1);
    return separator + 1;
  }

  /** Opens a reference tag in the navigation and returns its entry (the navigation keeps one open). */
  async function openTag(tagName: string): Promise<Locator> {
    const start = await referenceStart();
    const labels = await menuItems().evaluateAll((items) =>
      items.map((item) => item.querySelector(':scope > a')?.textContent?.trim() ?? ''),
    );
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
      const summaries = await tag
        .locator('[role="listitem"] [data-text]')
        .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-text') ?? ''));
      for (const summary of summaries.filter((candidate) => pathSummaries.has(candidate))) {
        await tag
          .locator(`[data-text="${cssString(summary)}"]`)
          .first()
          .click();
        await expect.poll(() => heading(summary).first().isVisible(), { message: summary }).toBe(true);
        seen.add(summary);
      }
    }
    for (const entry of operations) expect([...seen], entry.operation.operationId).toContain(entry.operation.summary);
  });

  it('shows the generated curl and @svc/api-client samples of an operation', async () => {
    // A write on a phone-number path shows the most: %2B, Idempotency-Key, a body.
    const entry =
      operations.find((candidate) => candidate.path.includes('{contact_number}') && candidate.method !== 'get') ??
      operations[0]!;
    const summary = entry.operation.summary!;
    const tag = await openTag(entry.operation.tags![0]!);
    await tag
      .locator(`[data-text="${cssString(summary)}"]`)
      .first()
      .click();
    const section = page.locator('[data-section-id]', { has: heading(summary) }).first();
    const samples = section.locator('[data-testid="right-panel"]', { hasText: CURL_LABEL }).first();
    // Redoc may render the panel again while it settles (sooner or later on a busy machine): read
    // it until it shows the whole sample.
    for (const part of ['-H "Authorization: Api-Key $SVC_API_KEY"', '%2B', 'Idempotency-Key: '])
      await expect.poll(() => samples.innerText(), { message: part }).toContain(part);
    // The language switcher offers the client sample.
    await samples.getByText(CURL_LABEL, { exact: true }).first().click();
    await page.getByText(CLIENT_LABEL, { exact: true }).last().click();
    await expect.poll(() => section.innerText()).toContain("import { createSvcClient } from '@svc/api-client';");
    await page.screenshot({ path: join(RESULTS_DIR, 'docs-operation.png') });
  });

  it("follows every code's doc_url, as the sandbox serving these docs writes it, to the code's own section", async () => {
    const catalogue = errorCatalogue(bundle);
    const pageUrl = `${server.url}/`;
    for (const entry of catalogue) {
      const docUrl = docsErrorUrl(pageUrl, entry.code);
      // The page part is this page; the fragment is Redoc's route to the code's section.
      expect(docUrl.slice(0, docUrl.indexOf('#'))).toBe(pageUrl);
      await page.evaluate((hash) => {
        window.location.hash = hash;
      }, new URL(docUrl).hash);
      const section = page.locator(`[data-section-id="/guide-errors/${entry.code.toLowerCase()}"]`);
      await expect.poll(() => section.count(), { message: entry.code }).toBe(1);
      await expect.poll(() => heading(entry.code).first().isVisible(), { message: entry.code }).toBe(true);
      // Landed on it: the section's top is within the viewport.
      await expect
        .poll(
          async () => {
            const box = await section.boundingBox();
            return box !== null && box.y > -box.height && box.y < (page.viewportSize()?.height ?? 0);
          },
          { message: `${entry.code} scrolled into view` },
        )
        .toBe(true);
      // Redoc fills a section after scrolling to it; on a busy machine that can trail the scroll.
      await expect.poll(() => section.innerText(), { message: `${entry.code} section text` }).toContain(entry.type);
    }
    await page.screenshot({ path: join(RESULTS_DIR, 'docs-error-code.png') });
  });

  /** A page opened at a deep link, as a reader's browser opens one: the link is the first load. */
  const DEEP_LINKS = (() => {
    const entry = operations.find((candidate) => candidate.operation.operationId === 'createThread') ?? operations[0]!;
    const code = errorCatalogue(bundle)[0]!.code;
    return [
      { kind: 'operation', hash: `#operation/${entry.operation.operationId}`, heading: entry.operation.summary! },
      { kind: 'tag', hash: `#tag/${entry.operation.tags![0]!}`, heading: entry.operation.tags![0]! },
      { kind: 'error-code', hash: new URL(docsErrorUrl('http://docs.invalid/', code)).hash, heading: code },
    ];
  })();

  it.each(DEEP_LINKS)(
    'renders the section a $kind deep link names, in view ($hash)',
    async ({ kind, hash, heading: text }) => {
      const reader = await page.context().newPage();
      reader.setDefaultTimeout(60_000);
      reader.on('pageerror', (error) => pageErrors.push(error.message));
      try {
        await reader.goto(`${server.url}${hash}`, { waitUntil: 'load' });
        const target = reader
          .locator('h1, h2, h3, h4')
          .filter({ hasText: new RegExp(`^\\s*${escapeRegExp(text)}\\s*$`) })
          .first();
        // Redoc scrolls to the section once it has rendered it: wait for the heading to be painted
        // in the viewport, topmost at its own centre (not covered, not off-screen), then take the picture.
        const paintedInView = () =>
          target.evaluate((element) => {
            const box = element.getBoundingClientRect();
            if (box.height === 0 || box.bottom <= 0 || box.top >= window.innerHeight) return false;
            const hit = document.elementFromPoint(box.left + Math.min(box.width / 2, 40), box.top + box.height / 2);
            return hit !== null && (hit === element || element.contains(hit));
          });
        await expect.poll(paintedInView, { message: `${kind}: "${text}" painted in view` }).toBe(true);
        await reader.screenshot({ path: join(RESULTS_DIR, `docs-deep-link-${kind}.png`) });
        // The picture is of that section: still in view once taken, and the badge is gone.
        expect(await paintedInView()).toBe(true);
        expect(await reader.locator('body').innerText()).not.toContain('API docs by');
      } finally {
        await reader.close();
      }
    },
  );

  it('shows the honesty markers as readable callouts, never as raw extension names', async () => {
    const webhooks = guides.find((guide) => guide.id === 'webhooks')!;
    await menuItem(webhooks.title).first().locator(':scope > a').click();
    // The first event's section (Redoc routes `## CALL_RECEIVED` as /guide-webhooks/call_received).
    const event = Object.keys(bundle.webhooks ?? {})[0]!.toLowerCase();
    await page.evaluate(
      (hash) => {
        window.location.hash = hash;
      },
      `#/${guideTagName(webhooks)}/${event}`,
    );
    // Its sub-sections (### headings are sections of their own) render as they come into view:
    // visit each, and read them all.
    const prefix = `/${guideTagName(webhooks)}/`;
    await expect.poll(() => page.locator(`[data-section-id="${prefix}${event}"]`).count()).toBe(1);
    // Sections render as they come into view (later on a busy machine), and the list of them may
    // still be growing when first read: each attempt reads the list anew and visits every section.
    const readSections = async (): Promise<string> => {
      const ids = await page
        .locator(`[data-section-id^="${prefix}"]`)
        .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-section-id') ?? ''));
      const texts: string[] = [];
      for (const id of ids) {
        await page.evaluate((hash) => {
          window.location.hash = hash;
        }, `#${id}`);
        const section = page.locator(`[data-section-id="${id}"]`);
        await expect.poll(async () => (await section.innerText()).trim().length).toBeGreaterThan(0);
        texts.push(await section.innerText());
      }
      return texts.join('\n');
    };
    await expect
      .poll(readSections, { message: 'the webhook guide, section by section' })
      .toContain('Not specified by the API description:');
    await page.screenshot({ path: join(RESULTS_DIR, 'docs-callout.png') });
    const text = await page.locator('body').innerText();
    // Redoc prints a shown extension as "svc-unspecified: …" (its name without "x-"). Prose that
    // names the extension (`x-svc-unspecified`, in the contract's own explanations) is not that.
    expect(text.match(/(?:^|[^-\w])svc-(?:unspecified|ambiguity|inferred):/gm) ?? []).toEqual([]);
    expect(text).toContain('signature');
  });

  it('offers the local sandbox in the servers panel', async () => {
    await menuItems().first().locator(':scope > a').click();
    await expect.poll(() => page.locator('body').innerText()).toContain('The local sandbox');
    expect(await page.locator('body').innerText()).toContain('http://localhost:4010');
  });

  it.each([1280, 1440, 1600, 1920])(
    'holds its layout at %i px: no sideways scrolling, no word broken in a title',
    async (width) => {
      await page.setViewportSize({ width, height: 1000 });
      await menuItems().first().locator(':scope > a').click();
      const title = heading(`${bundle.info.title} (${bundle.info.version})`).first();
      await expect.poll(() => title.isVisible()).toBe(true);
      const layout = await page.evaluate(() => {
        const h1 = document.querySelector('h1');
        // A word split over two lines has two client rects.
        const brokenWords: string[] = [];
        const text = h1?.firstChild?.nodeType === Node.TEXT_NODE ? (h1.firstChild as Text) : undefined;
        if (text) {
          const range = document.createRange();
          let start = 0;
          for (const word of (text.textContent ?? '').split(' ')) {
            range.setStart(text, start);
            range.setEnd(text, start + word.length);
            if (word && range.getClientRects().length > 1) brokenWords.push(word);
            start += word.length + 1;
          }
        }
        return {
          scrollWidth: document.documentElement.scrollWidth,
          innerWidth: window.innerWidth,
          checkedTitle: Boolean(text),
          brokenWords,
        };
      });
      expect(layout.checkedTitle).toBe(true);
      expect(layout.brokenWords).toEqual([]);
      expect(layout.scrollWidth).toBeLessThanOrEqual(layout.innerWidth);
      await page.screenshot({ path: join(RESULTS_DIR, `docs-${width}px.png`) });
      await page.setViewportSize({ width: 1400, height: 900 });
    },
  );

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
    const firstOpen = readUnspecifiedOperations(asJson(bundle))[0]!;
    await menuItem(notYetSpecified.title).locator('[data-text]').first().click();
    await expect.poll(() => page.locator('main').innerText()).toContain(firstOpen.name);

    // The overview links each guide; following one lands on it.
    const authentication = guides.find((guide) => guide.id === 'authentication')!;
    await menuItems().first().locator(':scope > a').click();
    await page
      .locator(`main a[href="#/${guideTagName(authentication)}"]`)
      .first()
      .click();
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
  // Offline means offline: not even a decorative image (Redoc's badge logo used to be one).
  expect(aborted, 'requests to anywhere but the local server').toEqual([]);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A value for a CSS attribute selector in double quotes. */
function cssString(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}
