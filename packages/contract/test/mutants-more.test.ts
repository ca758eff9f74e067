// The other half of the mutants (odd places; see mutants.test.ts), and the control: the same
// subsets pass against the sandbox itself, so each mutation is what fails them.
import { afterAll, describe, expect, it } from 'vitest';
import { CONTROLS, itPassesEach } from './support/controls.js';
import { itCatchesEachByName, MUTANTS, type Mutant, removeOutputs, runAgainst, UNPACED } from './support/mutants.js';
import { mutatingProxy, sandbox } from './support/servers.js';

afterAll(removeOutputs);

const HALF: Mutant[] = UNPACED.filter((_, i) => i % 2 === 1);

describe('each control, a harmless variation where the contract is open, passes', () => {
  itPassesEach(CONTROLS.filter((_, i) => i % 2 === 1));
});

describe('each mutant of the sandbox is caught by name', () => {
  itCatchesEachByName(HALF);

  it('the same subsets pass against the sandbox itself (the mutation is what fails them)', async () => {
    const upstream = await sandbox();
    const proxied = await mutatingProxy(upstream, {});
    try {
      const subsets = new Map(MUTANTS.map((m) => [m.only.join(','), m]));
      for (const mutant of subsets.values()) {
        const { result, failed } = await runAgainst(proxied, mutant);
        expect(failed, mutant.only.join(',')).toEqual([]);
        expect(result.report.summary.checks.passed, mutant.only.join(',')).toBeGreaterThan(0);
        expect(
          result.report.operations
            .flatMap((op) => op.checks)
            .some((c) => c.id === mutant.caughtBy && c.status === 'passed'),
          mutant.caughtBy,
        ).toBe(true);
      }
    } finally {
      await proxied.close();
      await upstream.close();
    }
  });
});
