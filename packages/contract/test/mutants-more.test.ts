// The other half of the mutants (odd places; see mutants.test.ts), and the control: the same
// subsets pass against the sandbox itself, so each mutation is what fails them.
import { afterAll, describe, expect, it } from 'vitest';
import { MUTANTS, removeOutputs, runAgainst, type Mutant } from './support/mutants.js';
import { mutatingProxy, sandbox, type Mutation } from './support/servers.js';

afterAll(removeOutputs);

const HALF: Mutant[] = MUTANTS.filter((_, i) => i % 2 === 1);

describe('each mutant of the sandbox is caught by name', () => {
  for (const mutant of HALF) {
    it(`${mutant.name}: ${mutant.caughtBy}`, async () => {
      const upstream = await sandbox(mutant.sandbox ?? {});
      const ignoreScopes: Mutation = {
        request: (q) => {
          const headers = new Headers(q.headers);
          if (headers.has('authorization') && upstream.config.keys.some((k) => headers.get('authorization')?.endsWith(k.key))) headers.set('authorization', `Api-Key ${upstream.apiKey}`);
          return { ...q, headers };
        },
      };
      const mutation = typeof mutant.mutation === 'function' ? mutant.mutation(upstream) : (mutant.mutation ?? (mutant.name === 'ignores scopes' ? ignoreScopes : undefined));
      const target = mutation ? await mutatingProxy(upstream, mutation) : upstream;
      try {
        const { result, failed } = await runAgainst(target, mutant);
        expect(failed).toContain(mutant.caughtBy);
        // A broken server is reported through checks, never by crashing the suite.
        expect(failed).not.toContain('suite.error');
        expect(result.exitCode).toBe(1);
      } finally {
        if (target !== upstream) await target.close();
        await upstream.close();
      }
    });
  }

  it('the same subsets pass against the sandbox itself (the mutation is what fails them)', async () => {
    const upstream = await sandbox();
    const proxied = await mutatingProxy(upstream, {});
    try {
      const subsets = new Map(MUTANTS.map((m) => [m.only.join(','), m]));
      for (const mutant of subsets.values()) {
        const { result, failed } = await runAgainst(proxied, mutant);
        expect(failed, mutant.only.join(',')).toEqual([]);
        expect(result.report.summary.checks.passed, mutant.only.join(',')).toBeGreaterThan(0);
        expect(result.report.operations.flatMap((op) => op.checks).some((c) => c.id === mutant.caughtBy && c.status === 'passed'), mutant.caughtBy).toBe(true);
      }
    } finally {
      await proxied.close();
      await upstream.close();
    }
  });
});
