#!/usr/bin/env node
// Install sizes, for `pnpm bench`: what a project's node_modules holds after installing
// @svc/contract's tarball alone (what `npx @svc/contract` brings in: its dependencies, not the
// optional @svc/sandbox), next to every published package installed together. Packs the packages
// as `pnpm release:pack` does into a temporary folder, installs each set into an empty project
// with npm (npm `overrides` point the @svc/* dependencies at the tarballs, as the registry would
// serve them), and writes the two figures to bench/size.json for the workspace's bench table.
// Needs the packages built (`pnpm build`); the temporary folder is removed.
//
//   node scripts/install-size.mjs
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { root } from './published-packages.mjs';
import { packInto } from './release-pack.mjs';

const NPM_FLAGS = ['--no-audit', '--no-fund', '--loglevel=error', '--prefer-offline'];

/** Bytes of every file under a folder (apparent sizes, as `npm pack` reports unpacked sizes). */
function folderBytes(dir) {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) bytes += statSync(join(entry.parentPath, entry.name)).size;
  return bytes;
}

/** Installs `names` (by their tarballs) into an empty project; its node_modules' bytes and package count. */
async function installed(work, label, names, tarballOf) {
  const dir = join(work, label);
  mkdirSync(dir);
  const overrides = Object.fromEntries([...tarballOf].map(([name, file]) => [name, `file:${file}`]));
  const dependencies = Object.fromEntries(names.map((name) => [name, overrides[name]]));
  const manifest = { name: `svc-size-${label}`, private: true, dependencies, overrides };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await promisify(execFile)('npm', ['install', ...NPM_FLAGS], { cwd: dir, maxBuffer: 64 * 1024 * 1024 });
  const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
  const packages = Object.keys(lock.packages).filter((key) => key.startsWith('node_modules/')).length;
  return { bytes: folderBytes(join(dir, 'node_modules')), packages };
}

const work = mkdtempSync(join(tmpdir(), 'svc-install-size-'));
try {
  const packed = await packInto(join(work, 'packs'));
  const tarballOf = new Map(packed.map((p) => [p.name, p.filename]));
  const alone = await installed(work, 'contract-alone', ['@svc/contract'], tarballOf);
  const everything = await installed(work, 'everything', [...tarballOf.keys()], tarballOf);
  const mb = (bytes) => Number((bytes / 1e6).toFixed(2));
  console.log(`@svc/contract alone: ${mb(alone.bytes)} MB, ${alone.packages} packages`);
  console.log(`every published package: ${mb(everything.bytes)} MB, ${everything.packages} packages`);
  mkdirSync(join(root, 'bench'), { recursive: true });
  const figures = [
    {
      name: 'install size of @svc/contract alone (node_modules of a fresh project)',
      value: mb(alone.bytes),
      unit: 'MB',
      peer: 'every published package installed together',
      peerValue: mb(everything.bytes),
      ratio: Number((alone.bytes / everything.bytes).toFixed(2)),
    },
  ];
  writeFileSync(
    join(root, 'bench', 'install-size.json'),
    `${JSON.stringify({ date: new Date().toISOString(), alone, everything, figures }, null, 2)}\n`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
