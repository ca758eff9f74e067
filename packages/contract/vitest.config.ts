import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    passWithNoTests: false,
    testTimeout: 90_000,
    hookTimeout: 30_000,
    // Each suite run starts its own vitest with one worker; two test files at a time fill two cores.
    maxWorkers: 2,
  },
});
