import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    passWithNoTests: false,
    // The browser test launches Chromium and loads a ~3 MB page.
    // Sized for a loaded 2-core machine (a shared CI runner): a limit trips on a hang, never on a
    // slow machine. See 'Tests on a busy machine' in CONTRIBUTING.md.
    testTimeout: 120_000,
    // Two workers on 2 cores: the browser test waits on Chromium and the samples test on its sample
    // runner and the sandbox, so the two files side by side finish in about the time of the longer.
    maxWorkers: 2,
    hookTimeout: 180_000,
    // expect.poll waits for Chromium to render (1 s by default): it returns as soon as the page is
    // ready, so the limit only matters on a busy machine, where 1 s is not always enough.
    expect: { poll: { timeout: 30_000 } },
  },
});
