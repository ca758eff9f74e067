// Mutants of the gap classes mutation testing of the reference server left (issue 34): each breaks
// its class somewhere other than the handler mutant that showed it, so the check is general: a new
// option given the key of an option kept beside it, a description "cleared" to the blank sent.
// Each is caught by name; and what the description allows still passes (a message quoting the
// failing value in other words). The messages themselves (response.error-message) are read on
// made-up answers in error-message.test.ts: relays blanking a conflict's message or wording a
// write's refusal without its value were caught by name, but their replay (itCatchesEachByName)
// reported them passing, so they are not kept here until the replay of such failures is settled.
import { afterAll, describe, expect, it } from 'vitest';
import { itCatchesEachByName, type Mutant, removeOutputs, runAgainst } from './support/mutants.js';
import { bodyOf, json, type Mutation, mutatingProxy, type ProxiedRequest, pathOf, sandbox } from './support/servers.js';

afterAll(removeOutputs);

const errorIn = (b: Record<string, unknown>) =>
  typeof b.error === 'object' && b.error !== null ? (b.error as Record<string, unknown>) : undefined;

const isFieldUpdate = (q: ProxiedRequest) => q.method === 'PATCH' && pathOf(q).startsWith('/v2/api/crm/attributes/');

/** A new option whose label spells the key of an option sent with its key (a stop aside) is answered with that key. */
const newOptionTakesKeptKey: Mutation = {
  response: (r, q) => {
    if (!isFieldUpdate(q) || r.status !== 200) return r;
    const sent = Array.isArray(bodyOf(q).options) ? (bodyOf(q).options as Array<Record<string, unknown>>) : [];
    const keptKeys = new Set(sent.filter((o) => typeof o.key === 'string').map((o) => o.key as string));
    // The label as a key reads it: without the stop a label may end with.
    const asKey = (label: unknown) => String(label).replace(/[.]+$/, '');
    const spelled = sent.filter((o) => o.key === undefined && keptKeys.has(asKey(o.label)));
    return json(r, (b) => {
      const options = (b.data as { options?: Array<Record<string, unknown>> }).options ?? [];
      for (const o of options) if (spelled.some((s) => s.label === o.label)) o.key = asKey(o.label);
    });
  },
};

/** A description sent blank is answered as the blank sent (not cleared). */
const blankDescriptionKept: Mutation = {
  response: (r, q) => {
    const description = bodyOf(q).description;
    if (!isFieldUpdate(q) || r.status !== 200 || typeof description !== 'string' || description.trim() !== '') return r;
    return json(r, (b) => {
      (b.data as Record<string, unknown>).description = description;
    });
  },
};

const GAPS: Mutant[] = [
  {
    name: "gives a new option whose label spells a kept option's key that same key",
    caughtBy: 'custom-fields.option-rules',
    only: ['custom-fields.option-rules'],
    allowWrites: true,
    mutation: newOptionTakesKeptKey,
  },
  {
    name: 'answers a description sent blank with the blank sent',
    caughtBy: 'custom-fields.description',
    only: ['custom-fields.description'],
    allowWrites: true,
    mutation: blankDescriptionKept,
  },
];

/** Each error message naming a value in param reworded around that value, as sent. */
const messagesInOtherWords: Mutation = {
  response: (r, q) =>
    r.status >= 400
      ? json(r, (b) => {
          const error = errorIn(b);
          if (!error || typeof error.param !== 'string') return;
          const fromBody = bodyOf(q)[error.param];
          const segment = decodeURIComponent(pathOf(q).split('/').at(-1) ?? '');
          const value = typeof fromBody === 'string' ? fromBody : segment;
          error.message = `Refused: the ${error.param} sent was «${value}».`;
        })
      : r,
};

describe('the gap classes mutation testing found: each mutant caught by name', () => {
  itCatchesEachByName(GAPS);

  it('the same subsets pass against the sandbox itself, each check passing', async () => {
    for (const mutant of GAPS) {
      const upstream = await sandbox();
      try {
        const { result, failed } = await runAgainst(upstream, mutant);
        expect(failed, mutant.only.join(',')).toEqual([]);
        const checks = result.report.operations.flatMap((op) => op.checks).filter((c) => c.id === mutant.caughtBy);
        expect(
          checks.map((c) => c.status),
          mutant.caughtBy,
        ).toContain('passed');
        expect(checks.map((c) => c.status)).not.toContain('failed');
      } finally {
        await upstream.close();
      }
    }
  });

  it('a message that quotes the failing value in other words passes', async () => {
    const upstream = await sandbox();
    try {
      const target = await mutatingProxy(upstream, messagesInOtherWords);
      const { failed } = await runAgainst(target, {
        name: 'messages in other words',
        caughtBy: 'response.error-message',
        only: ['threads.duplicate', 'custom-fields.built-in'],
        allowWrites: true,
      });
      expect(failed).toEqual([]);
    } finally {
      await upstream.close();
    }
  });
});
