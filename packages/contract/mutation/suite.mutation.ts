// One run of the contract suite against the reference server, split by resource so that Stryker's
// per-test coverage re-runs only the resources a mutant's code answers for (a handler's mutant its
// own resource; the kernel's and the store's, every one). Together the tests are one full run:
// `--profile full --allow-writes`, rate limits off, plus two runs of the rate-limit checks with the
// sandbox's limiter on (the only runs that reach the limiter's refusals): one paced, owning its key,
// and one with --burst.
//
// Each test starts the reference server here, in the worker where Stryker switches its mutants on,
// from the same seed an embedded sandbox has, and has the suite run against it by the contract host
// (contract-host.ts), which keeps the suite loaded for the whole Stryker run.
//
// The reference server is loaded in a beforeAll, before any test: its module-level code (constants,
// tables built at import) then runs outside every test, so Stryker counts a mutant there as static
// and runs it against the whole suite, loaded afresh with the mutant on. Left to a lazy import, that
// code ran inside the first test, which Stryker credited with it: such a mutant ran that one
// resource's checks only, against modules already loaded without it, and survived.
// In a beforeAll, not a top-level import: a mutant that breaks the import then fails every test
// (killed), where a test file that cannot load would collect no test and count as survived.

import { withScopeKeys } from '@svc/spec-runtime/sandbox-config';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { HostRun, HostVerdict } from './contract-host.js';

const host = inject('contractHost');

let sandbox: typeof import('@svc/sandbox');

/** The suite's run against the (mutated) reference server, started for it with the limiter on or off. */
async function verdictOf(run: Omit<HostRun, 'baseUrl'>): Promise<HostVerdict> {
  const running = await sandbox.startSandboxServer({
    port: 0,
    host: '127.0.0.1',
    seed: withScopeKeys(sandbox.loadSeedFile(), sandbox.bundledContract()),
    rateLimit: run.rate === 'off' ? false : {},
  });
  try {
    const response = await fetch(host.url, { method: 'POST', body: JSON.stringify({ ...run, baseUrl: running.url }) });
    const body = (await response.json()) as HostVerdict & { error?: string };
    if (!response.ok) throw new Error(`the suite's run threw: ${body.error}`);
    return body;
  } finally {
    await running.close();
  }
}

/**
 * The ids of the failed checks go in the assertion's own message, which Stryker keeps whole as a
 * killed mutant's statusReason (the triage's `killed-by` is read against it): vitest shortens the
 * objects it compares to a count of their items. A run that fails with no failed check failed on its
 * own errors (a rule whose precondition never held names itself there): they go in the message too.
 */
function expectPassed(verdict: HostVerdict): void {
  const errors = verdict.errors.length > 0 ? ` (run errors: ${verdict.errors.join('; ').slice(0, 300)})` : '';
  expect(verdict, `failed: ${verdict.failed.join(' ')}${errors}`).toEqual({ exitCode: 0, failed: [], errors: [] });
}

describe('the contract suite against the (mutated) reference server', () => {
  beforeAll(async () => {
    sandbox = await import('@svc/sandbox');
  });

  for (const resource of host.resources) {
    it(`passes on ${resource} (limits off)`, async () => {
      expectPassed(await verdictOf({ only: [resource], rate: 'off' }));
    });
  }

  it('passes the rate-limit checks at the documented rates, the limiter on', async () => {
    expectPassed(await verdictOf({ only: ['rate-limit'], burst: true }));
  });

  // Paced, the run owning its key: its own budget is checked (response.rate-limit-budget), and
  // rate-limit.within-budget sends the traffic that shows a budget shared by reads and writes, or
  // windows that never reset (the --burst run above exceeds its budget on purpose: no such check).
  it('passes the rate-limit checks paced, owning its key, the limiter on', async () => {
    expectPassed(await verdictOf({ only: ['rate-limit'] }));
  });
});
