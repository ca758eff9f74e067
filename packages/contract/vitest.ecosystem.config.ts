import { defineConfig } from 'vitest/config';

// The ecosystem tests (`pnpm --filter @svc/contract ecosystem`, the `ecosystem` turbo task of
// `pnpm test`): tools nobody here wrote, run against a fresh sandbox. Kept out of `test` because
// each one runs a whole tool for tens of seconds.
export default defineConfig({
  test: {
    include: ['ecosystem/**/*.test.ts'],
    passWithNoTests: false,
    // Sized for a loaded 2-core machine: a limit trips on a hang, never on a slow machine.
    testTimeout: 300_000,
    hookTimeout: 120_000,
    maxWorkers: 1,
  },
});
