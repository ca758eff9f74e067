// Reading a seed from disk: the default fixtures/seed.json next to src/ and dist/, or --seed FILE.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { SeedFile } from './store/model.js';
import { assertSeed } from './store/store.js';

export const DEFAULT_SEED_PATH = fileURLToPath(new URL('../fixtures/seed.json', import.meta.url));

export function loadSeedFile(path: string = DEFAULT_SEED_PATH): SeedFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`Cannot read the seed ${path}: ${(error as Error).message}`);
  }
  assertSeed(parsed);
  return parsed as SeedFile;
}
