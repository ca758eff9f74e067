import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    passWithNoTests: false,
    // Sized for a loaded 2-core machine (a shared CI runner): a limit trips on a hang, never on a
    // slow machine. See 'Tests on a busy machine' in CONTRIBUTING.md.
    testTimeout: 300_000,
    hookTimeout: 120_000,
    // The tests mostly wait on the servers they start: two test files at a time fill two cores.
    maxWorkers: 2,
    // The files of one worker share the modules they import, so the contract is loaded and its
    // validators compiled once per worker, not once per file. No test keeps state in them.
    isolate: false,
  },
});
