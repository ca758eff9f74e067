// Redocly's no-unused-components only sees components that were bundled; a file nobody
// references never reaches the bundle at all. This walks the source tree from the root instead.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve as resolvePath } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { specDir } from './support/spec.js';

const SOURCE_DIRS = ['components', 'paths', 'webhooks', 'info'];

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

function refsIn(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) for (const child of node) refsIn(child, found);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push(value);
      else refsIn(value, found);
    }
  }
  return found;
}

function reachableFromRoot(): Set<string> {
  const seen = new Set<string>();
  const queue = [join(specDir, 'openapi.yaml')];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!/\.ya?ml$/.test(file)) continue;
    for (const ref of refsIn(parse(readFileSync(file, 'utf8')))) {
      const [target] = ref.split('#');
      if (target) queue.push(resolvePath(dirname(file), target));
    }
  }
  return seen;
}

describe('the source tree', () => {
  const reachable = reachableFromRoot();

  it('has no file that the root does not reach through $refs', () => {
    const orphans = SOURCE_DIRS.flatMap((dir) => filesUnder(join(specDir, dir)))
      .filter((file) => !reachable.has(file))
      .map((file) => relative(specDir, file));
    expect(orphans).toEqual([]);
  });

  it('has no $ref to a file that does not exist', () => {
    const missing = [...reachable].filter((file) => {
      try {
        return !statSync(file).isFile();
      } catch {
        return true;
      }
    });
    expect(missing.map((file) => relative(specDir, file))).toEqual([]);
  });

  it('names each component file after the component it holds (PascalCase, title = file name)', () => {
    for (const file of filesUnder(join(specDir, 'components'))) {
      const name = file
        .split('/')
        .pop()!
        .replace(/\.yaml$/, '');
      expect(name, relative(specDir, file)).toMatch(/^[A-Z][A-Za-z0-9]*$/);
      if (file.includes('/schemas/')) {
        expect(parse(readFileSync(file, 'utf8')).title, relative(specDir, file)).toBe(name);
      }
    }
  });
});
