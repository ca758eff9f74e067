// Bundles the multi-file spec into spec/dist: openapi.json and openapi.yaml (components hoisted,
// internal $refs kept). Redocly CLI does the work; this only runs it twice and fails loudly.
// From the JSON bundle it then derives openapi.3.0.json (for tools without 3.1) and
// openapi.postman_collection.json (see ./variants). No dereferenced copy is made: with every $ref
// inlined it is 30 times the bundle, and every consumer of @svc/contract would install it; whoever
// needs one makes it from the bundle (spec/README.md says how).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toOpenApi30 } from './variants/openapi30.mjs';
import { sandboxEnvironment, toPostman } from './variants/postman.mjs';

const specDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const distDir = join(specDir, 'dist');
const redocly = join(specDir, 'node_modules', '.bin', 'redocly');

const outputs = [['openapi.json'], ['openapi.yaml']];

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
  ['openapi.postman_collection.json', toPostman(bundle)],
  ['openapi.postman_environment.json', sandboxEnvironment(bundle)],
];
// Machine-read variants, written without indentation: every installed byte counts (the pack test's footprint).
for (const [file, content] of variants) writeFileSync(join(distDir, file), `${JSON.stringify(content)}\n`);
outputs.push(...variants.map(([file]) => [file]));
console.log(`bundled ${outputs.map(([f]) => `dist/${f}`).join(', ')}`);
