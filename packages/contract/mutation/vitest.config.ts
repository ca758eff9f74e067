// The test Stryker runs for each mutant of the reference server (`pnpm mutation`): the contract
// suite against an embedded sandbox built from the sandbox's and the kernel's TypeScript sources,
// so that the instrumented (mutated) code is what answers. See README.md beside this file.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

export default defineConfig({
  resolve: {
    // The most specific first: '@svc/server-kernel/cli' must not resolve as '<kernel index>/cli'.
    alias: [
      { find: /^@svc\/server-kernel\/cli$/, replacement: source('kernel/src/cli/index.ts') },
      { find: /^@svc\/server-kernel\/testing$/, replacement: source('kernel/src/testing/index.ts') },
      { find: /^@svc\/server-kernel$/, replacement: source('kernel/src/index.ts') },
      { find: /^@svc\/sandbox$/, replacement: source('sandbox/src/index.ts') },
    ],
  },
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['*.mutation.ts'],
    // The suite itself, loaded once and kept for the whole Stryker run (see contract-host.ts).
    globalSetup: ['contract-host.ts'],
    // Stryker switches mutants at run time inside code loaded once: keeping the modules between
    // its runs (the suite's compiled validators with them) saves seconds a mutant.
    isolate: false,
    // A hang fails the mutant (Stryker's own timeout decides first); never a slow machine.
    testTimeout: 300_000,
    hookTimeout: 120_000,
  },
});
