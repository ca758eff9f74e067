// Bundles the multi-file spec into spec/dist: openapi.json and openapi.yaml (components hoisted,
// internal $refs kept) and openapi.dereferenced.json (every $ref inlined, for tools that cannot
// follow references). Redocly CLI does the work; this only runs it three times and fails loudly.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const specDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const distDir = join(specDir, 'dist');
const redocly = join(specDir, 'node_modules', '.bin', 'redocly');

const outputs = [
  ['openapi.json'],
  ['openapi.yaml'],
  ['openapi.dereferenced.json', '--dereferenced'],
];

rmSync(distDir, { recursive: true, force: true });
mkdirSync(distDir, { recursive: true });
for (const [file, ...flags] of outputs) {
  execFileSync(redocly, ['bundle', 'openapi.yaml', '--config', 'redocly.yaml', '-o', join('dist', file), ...flags], {
    cwd: specDir,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
}
console.log(`bundled ${outputs.map(([f]) => `dist/${f}`).join(', ')}`);
