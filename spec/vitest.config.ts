import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'lint/test/**/*.test.ts'],
    // Sized for a loaded 2-core machine (a shared CI runner): a limit trips on a hang, never on a
    // slow machine. See 'Tests on a busy machine' in CONTRIBUTING.md.
    // The CLI tests spawn Node scripts and the rule tests load Spectral: seconds each when idle.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
