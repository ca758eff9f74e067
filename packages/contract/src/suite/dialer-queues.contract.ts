// The dialer queue of the key's owner (or of a teammate by user_id / email).
import { idPrefixes, propertiesOf } from '@svc/spec-runtime';
import { isReplayPromised } from '@svc/spec-runtime/facts';
import { documentedCodes } from '../checks/expect.js';
import { UNKNOWN_SUFFIX } from '../generate/negatives.js';
import { documentedHeaders, operationChecks } from './operation-checks.js';
import { data, deepEqual, expectReplays, expectUnpromisedRepeats, ok, short } from './support.js';

operationChecks('upsertCurrentDialingQueue', {
  // Only the fields sent are touched: an empty update changes nothing.
  baseline: () => ({ body: {} }),
  scenarios: (op, scenario) => {
    // Idempotency is promised for POST, PUT and DELETE; on this PATCH the contract says replay is
    // not promised (x-svc-inferred.replay), so a replay and a new execution both pass.
    scenario({ id: 'idempotency.replay', variant: op.method }, async (t) => {
      const repeats = isReplayPromised(t.spec.contract, op) ? expectReplays : expectUnpromisedRepeats;
      await repeats(t, `${op.method} an empty update`, (idempotencyKey) => t.call({ body: {} }, { idempotencyKey }));
    });

    // "All fields are optional; only supplied fields are touched": the update answers the queue,
    // so a name sent alone must leave every other field as the previous answer showed it.
    scenario('dialer-queues.partial-update', async (t) => {
      const before = await t.call({ body: {} });
      const queue = data(before);
      if (
        !t.expect(
          ok(before) && queue !== undefined,
          `reading the queue through an empty update: expected 200 with the queue, got ${before.status}`,
          before,
        ) ||
        !queue
      )
        return;
      const name = `svc-contract ${t.config.runId}`;
      const changed = await t.call({ body: { name } });
      const after = data(changed);
      try {
        if (
          !t.expect(
            ok(changed) && after !== undefined,
            `updating the name alone: expected 200 with the queue, got ${changed.status}`,
            changed,
          ) ||
          !after
        )
          return;
        t.expect(after.name === name, `the name did not change: ${short(after.name)}`, changed);
        for (const field of Object.keys(queue).filter((f) => f !== 'name' && f !== 'updated_at')) {
          t.expect(
            deepEqual(after[field], queue[field]),
            `${field} changed although only name was sent: ${short(queue[field])} → ${short(after[field])}`,
            changed,
          );
        }
      } finally {
        const restored = await t.call({ body: { name: queue.name } });
        t.expect(ok(restored), `restoring the queue name failed (${restored.status})`, restored);
      }
    });

    // Each value of each enum field, read back from the answer, then the queue as it was; and
    // the documented precedence: with user_id and an email matching no one, user_id is used (the
    // queue's own assignee: nobody else's queue is touched) and the email ignored.
    scenario('dialer-queues.each-value', async (t) => {
      const before = data(await t.call({ body: {} }));
      if (!before) return t.fail('reading the queue through an empty update gave no queue');
      const body = op.requestBody ? t.spec.resolve(op.requestBody.schemaPointer) : undefined;
      const fields = Object.entries(propertiesOf(t.spec.contract, body)).filter(([, s]) => Array.isArray(s.enum));
      try {
        for (const [field, schema] of fields)
          for (const value of (schema.enum as unknown[]).map(String)) {
            const changed = await t.call(
              { body: { [field]: value } },
              documentedHeaders(op, `${t.config.runId}-${field}-${value}`),
            );
            t.expect(
              ok(changed) && data(changed)?.[field] === value,
              `${field} ${value}: expected 200 with ${field} ${value}, got ${changed.status} ${short(data(changed)?.[field])}`,
              changed,
            );
          }
      } finally {
        const restore = Object.fromEntries(fields.map(([f]) => [f, before[f]]).filter(([, v]) => v !== undefined));
        const restored = await t.call({ body: restore });
        t.expect(ok(restored), `restoring ${Object.keys(restore).join(', ')} failed (${restored.status})`, restored);
      }
      const assignee = before.assignee_id;
      if (typeof assignee !== 'string') return;
      const email = `svc-contract-${t.config.runId}@example.invalid`;
      const both = await t.call({ body: { user_id: assignee, email } });
      t.expect(
        ok(both) && data(both)?.assignee_id === assignee,
        `user_id ${assignee} with an email matching no one: user_id wins over email, so expected 200 with that queue, got ${both.status} ${short(data(both)?.assignee_id)}`,
        both,
      );
    });

    scenario('dialer-queues.unknown-assignee', async (t) => {
      const expected = { status: 404, codes: documentedCodes(t.spec, op, 404), why: 'no teammate matches' };
      if (expected.codes.length === 0) return t.skip('the operation documents no 404');
      const [user = ''] = idPrefixes(t.spec.schema('UserId') ?? {});
      t.expectError(await t.call({ body: { user_id: `${user}${UNKNOWN_SUFFIX}` } }), expected, 'an unknown user_id');
      t.expectError(
        await t.call({ body: { email: `svc-contract-${t.config.runId}@example.invalid` } }),
        expected,
        'an unknown email',
      );
    });
  },
});
