import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'lint/test/**/*.test.ts'],
    // Sized for a loaded 2-core machine (a shared CI runner): a limit trips on a hang, never on a
    // slow machine. See 'Tests on a busy machine' in CONTRIBUTING.md.
    // The CLI tests spawn Node scripts and the rule tests load Spectral: seconds each when idle.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The files of the one worker share the modules they import (vitest, Spectral, Redocly, Ajv),
    // each loaded once rather than once per file: measured on an idle 2-core machine, 16.5 s and
    // 20.9 s of CPU instead of 23.4 s and 30.4 s. Each file builds its own Spectral instance,
    // validators and fixtures; nothing is mocked.
    isolate: false,
  },
});
