// Measures what an application pays to ship the client: dist/index.js bundled by esbuild with
// openapi-fetch included, minified, then gzipped. Fails over the 10 kB budget. The webhooks entry
// (dist/webhooks.js, with its generated validators) is measured on its own and must stay out of
// the main entry's bundle.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const BUDGET_BYTES = 10_240;
const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

async function bundle(entry) {
  const result = await build({
    entryPoints: [join(packageDir, 'dist', entry)],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    write: false,
    logLevel: 'warning',
  });
  return result.outputFiles[0].contents;
}
const bundled = await bundle('index.js');
const webhooks = await bundle('webhooks.js');
if (new TextDecoder().decode(bundled).includes('CallReceivedEvent')) {
  throw new Error(
    'size: the webhook validators ended up in the main entry; they belong to @svc/api-client/webhooks only',
  );
}
if (!new TextDecoder().decode(bundled).includes('onRequest')) {
  throw new Error('size: openapi-fetch is missing from the bundle, the figure would be meaningless');
}
const gzipped = gzipSync(bundled, { level: 9 }).length;
const kilobytes = (bytes) => `${(bytes / 1024).toFixed(2)} kB`;
console.log(
  `@svc/api-client + openapi-fetch: ${kilobytes(bundled.length)} minified, ${kilobytes(gzipped)} (${gzipped} bytes) gzipped; budget ${BUDGET_BYTES} bytes`,
);
const webhooksGzipped = gzipSync(webhooks, { level: 9 }).length;
console.log(
  `@svc/api-client/webhooks (its own entry): ${kilobytes(webhooks.length)} minified, ${kilobytes(webhooksGzipped)} (${webhooksGzipped} bytes) gzipped`,
);
// The benchmark harness (`pnpm bench`) shows this figure beside the others.
mkdirSync(join(packageDir, 'bench'), { recursive: true });
writeFileSync(
  join(packageDir, 'bench', 'size.json'),
  `${JSON.stringify(
    {
      figures: [
        {
          name: 'client size, minified + gzipped (with openapi-fetch)',
          value: gzipped,
          unit: 'bytes',
          peer: 'budget',
          peerValue: BUDGET_BYTES,
          ratio: Number((gzipped / BUDGET_BYTES).toFixed(3)),
        },
        {
          name: 'client webhooks entry, minified + gzipped (separate import)',
          value: webhooksGzipped,
          unit: 'bytes',
          peer: '–',
          peerValue: null,
          ratio: null,
        },
      ],
    },
    null,
    2,
  )}\n`,
);
if (gzipped > BUDGET_BYTES) {
  console.error(`size: over budget by ${gzipped - BUDGET_BYTES} bytes`);
  process.exit(1);
}
