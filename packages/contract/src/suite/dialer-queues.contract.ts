// The dialer queue of the key's owner (or of a teammate by user_id / email).
import { documentedCodes } from '../checks/expect.js';
import { check, scenarioOf } from './harness.js';
import { expectReplays } from './support.js';
import { operationChecks } from './operation-checks.js';
import { UNKNOWN_SUFFIX } from '../generate/negatives.js';

operationChecks('upsertCurrentDialingQueue', {
  // Only the fields sent are touched: an empty update changes nothing.
  baseline: () => ({ body: {} }),
  scenarios: (op) => {
    // Idempotency is stated for every write method: here on a PATCH (an empty update touches nothing).
    check('idempotency.replay', { ...scenarioOf(op), variant: op.method }, { writes: true, stateful: true }, async (t) => {
      await expectReplays(t, `${op.method} an empty update`, (idempotencyKey) => t.call({ body: {} }, { idempotencyKey }));
    });

    check('dialer-queues.unknown-assignee', scenarioOf(op), { writes: true, stateful: true }, async (t) => {
      const expected = { status: 404, codes: documentedCodes(t.spec, op, 404), why: 'no teammate matches' };
      if (expected.codes.length === 0) return t.skip('the operation documents no 404');
      t.expectError(await t.call({ body: { user_id: `usr-${UNKNOWN_SUFFIX}` } }), expected, 'an unknown user_id');
      t.expectError(await t.call({ body: { email: `svc-contract-${t.config.runId}@example.invalid` } }), expected, 'an unknown email');
    });
  },
});
