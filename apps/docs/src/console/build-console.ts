// Writes the console beside the reference: its page, Scalar's standalone script copied from the
// installed @scalar/api-reference (served from the docs' own folder, never a CDN) and its copy of
// the bundle. Fails if the page would load anything from the network.
import { copyFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { oneLine } from '../markdown.js';
import { findExternalLoads } from '../offline-check.js';
import type { OpenApiDocument } from '../openapi.js';
import { consoleConfiguration } from './configuration.js';
import { makeConsoleSpec } from './console-spec.js';
import { consoleRoutes } from './links.js';
import { CONSOLE_PAGE, CONSOLE_SCRIPT, CONSOLE_SPEC, consolePage } from './page.js';

/** Scalar's standalone browser bundle, as the installed package ships it. */
export function scalarStandalonePath(): string {
  return createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js');
}

export function buildConsole(bundle: OpenApiDocument, distDir: string, referenceHref: string): string {
  writeFileSync(join(distDir, CONSOLE_SPEC), JSON.stringify(makeConsoleSpec(bundle)));
  copyFileSync(scalarStandalonePath(), join(distDir, CONSOLE_SCRIPT));
  const html = consolePage({
    title: `${bundle.info.title} — console`,
    description: oneLine((bundle.info as { summary?: string }).summary) || bundle.info.title,
    referenceHref,
    configuration: consoleConfiguration(bundle, CONSOLE_SPEC),
    routes: consoleRoutes(bundle),
  });
  const external = findExternalLoads(html);
  if (external.length > 0)
    throw new Error(
      `${CONSOLE_PAGE} would load from the network:\n${external.map((load) => `  ${load.kind}: ${load.url}`).join('\n')}`,
    );
  writeFileSync(join(distDir, CONSOLE_PAGE), html);
  return html;
}
