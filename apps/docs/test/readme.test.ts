// The root README for users first: what it is, the two commands, one quick start per kind of
// user, then install, layout and every root script. And no README tells anyone to run a script
// under a name pnpm keeps for its own command (`pnpm docs` opens a registry page instead).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publishedPackages } from '../../../scripts/published-packages.mjs';
import { PACKAGE_DIR } from '../src/paths.js';

const ROOT = join(PACKAGE_DIR, '..', '..');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const rootScripts = Object.keys(
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts,
);
/** pnpm's own commands that shadow a script of the same name (`pnpm <name>` never runs the script). */
const SHADOWED = ['docs', 'pack', 'publish', 'view', 'info', 'outdated', 'why'];

describe('the root README', () => {
  it('opens with the two commands, then a quick start per kind of user, install, layout and scripts', () => {
    const headings = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(headings.slice(0, 7)).toEqual([
      'The two commands',
      'Quick start: integrators',
      'Quick start: server teams',
      'Quick start: docs readers',
      'Install the packages',
      'Layout',
      'Scripts',
    ]);
  });

  it('lists every root script in its Scripts table', () => {
    const table = readme.slice(readme.indexOf('## Scripts'));
    const listed = [...table.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1] ?? '');
    expect(rootScripts.filter((script) => !listed.includes(script))).toEqual([]);
    expect(listed.filter((script) => !rootScripts.includes(script))).toEqual([]);
  });
});

describe('no README runs a script pnpm shadows', () => {
  const files = ['README.md', 'CONTRIBUTING.md', ...publishedPackages().map(({ dir }) => `${dir}/README.md`)];
  const scriptsOf = (dir: string) =>
    Object.keys(
      (JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as { scripts?: object }).scripts ?? {},
    );
  it('has no script named like a pnpm command, at the root or in a package', () => {
    const dirs = ['.', 'apps/docs', 'apps/mock', ...publishedPackages().map(({ dir }) => dir)];
    const clashes = dirs.flatMap((dir) =>
      scriptsOf(dir)
        .filter((s) => SHADOWED.includes(s))
        .map((s) => `${dir}: ${s}`),
    );
    expect(clashes).toEqual([]);
  });
  it.each(files)('%s says `pnpm docs:serve`, never `pnpm docs`', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    expect(text.match(/pnpm (?:--filter \S+ )?docs(?![:\w-])/g) ?? []).toEqual([]);
  });
});
