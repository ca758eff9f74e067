// Preconditions reached, not hoped for: a check whose rule needs a state first (a setting moved
// off the value a faulty reset would write, two invalid fields at once, a created thread looked up
// by its item) reaches it through the API and says so; on a server where it cannot be reached, the
// check is reported "not exercised" with the reason, never passed. The mutants that fail only once
// the state is reached are in support/mutants.ts, caught by name with the others.
import { afterAll, describe, expect, it } from 'vitest';
import { type Mutant, queueBodyWith, removeOutputs, runAgainst } from './support/mutants.js';
import { json, type Mutation, mutatingProxy, sandbox } from './support/servers.js';

afterAll(removeOutputs);

/** The outcome of one check of a run against the sandbox behind `mutation`. */
async function checkAgainst(mutation: Mutation, mutant: Omit<Mutant, 'name' | 'caughtBy'>, check: string) {
  const upstream = await sandbox();
  const target = await mutatingProxy(upstream, mutation);
  try {
    const { result, failed } = await runAgainst(target, { name: check, caughtBy: check, ...mutant });
    const summary = result.report.operations.flatMap((op) => op.checks).find((c) => c.id === check);
    return { failed, summary, skipped: result.report.summary.skipped };
  } finally {
    await target.close();
    await upstream.close();
  }
}

describe('a precondition the server never lets the check reach', () => {
  it('dialer-queues.partial-update: settings that never move are "not exercised", with the reason, never passed', async () => {
    // The queue takes the name but ignores every setting sent: the name is never sent alone while a
    // setting holds its other value.
    const { failed, summary, skipped } = await checkAgainst(
      {
        request: (q) => queueBodyWith(q, ({ do_not_disturb: _d, voicemail_handling: _v, ...rest }) => rest),
      },
      { only: ['dialer-queues.partial-update'], allowWrites: true },
      'dialer-queues.partial-update',
    );
    expect(failed).toEqual([]);
    expect(summary).toMatchObject({ status: 'skipped', skipKind: 'precondition', passed: 0 });
    expect(summary?.skipReasons).toEqual([
      expect.stringMatching(
        /^not exercised: voicemail_handling sent "NO_SKIP" was answered "SKIP", do_not_disturb sent "DISABLED" was answered "ENABLED", so the name was never sent alone/,
      ),
    ]);
    expect(skipped.counted).toBe(1);
  });
});

describe('a precondition the answers never show', () => {
  it('custom-fields.partial-update: a field without options whose answers show no description is "not exercised"', async () => {
    // Every custom field answered without its options and description: nothing the label leaves
    // untouched is seen to hold a value a reset would not write.
    const strip = (f: unknown) => {
      if (f && typeof f === 'object') {
        delete (f as Record<string, unknown>).description;
        delete (f as Record<string, unknown>).options;
      }
    };
    const { summary } = await checkAgainst(
      {
        response: (r, q) =>
          q.path.startsWith('/v2/api/crm/attributes') && r.status === 200
            ? json(r, (b) => (Array.isArray(b.data) ? b.data.forEach(strip) : strip(b.data)))
            : r,
      },
      { only: ['custom-fields.partial-update'], allowWrites: true },
      'custom-fields.partial-update',
    );
    expect(summary).toMatchObject({ status: 'skipped', skipKind: 'precondition', passed: 0 });
    expect(summary?.skipReasons).toEqual([
      expect.stringMatching(/^not exercised: \S+ has no options and the answers show no description/),
    ]);
  });
});
