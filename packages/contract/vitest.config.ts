import { defineConfig } from 'vitest/config';
import { WaitingFirst } from './test/support/waiting-first.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    passWithNoTests: false,
    // Sized for a loaded 2-core machine (a shared CI runner): a limit trips on a hang, never on a
    // slow machine. See 'Tests on a busy machine' in CONTRIBUTING.md.
    testTimeout: 300_000,
    hookTimeout: 120_000,
    // The tests mostly wait on the servers they start, and some wait on the documented rates for
    // minutes (a paced whole run takes about 100 s, nearly all of it waiting): with two files at a
    // time, such a file held one of the two cores' workers idle. The files started first are such
    // files (test/support/waiting-first.ts), three of them waiting side by side at the start: a
    // fourth worker keeps the two cores busy beside them.
    maxWorkers: 4,
    // The files of one worker share the modules they import, so the contract is loaded and its
    // validators compiled once per worker, not once per file. No test keeps state in them.
    isolate: false,
    sequence: { sequencer: WaitingFirst },
  },
});
