import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    passWithNoTests: false,
    // The browser test launches Chromium and loads a ~3 MB page; its own steps have tighter limits.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
