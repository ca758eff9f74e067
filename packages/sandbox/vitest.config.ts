import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    passWithNoTests: false,
    // Sized for a loaded 2-core machine (a shared CI runner): a limit trips on a hang, never on a
    // slow machine. See 'Tests on a busy machine' in CONTRIBUTING.md.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // The files of the one worker share the modules they import (vitest, the sandbox's source and
    // the libraries under it), each loaded once rather than once per file: a third less CPU for the
    // package. Each file builds the sandboxes it tests; the one spy (console.error) and the fake
    // timers are restored by the file that sets them.
    isolate: false,
  },
});
