import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    passWithNoTests: false,
    // Sized for a loaded 2-core machine (a shared CI runner): a limit trips on a hang, never on a
    // slow machine. See 'Tests on a busy machine' in CONTRIBUTING.md.
    testTimeout: 30_000,
    // Compiling every validator of the contract happens once per file, in a beforeAll.
    hookTimeout: 120_000,
  },
});
