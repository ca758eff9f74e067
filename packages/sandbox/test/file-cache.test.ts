// The static file cache: read once per version, bounded by bytes, large files left to streaming.
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileCache } from '../src/file-cache.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-file-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('FileCache', () => {
  it('serves a file from memory until it changes', async () => {
    const cache = new FileCache(1000, 100);
    const path = file('a.txt', 'first');
    const first = await stat(path);
    const bytes = await cache.get(path, first);
    expect(new TextDecoder().decode(bytes)).toBe('first');
    writeFileSync(path, 'other'); // same size: only the modification time tells
    utimesSync(path, new Date(), new Date(first.mtimeMs + 5000));
    expect(await cache.get(path, first)).toBe(bytes); // that version comes from memory, not the disk
    expect(new TextDecoder().decode(await cache.get(path, await stat(path)))).toBe('other');
  });

  it('shares one read between concurrent misses', async () => {
    const cache = new FileCache(1000, 100);
    const path = file('b.txt', 'shared');
    const version = await stat(path);
    const all = await Promise.all(Array.from({ length: 50 }, () => cache.get(path, version)));
    expect(new Set(all).size).toBe(1);
    expect(cache.heldBytes).toBe(6);
  });

  it('leaves files over the per-file limit to streaming, and stays within its byte budget', async () => {
    const cache = new FileCache(25, 10);
    const big = file('big.txt', 'x'.repeat(11));
    expect(await cache.get(big, await stat(big))).toBeUndefined();
    for (let i = 0; i < 5; i++) {
      const path = file(`f${i}.txt`, String(i).repeat(10));
      await cache.get(path, await stat(path));
      expect(cache.heldBytes).toBeLessThanOrEqual(25);
    }
    expect(cache.heldBytes).toBe(20);
  });
});
