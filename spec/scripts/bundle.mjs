// Bundles the multi-file spec into spec/dist: openapi.json and openapi.yaml (components hoisted,
// internal $refs kept) and openapi.dereferenced.json (every $ref inlined, for tools that cannot
// follow references). Redocly CLI does the work; this only runs it three times and fails loudly.
// From the JSON bundle it then derives openapi.3.0.json (for tools without 3.1) and
// openapi.postman_collection.json (see ./variants).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toOpenApi30 } from './variants/openapi30.mjs';
import { toPostman } from './variants/postman.mjs';

const specDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const distDir = join(specDir, 'dist');
const redocly = join(specDir, 'node_modules', '.bin', 'redocly');

const outputs = [['openapi.json'], ['openapi.yaml'], ['openapi.dereferenced.json', '--dereferenced']];

rmSync(distDir, { recursive: true, force: true });
mkdirSync(distDir, { recursive: true });
for (const [file, ...flags] of outputs) {
  execFileSync(redocly, ['bundle', 'openapi.yaml', '--config', 'redocly.yaml', '-o', join('dist', file), ...flags], {
    cwd: specDir,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
}
const bundle = JSON.parse(readFileSync(join(distDir, 'openapi.json'), 'utf8'));
const variants = [
  ['openapi.3.0.json', toOpenApi30(bundle)],
  ['openapi.postman_collection.json', await toPostman(bundle)],
];
for (const [file, content] of variants) writeFileSync(join(distDir, file), `${JSON.stringify(content, null, 2)}\n`);
outputs.push(...variants.map(([file]) => [file]));
console.log(`bundled ${outputs.map(([f]) => `dist/${f}`).join(', ')}`);
