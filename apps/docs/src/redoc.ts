// Renders a docs spec to one self-contained HTML page with Redocly CLI's `build-docs`: Redoc CE 3
// embedded in the page (--inlineBundle) instead of loaded from the Redocly CDN, our page
// template, and the Redoc options below.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { CODE_SAMPLE_LANGUAGES } from './code-samples.js';
import { PACKAGE_DIR, PAGE_TEMPLATE } from './paths.js';

/** Redoc options (Redoc CE 3, passed as `--openapi`). */
export const REDOC_OPTIONS = {
  // The contract's honesty markers are shown as readable callouts in the descriptions (see
  // callouts.ts), never as raw extensions.
  showExtensions: false,
  // Redoc 3 offers only the languages listed here (its default list has no @svc/api-client).
  codeSamples: { languages: CODE_SAMPLE_LANGUAGES },
  // The published contract (not the docs copy) is what a reader should download; the build
  // writes it beside the page.
  downloadUrls: [{ title: 'OpenAPI (JSON)', url: 'openapi.json' }],
};

export interface PageOptions {
  title: string;
  description: string;
}

function redoclyCli(): string {
  // The CLI's own entry point, run with this Node: no reliance on PATH or .bin shims.
  const require = createRequire(import.meta.url);
  return join(require.resolve('@redocly/cli/package.json'), '..', 'bin', 'cli.js');
}

/** Runs build-docs; returns what it reported, minus its boxed notices. Throws on failure. */
export function renderWithRedoc(specPath: string, outputPath: string, page: PageOptions): string[] {
  const run = spawnSync(
    process.execPath,
    [
      redoclyCli(),
      'build-docs',
      specPath,
      '--inlineBundle',
      '--output',
      outputPath,
      '--title',
      page.title,
      '--template',
      PAGE_TEMPLATE,
      '--templateOptions.description',
      page.description,
      '--openapi',
      JSON.stringify(REDOC_OPTIONS),
    ],
    {
      // No redocly.yaml here: build-docs uses its defaults and the options above.
      cwd: PACKAGE_DIR,
      stdio: ['ignore', 'ignore', 'pipe'],
      encoding: 'utf8',
      // Telemetry off also turns off the page's own telemetry (Redoc's disableTelemetry option).
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  );
  if (run.status !== 0) {
    throw new Error(`redocly build-docs failed (${run.status ?? run.signal ?? run.error?.message}):\n${run.stderr}`);
  }
  // The boxed notices are about Redoc 3 and Node 20's end of life, not about these docs.
  return run.stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^[╔║╚]/.test(line));
}

// Redoc mounts an "API docs by Redocly" badge whose logo it loads from Redocly's CDN after
// hydration; offline that left an empty badge and a request to the network. The page keeps no
// remote load: the logo's address becomes an empty inline image, and the page template hides the
// badge. Should Redoc move the logo, the build's offline check reports the new address.
const REDOCLY_LOGO_URLS = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g;
/** A 1×1 transparent GIF: an image that needs no request. */
const EMPTY_IMAGE = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

/** The built page without Redoc's remote badge logo. */
export function withoutRemoteBadge(html: string): string {
  return html.replace(REDOCLY_LOGO_URLS, EMPTY_IMAGE);
}
