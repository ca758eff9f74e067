// Mutation testing of the reference server (`pnpm mutation`; see packages/contract/mutation/README.md):
// Stryker changes the sandbox's and the kernel's behaviour code one fault at a time, and the
// contract suite (one full run, split by resource) must notice each.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: [
    'packages/sandbox/src/handlers/**/*.ts',
    'packages/sandbox/src/store/**/*.ts',
    'packages/sandbox/src/support/**/*.ts',
    'packages/sandbox/src/unknown-field.ts',
    'packages/sandbox/src/doc-url.ts',
    'packages/kernel/src/steps/**/*.ts',
    'packages/kernel/src/auth.ts',
    'packages/kernel/src/error-answer.ts',
    'packages/kernel/src/idempotency.ts',
    'packages/kernel/src/rate-limiter.ts',
    'packages/kernel/src/read-cache.ts',
    'packages/kernel/src/json-body.ts',
    'packages/kernel/src/kernel.ts',
    'packages/kernel/src/pipeline.ts',
  ],
  // Named, not found by Stryker's own scan: pnpm keeps it outside Stryker's node_modules.
  plugins: ['@stryker-mutator/vitest-runner'],
  testRunner: 'vitest',
  vitest: { configFile: 'packages/contract/mutation/vitest.config.ts', related: false },
  // pnpm's workspace links point into packages/*: a copy of the tree would not resolve them.
  inPlace: true,
  coverageAnalysis: 'perTest',
  incremental: true,
  incrementalFile: 'packages/contract/mutation/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  concurrency: 2,
  // Over 1.5 times the mutant's tests' own time in the first run: a mutant that hangs costs this much
  // of a worker, and a whole run has about twenty; a busy machine slows a run by seconds, not by this.
  timeoutMS: 20_000,
  cleanTempDir: 'always',
  tempDirName: '.stryker-tmp',
};
