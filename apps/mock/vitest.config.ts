import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    passWithNoTests: false,
    // Sized for a loaded 2-core machine (a shared CI runner): a limit trips on a hang, never on a
    // slow machine. See 'Tests on a busy machine' in CONTRIBUTING.md.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // The files of the one worker share the modules they import (vitest, the mock's source, Prism
    // and the kernel), each loaded once rather than once per file: measured on a loaded machine,
    // 106.5 s and 45 s of CPU instead of 180.1 s and 66 s. Each file starts the mocks it tests;
    // nothing is mocked or stubbed.
    isolate: false,
  },
});
