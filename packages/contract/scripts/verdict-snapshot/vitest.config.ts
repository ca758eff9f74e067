import { defineConfig } from 'vitest/config';

// The verdict snapshot's runs of the mutants and controls (scripts/verdict-snapshot.mjs starts it):
// not a test, a recording. Sized for a loaded 2-core machine, one file at a time.
export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['scripts/verdict-snapshot/record.snapshot.ts'],
    passWithNoTests: false,
    testTimeout: 3_600_000,
    hookTimeout: 120_000,
    maxWorkers: 1,
  },
});
