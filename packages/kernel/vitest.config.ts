import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    passWithNoTests: false,
    // Sized for a loaded 2-core machine (a shared CI runner): a limit trips on a hang, never on a
    // slow machine. See 'Tests on a busy machine' in CONTRIBUTING.md.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The files of the one worker share the modules they import (vitest, the kernel's source and
    // the contract it loads), each loaded once rather than once per file: measured on a loaded
    // machine, 29.6 s and 8 s of CPU instead of 66.5 s and 15.8 s. Each file builds the pipelines
    // and servers it tests; fake timers and the one spy are restored by the file that sets them.
    isolate: false,
  },
});
