#!/usr/bin/env node
// `pnpm release:pack`: installable tarballs of every published package in one folder, until the
// packages are on the npm registry. `pnpm pack` rewrites the workspace:* dependencies between them
// to versions, so a consumer installs the tarballs it needs together with npm (the READMEs' install
// sections say which). The pack test (scripts/pack-test.mjs) packs with the same function and runs
// those install commands as written.
//
//   node scripts/release-pack.mjs [--out <dir>]   (default: dist-packs/ at the repository root)
//
// Needs the packages built (`pnpm release:pack` builds first). Old tarballs in the folder are
// removed first, so that a `*.tgz` pattern never picks up a stale version.
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { publishedPackages, root } from './published-packages.mjs';

export const DEFAULT_PACKS_DIR = join(root, 'dist-packs');

/**
 * Packs each published package into `dir`; resolves `[{ name, dir, filename, files }]` (filename
 * absolute, files the paths inside the tarball). Rejects naming the package whose pack failed.
 */
export async function packInto(dir) {
  mkdirSync(dir, { recursive: true });
  for (const old of readdirSync(dir).filter((file) => file.endsWith('.tgz'))) rmSync(join(dir, old));
  return Promise.all(
    publishedPackages().map(async ({ dir: packageDir, manifest }) => {
      const { stdout } = await promisify(execFile)('pnpm', ['pack', '--pack-destination', dir, '--json'], {
        cwd: join(root, packageDir),
        maxBuffer: 64 * 1024 * 1024,
      }).catch((error) => {
        throw new Error(`pnpm pack in ${packageDir} failed: ${error.stderr || error.message}`);
      });
      // pnpm may print lifecycle output before the JSON.
      const packed = JSON.parse(stdout.slice(stdout.indexOf('{')));
      return {
        name: manifest.name,
        dir: packageDir,
        filename: packed.filename,
        files: packed.files.map((f) => f.path),
      };
    }),
  );
}

async function main() {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  const dir = values.out ? resolve(values.out) : DEFAULT_PACKS_DIR;
  const packed = await packInto(dir);
  for (const { name, filename } of packed) process.stdout.write(`${name.padEnd(20)} ${filename}\n`);
  process.stdout.write(
    `\n${packed.length} tarballs in ${dir}. In your project (see the README's Install section):\n` +
      `  SVC_PACKS=${dir}\n` +
      `  npm install "$SVC_PACKS"/svc-api-client-*.tgz "$SVC_PACKS"/svc-api-types-*.tgz   # the typed client\n` +
      `  npm install "$SVC_PACKS"/*.tgz                                                  # everything, svc-contract included\n`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    process.stderr.write(`release:pack: ${error.message}\n`);
    process.exit(1);
  });
}
