import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    passWithNoTests: false,
    testTimeout: 10_000,
    // Lets a test force garbage collection (globalThis.gc) to prove aborts survive it.
    execArgv: ['--expose-gc'],
    typecheck: {
      enabled: true,
      include: ['test/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
  },
});
