// Debian's Chromium as the docs' browser tests drive it (playwright-core; a browser is never
// downloaded), and a context where "the network is off": only the origins given are reached,
// every other request is aborted and kept for the test to report.
import { existsSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
export const IN_CI = process.env.CI === 'true';
export const HAVE_CHROMIUM = existsSync(CHROMIUM);
/** Skip (with a message) without Chromium, except on CI, where its absence fails the test. */
export const SKIP_BROWSER = !HAVE_CHROMIUM && !IN_CI;

if (SKIP_BROWSER) {
  console.warn(
    `Skipping the browser tests: ${CHROMIUM} not found (apt-get install -y chromium). With CI=true this is a failure.`,
  );
}

export interface AbortedRequest {
  url: string;
  resourceType: string;
}

export async function launchChromium(): Promise<Browser> {
  if (!HAVE_CHROMIUM) {
    throw new Error(
      `CI=true but ${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium). The test never downloads a browser.`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** A context that reaches `origins` only; everything else is aborted and pushed to `aborted`. */
export async function offlineContext(
  browser: Browser,
  origins: readonly string[],
  aborted: AbortedRequest[],
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, serviceWorkers: 'block' });
  await context.route('**/*', (route) => {
    const request = route.request();
    if (origins.includes(new URL(request.url()).origin)) return route.continue();
    aborted.push({ url: request.url(), resourceType: request.resourceType() });
    return route.abort('internetdisconnected');
  });
  return context;
}
