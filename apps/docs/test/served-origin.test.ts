// The reference served by a sandbox on another port than the documented one names that sandbox
// in its samples and servers panel; served from anywhere else it keeps the documented default.
import { runInNewContext } from 'node:vm';
import { startSandboxServer } from '@svc/sandbox';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundle } from '../src/load-bundle.js';
import { defaultServerUrl } from '../src/openapi.js';
import { DIST_DIR } from '../src/paths.js';
import { servedOriginScript, withServedOrigin } from '../src/served-origin.js';
import { type AbortedRequest, launchChromium, offlineContext, SKIP_BROWSER } from './support/chromium.js';

const DEFAULT = defaultServerUrl(loadBundle());
const definition = {
  servers: [{ url: DEFAULT }],
  samples: [`curl '${DEFAULT}/v2/api/users'`, `baseUrl: '${DEFAULT}'`],
};

/** What the page's script makes of the definition at this address. */
function servedAt(href: string): unknown {
  const url = new URL(href);
  const document = { getElementById: () => null };
  const window: Record<string, unknown> = { location: { origin: url.origin, pathname: url.pathname }, document };
  runInNewContext(servedOriginScript(DEFAULT), { window });
  return (window.__svcServedOrigin as (d: unknown) => unknown)(definition);
}

describe('the served-origin script', () => {
  it('names the sandbox serving the page at its /docs', () => {
    expect(JSON.stringify(servedAt('http://127.0.0.1:4567/docs/'))).not.toContain(DEFAULT);
    expect(servedAt('http://127.0.0.1:4567/docs/')).toEqual({
      servers: [{ url: 'http://127.0.0.1:4567' }],
      samples: ["curl 'http://127.0.0.1:4567/v2/api/users'", "baseUrl: 'http://127.0.0.1:4567'"],
    });
  });

  it('keeps the documented default elsewhere: the static docs server, the default sandbox itself', () => {
    expect(servedAt('http://127.0.0.1:4567/')).toEqual(definition);
    expect(servedAt(`${DEFAULT}/docs/`)).toEqual(definition);
  });

  it('is refused by the build when the page has no single Redoc hydrate call to go through', () => {
    expect(() => withServedOrigin('<html><head></head><body></body></html>', DEFAULT)).toThrow(/0 Redoc hydrate calls/);
  });
});

describe.skipIf(SKIP_BROWSER)('the reference served by a sandbox on a port of its own, in Chromium', () => {
  let browser: Browser;
  let close: () => Promise<void>;
  let origin: string;
  const aborted: AbortedRequest[] = [];

  beforeAll(async () => {
    const running = await startSandboxServer({ port: 0, host: '127.0.0.1', docsDir: DIST_DIR, rateLimit: false });
    close = () => running.close();
    origin = new URL(running.url).origin;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await close?.();
  });

  it('names that sandbox in the servers panel and in the samples, never the documented port', async () => {
    const page = await (await offlineContext(browser, [origin], aborted)).newPage();
    // Each step waits for an event; the limit only ends a hang, so it is sized for a loaded machine.
    page.setDefaultTimeout(120_000);
    await page.goto(`${origin}/docs/`, { waitUntil: 'load' });
    await page.waitForFunction(
      `Object.keys(document.getElementById('redoc') ?? {}).some((key) => key.startsWith('__react'))`,
    );
    const text = () => page.locator('#redoc').innerText();
    await expect.poll(text, { timeout: 120_000 }).toContain(`${origin}`);
    expect(await text()).not.toContain(DEFAULT);
    // Every sample Redoc holds, as the page's script handed them over.
    const html = await page.locator('#redoc').innerHTML();
    expect(html).not.toContain(DEFAULT);
  });
});
