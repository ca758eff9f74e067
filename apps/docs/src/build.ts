// `pnpm build`: the docs copy of the bundle (generated code samples and guides) in
// dist/openapi.docs.json, rendered by Redocly build-docs into one self-contained
// dist/index.html (without Redoc's remote badge logo), then checked for anything the page would fetch from the network. The published
// bundle is copied beside it as dist/openapi.json (the page's download link). Each file gets a
// brotli and a gzip copy beside it (`<file>.br`, `<file>.gz`), which the sandbox's /docs sends to
// clients that accept them: the 3 MB page is 0.66 MB in brotli (quality 9: 0.3 s here, where the
// top quality, 10% smaller, takes 6 s).
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { buildConsole } from './console/build-console.js';
import { OFFLINE_SWITCHES } from './console/configuration.js';
import { CONSOLE_PAGE, CONSOLE_SCRIPT } from './console/page.js';
import { makeDocsSpec } from './docs-spec.js';
import { bundlePath, loadBundle } from './load-bundle.js';
import { oneLine } from './markdown.js';
import { findExternalLoads } from './offline-check.js';
import { defaultServerUrl, listOperations } from './openapi.js';
import { DIST_DIR, DOCS_HTML, DOCS_SPEC, PACKAGE_DIR } from './paths.js';
import { renderWithRedoc, withoutRemoteBadge } from './redoc.js';
import { withServedOrigin } from './served-origin.js';
import { describeWeight, FIRST_LOAD_BUDGET_BYTES, firstLoadWeight } from './weight.js';

const bundle = loadBundle();
const { spec, guides } = makeDocsSpec(bundle);

rmSync(DIST_DIR, { recursive: true, force: true });
mkdirSync(DIST_DIR, { recursive: true });
writeFileSync(DOCS_SPEC, `${JSON.stringify(spec, null, 2)}\n`);
writeFileSync(join(DIST_DIR, 'openapi.json'), readFileSync(bundlePath()));

const report = renderWithRedoc(DOCS_SPEC, DOCS_HTML, {
  title: `${spec.info.title} — reference and guides`,
  description: oneLine((spec.info as { summary?: string }).summary) || spec.info.title,
});
for (const line of report) console.log(`build-docs: ${line}`);

// The samples and servers panel name the sandbox serving the page, when one does (served-origin.ts).
const html = withServedOrigin(withoutRemoteBadge(readFileSync(DOCS_HTML, 'utf8')), defaultServerUrl(bundle));
writeFileSync(DOCS_HTML, html);
const external = findExternalLoads(html);
if (external.length > 0) {
  throw new Error(
    `${relative(PACKAGE_DIR, DOCS_HTML)} would load from the network:\n${external.map((load) => `  ${load.kind}: ${load.url}`).join('\n')}`,
  );
}
if (!html.includes('"disableTelemetry":true')) throw new Error('The page was built with Redoc telemetry on');

console.log(
  `docs: ${relative(PACKAGE_DIR, DOCS_HTML)} (${Math.round(Buffer.byteLength(html) / 1024)} KiB, self-contained): ` +
    `${listOperations(spec).length} operations with code samples, ${guides.length} guides`,
);

const consoleHtml = buildConsole(bundle, DIST_DIR, './');
for (const [name, value] of Object.entries(OFFLINE_SWITCHES)) {
  if (!consoleHtml.includes(`${JSON.stringify(name)}:${JSON.stringify(value)}`))
    throw new Error(`${CONSOLE_PAGE} was built without ${name}: ${JSON.stringify(value)}`);
}
console.log(`docs: ${CONSOLE_PAGE} (Scalar's API reference, offline: ${Object.keys(OFFLINE_SWITCHES).join(', ')} set)`);

for (const name of readdirSync(DIST_DIR)) {
  const bytes = readFileSync(join(DIST_DIR, name));
  // Scalar's script is the largest file a reader loads and never changes between builds: the
  // slower quality 10 takes 8% off it (about 6 s here, once per build).
  const quality = name === CONSOLE_SCRIPT ? 10 : 9;
  const params = { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength };
  writeFileSync(join(DIST_DIR, `${name}.br`), brotliCompressSync(bytes, { params }));
  writeFileSync(join(DIST_DIR, `${name}.gz`), gzipSync(bytes, { level: 9 }));
}

const weight = firstLoadWeight(DIST_DIR);
console.log(`docs: ${describeWeight(weight)}`);
if (weight.totalBytes > FIRST_LOAD_BUDGET_BYTES)
  throw new Error(`The docs are over their weight: ${describeWeight(weight)}`);
