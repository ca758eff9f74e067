// One run of the contract suite against the reference server, split by resource so that Stryker's
// per-test coverage re-runs only the resources a mutant's code answers for (a handler's mutant its
// own resource; the kernel's and the store's, every one). Together the tests are one full run:
// `--profile full --allow-writes`, rate limits off, plus two runs of the rate-limit checks with the
// sandbox's limiter on (the only runs that reach the limiter's refusals): one paced, owning its key,
// and one with --burst.
//
// The reference server is loaded in a beforeAll, before any test: its module-level code (constants,
// tables built at import) then runs outside every test, so Stryker counts a mutant there as static
// and runs it against the whole suite, loaded afresh with the mutant on. Left to the suite's own
// lazy import, that code ran inside the first test, which Stryker credited with it: such a mutant
// ran that one resource's checks only, against modules already loaded without it, and survived.
// In a beforeAll, not a top-level import: a mutant that breaks the import then fails every test
// (killed), where a test file that cannot load would collect no test and count as survived.

import { beforeAll, describe, expect, it } from 'vitest';
import { type ContractOptions, loadSpec, runContract } from '../src/index.js';

const FULL: ContractOptions = { profile: 'full', allowWrites: true, quiet: true, print: false, reporters: [] };

function failedChecks(result: Awaited<ReturnType<typeof runContract>>): string[] {
  const failed = result.report.operations.flatMap((operation) =>
    operation.checks.filter((check) => check.status === 'failed').map((check) => check.id),
  );
  return [...new Set(failed)].sort();
}

/**
 * The ids of the failed checks go in the assertion's own message, which Stryker keeps whole as a
 * killed mutant's statusReason (the triage's `killed-by` is read against it): vitest shortens the
 * objects it compares to a count of their items.
 */
function expectPassed(result: Awaited<ReturnType<typeof runContract>>): void {
  const failed = failedChecks(result);
  expect({ exitCode: result.exitCode, failed }, `failed: ${failed.join(' ')}`).toEqual({ exitCode: 0, failed: [] });
}

describe('the contract suite against the (mutated) reference server', () => {
  beforeAll(async () => {
    await import('@svc/sandbox');
  });

  for (const resource of [...loadSpec().resources(), 'api-wide']) {
    it(`passes on ${resource} (limits off)`, async () => {
      const result = await runContract({ ...FULL, only: [resource], rate: 'off' });
      expectPassed(result);
    });
  }

  it('passes the rate-limit checks at the documented rates, the limiter on', async () => {
    const result = await runContract({ ...FULL, only: ['rate-limit'], burst: true });
    expectPassed(result);
  });

  // Paced, the run owning its key: its own budget is checked (response.rate-limit-budget), and
  // rate-limit.within-budget sends the traffic that shows a budget shared by reads and writes, or
  // windows that never reset (the --burst run above exceeds its budget on purpose: no such check).
  it('passes the rate-limit checks paced, owning its key, the limiter on', async () => {
    const result = await runContract({ ...FULL, only: ['rate-limit'] });
    expectPassed(result);
  });
});
