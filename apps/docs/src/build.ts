// `pnpm build`: the docs copy of the bundle (generated code samples and guides) in
// dist/openapi.docs.json, rendered by Redocly build-docs into one self-contained
// dist/index.html, then checked for anything the page would fetch from the network. The published
// bundle is copied beside it as dist/openapi.json (the page's download link).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { makeDocsSpec } from './docs-spec.js';
import { bundlePath, loadBundle } from './load-bundle.js';
import { oneLine } from './markdown.js';
import { findExternalLoads } from './offline-check.js';
import { listOperations } from './openapi.js';
import { DIST_DIR, DOCS_HTML, DOCS_SPEC, PACKAGE_DIR } from './paths.js';
import { renderWithRedoc } from './redoc.js';

const bundle = loadBundle();
const { spec, guides } = makeDocsSpec(bundle);

rmSync(DIST_DIR, { recursive: true, force: true });
mkdirSync(DIST_DIR, { recursive: true });
writeFileSync(DOCS_SPEC, `${JSON.stringify(spec, null, 2)}\n`);
writeFileSync(join(DIST_DIR, 'openapi.json'), readFileSync(bundlePath()));

const report = renderWithRedoc(DOCS_SPEC, DOCS_HTML, {
  title: `${spec.info.title} — reference and guides`,
  description: oneLine(spec.info.summary as string | undefined) || spec.info.title,
});
for (const line of report) console.log(`build-docs: ${line}`);

const html = readFileSync(DOCS_HTML, 'utf8');
const external = findExternalLoads(html);
if (external.length > 0) {
  throw new Error(`${relative(PACKAGE_DIR, DOCS_HTML)} would load from the network:\n${external.map((load) => `  ${load.kind}: ${load.url}`).join('\n')}`);
}
if (!html.includes('"disableTelemetry":true')) throw new Error('The page was built with Redoc telemetry on');

console.log(
  `docs: ${relative(PACKAGE_DIR, DOCS_HTML)} (${Math.round(Buffer.byteLength(html) / 1024)} KiB, self-contained): ` +
    `${listOperations(spec).length} operations with code samples, ${guides.length} guides`,
);
