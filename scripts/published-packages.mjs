// The workspace packages that are published: every package under spec/, packages/ and apps/
// whose package.json is not `"private": true`. Shared by sync-spec-version.mjs and pack-test.mjs.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));

/** `{ dir, path, text, manifest }` of each published package (`dir` relative to the root). */
export function publishedPackages() {
  // Workspace folders, relative to the root, in a stable order: spec, packages/*, apps/*.
  const dirs = ['spec'];
  for (const group of ['packages', 'apps']) {
    const groupDir = join(root, group);
    if (!existsSync(groupDir)) continue;
    for (const name of readdirSync(groupDir).sort()) dirs.push(`${group}/${name}`);
  }
  return dirs
    .filter((dir) => existsSync(join(root, dir, 'package.json')))
    .map((dir) => {
      const path = join(root, dir, 'package.json');
      const text = readFileSync(path, 'utf8');
      return { dir, path, text, manifest: JSON.parse(text) };
    })
    .filter(({ manifest }) => manifest.private !== true);
}
