// Custom contact fields. The option rules come from x-svc-option-rules on the update body: new
// options get a key, options are renamed by key, options missing from the list are removed,
// labels must be unique (ATTRIBUTE_OPTION_INVALID), options only on DROPDOWN fields
// (ATTRIBUTE_OPTIONS_NOT_SUPPORTED). Every scenario puts the field back as it found it, and
// clears leftovers of a run that stopped half-way (options labelled as svc-contract probes).
import { isObject } from '@svc/spec-runtime';
import { type Expected, expectedFor, listedCode, ownCodes } from '../checks/expect.js';
import { type CustomFieldFixture, type Fixtures, need } from '../fixtures.js';
import { constraintId } from '../generate/constraints.js';
import type { Exchange } from '../http/exchange.js';
import type { CheckContext } from './harness.js';
import { documentedHeaders, operationChecks } from './operation-checks.js';
import { data, deepEqual, lengthLimits, ok, short } from './support.js';

const PROBE_LABEL = 'Svc contract probe';

interface OptionRule {
  rule: string;
  error_code?: string;
}

/** The source value of fields created through the service (CustomField.source's example: SVC). */
function ownSource(t: CheckContext): string | undefined {
  const source = t.spec.schema('CustomField')?.properties as Record<string, { examples?: unknown[] }> | undefined;
  const example = source?.source?.examples?.[0];
  return typeof example === 'string' ? example : undefined;
}

function optionRules(t: CheckContext): OptionRule[] {
  const op = t.op('updateCustomField');
  const body = t.spec.resolve(op.requestBody?.schemaPointer ?? '') as
    | { properties?: { options?: { 'x-svc-option-rules'?: OptionRule[] } } }
    | undefined;
  return body?.properties?.options?.['x-svc-option-rules'] ?? [];
}

function ruleCode(t: CheckContext, rule: string): Expected {
  const code = optionRules(t).find((r) => r.rule === rule)?.error_code;
  if (!code) return t.skip(`x-svc-option-rules names no error code for ${rule}`);
  return listedCode(t.spec, t.op('updateCustomField'), code);
}

function editable(t: CheckContext, f: Fixtures): CustomFieldFixture[] {
  const own = ownSource(t);
  return f.customFields.filter((field) => field.source === undefined || field.source === own);
}

/** A probe label of exactly n characters (it starts like every probe, so leftovers are known). */
function probeOfLength(n: number): string {
  return `${PROBE_LABEL} ${'x'.repeat(n)}`.slice(0, n);
}

function dropdown(t: CheckContext, f: Fixtures): CustomFieldFixture {
  return need(
    editable(t, f).find((field) => Array.isArray(field.options)),
    'an editable custom field with options (a DROPDOWN created through the service)',
  );
}

function patch(t: CheckContext, key: string, body: Record<string, unknown>): Promise<Exchange> {
  return t.call({ params: { key }, body }, {}, 'updateCustomField');
}

type Option = { key: string; label: string };

function optionsOf(exchange: Exchange): Option[] | undefined {
  const options = data(exchange)?.options;
  return Array.isArray(options)
    ? options.filter(isObject).map((o) => ({ key: String(o.key), label: String(o.label) }))
    : undefined;
}

/** The field type whose answers must carry options (CustomFieldResponse: if type is DROPDOWN then options). */
function optionTypesOf(t: CheckContext): string[] {
  const data = t.spec.schema('CustomFieldResponse')?.properties;
  const condition = isObject(data) && isObject(data.data) ? data.data.if : undefined;
  const type = isObject(condition) && isObject(condition.properties) ? condition.properties.type : undefined;
  return isObject(type) && typeof type.const === 'string' ? [type.const] : [];
}

operationChecks('listCustomFields', { baseline: () => ({}) });

operationChecks('updateCustomField', {
  // Success is covered by custom-fields.partial-update, which also restores the label.
  success: false,
  baseline: (t, f) => {
    const field = need(
      editable(t, f).find((x) => x.label),
      'an editable custom field with a label',
    );
    return { params: { key: field.key }, body: { label: field.label } };
  },
  scenarios: (op, scenario) => {
    scenario('custom-fields.partial-update', async (t) => {
      const field = need(
        editable(t, await t.fixtures()).find((x) => x.label),
        'an editable custom field with a label',
      );
      // Kept within the contract's label limit (CustomFieldLabel.maxLength), so a long label stays valid.
      const maxLength = t.spec.schema('CustomFieldLabel')?.maxLength;
      const label = `${field.label} (svc-contract)`.slice(0, typeof maxLength === 'number' ? maxLength : undefined);
      const changed = await patch(t, field.key, { label });
      if (!t.expect(ok(changed), `updating the label of ${field.key}: expected 200, got ${changed.status}`, changed))
        return;
      const d = data(changed);
      t.expect(d?.label === label, `the label did not change: ${short(d?.label)}`, changed);
      t.expect(
        d?.key === field.key && d?.type === field.type,
        `key or type changed: ${short({ key: d?.key, type: d?.type })}`,
        changed,
      );
      if (field.options)
        t.expect(
          deepEqual(optionsOf(changed), field.options),
          `the options changed although none were sent: ${short(optionsOf(changed))}`,
          changed,
        );
      const restored = await patch(t, field.key, { label: field.label });
      t.expect(
        ok(restored) && data(restored)?.label === field.label,
        `restoring the label of ${field.key} failed (${restored.status})`,
        restored,
      );
    });

    // "description: a blank value clears it": set, cleared with a blank, put back as it was; each
    // answer read back. Only where the answer shows the description (so the original is known).
    scenario('custom-fields.description', async (t) => {
      const field = need(
        editable(t, await t.fixtures()).find((x) => x.label),
        'an editable custom field with a label',
      );
      let n = 0;
      const send = (description: string) =>
        t.call(
          { params: { key: field.key }, body: { description } },
          documentedHeaders(op, `${t.config.runId}-description-${++n}`),
        );
      const current = data(await patch(t, field.key, { label: field.label }));
      if (!current || !('description' in current))
        return t.skip('the field as answered shows no description, so it could not be put back');
      const original = current.description;
      const probe = `svc-contract ${t.config.runId}`;
      try {
        const set = await send(probe);
        t.expect(
          ok(set) && data(set)?.description === probe,
          `setting the description: got ${set.status} ${short(data(set)?.description)}`,
          set,
        );
        const cleared = await send(' ');
        const left = data(cleared)?.description;
        t.expect(
          ok(cleared) && (left === undefined || left === null || (typeof left === 'string' && left.trim() === '')),
          `a blank description clears it: got ${cleared.status} ${short(left)}`,
          cleared,
        );
      } finally {
        if (typeof original === 'string' && original.trim() !== '') {
          const restored = await send(original);
          t.expect(ok(restored), `restoring the description of ${field.key} failed (${restored.status})`, restored);
        }
      }
    });

    // An option label that breaks its pattern (blank), alone: refused as the contract says.
    scenario({ id: 'negative.pattern', variant: 'option labels' }, async (t) => {
      const list = dropdown(t, await t.fixtures());
      const original = (list.options ?? []).filter((o) => !o.label.startsWith(PROBE_LABEL));
      const request = { params: { key: list.key }, body: { options: [...original, { label: ' ' }] } };
      const expected = expectedFor(t.spec, op, request);
      if (!expected) return t.skip('the contract accepts a blank option label');
      const refused = await t.call(request);
      if (!t.expectError(refused, expected, 'a blank option label') && ok(refused))
        await patch(t, list.key, { options: original });
    });

    // The label limits from inside: a label and an option label of exactly the maximum are accepted.
    scenario({ id: 'boundary.inside', variant: 'labels of exactly the minimum and the maximum' }, async (t) => {
      const f = await t.fixtures();
      const field = need(
        editable(t, f).find((x) => x.label),
        'an editable custom field with a label',
      );
      try {
        for (const { keyword, n } of lengthLimits(t.spec.schema('CustomFieldLabel'))) {
          const label = probeOfLength(n);
          const changed = await patch(t, field.key, { label });
          if (t.expectStatus(changed, (s) => s >= 200 && s < 300, `a label of ${n} characters is inside the limit`))
            t.pass(`label of ${n} characters`, { id: constraintId('body', 'label', keyword, n), side: 'inside' });
        }
      } finally {
        const restored = await patch(t, field.key, { label: field.label });
        t.expect(ok(restored), `restoring the label of ${field.key} failed (${restored.status})`, restored);
      }
      const list = dropdown(t, f);
      const original = (list.options ?? []).filter((o) => !o.label.startsWith(PROBE_LABEL));
      try {
        for (const { keyword, n } of lengthLimits(t.spec.schema('CustomFieldOptionLabel'))) {
          const added = await patch(t, list.key, { options: [...original, { label: probeOfLength(n) }] });
          if (
            t.expectStatus(added, (s) => s >= 200 && s < 300, `an option label of ${n} characters is inside the limit`)
          )
            t.pass(`option label of ${n} characters`, {
              id: constraintId('body', 'options[].label', keyword, n),
              side: 'inside',
            });
        }
      } finally {
        await patch(t, list.key, { options: original });
      }
    });

    // The option label limits from outside (the generated negatives reach only top-level fields).
    scenario({ id: 'negative.too-long', variant: 'option labels' }, async (t) => {
      const list = dropdown(t, await t.fixtures());
      const original = (list.options ?? []).filter((o) => !o.label.startsWith(PROBE_LABEL));
      for (const { keyword, n } of lengthLimits(t.spec.schema('CustomFieldOptionLabel'))) {
        const length = keyword === 'maxLength' ? n + 1 : n - 1;
        const request = {
          params: { key: list.key },
          body: { options: [...original, { label: probeOfLength(length) }] },
        };
        const expected = expectedFor(t.spec, op, request);
        if (!expected) continue;
        const refused = await t.call(request);
        if (t.expectError(refused, expected, `an option label of ${length} characters`))
          t.pass(`option label of ${length} characters`, {
            id: constraintId('body', 'options[].label', keyword, n),
            side: 'outside',
          });
        else if (ok(refused)) await patch(t, list.key, { options: original });
      }
    });

    scenario('custom-fields.option-rules', async (t) => {
      const field = dropdown(t, await t.fixtures());
      const original = (field.options ?? []).filter((o) => !o.label.startsWith(PROBE_LABEL));
      if (original.length !== field.options?.length) await patch(t, field.key, { options: original });
      try {
        // A new option (no key): the others keep their keys and labels, the new one gets a key.
        const added = await patch(t, field.key, { options: [...original, { label: PROBE_LABEL }] });
        if (!t.expect(ok(added), `adding an option: expected 200, got ${added.status}`, added)) return;
        const afterAdd = optionsOf(added) ?? [];
        t.expect(
          deepEqual(afterAdd.slice(0, original.length), original),
          `existing options changed when one was added: ${short(afterAdd)}`,
          added,
        );
        const probe = afterAdd[original.length];
        if (
          !t.expect(
            afterAdd.length === original.length + 1 &&
              probe?.label === PROBE_LABEL &&
              probe.key !== '' &&
              !original.some((o) => o.key === probe.key),
            `the new option did not get a new key: ${short(afterAdd)}`,
            added,
          ) ||
          !probe
        )
          return;
        // Rename by key.
        const renamed = await patch(t, field.key, {
          options: [...original, { key: probe.key, label: `${PROBE_LABEL} renamed` }],
        });
        const afterRename = optionsOf(renamed) ?? [];
        t.expect(
          ok(renamed) &&
            afterRename.length === original.length + 1 &&
            afterRename[original.length]?.key === probe.key &&
            afterRename[original.length]?.label === `${PROBE_LABEL} renamed`,
          `renaming by key did not keep the key or take the label: ${short(afterRename)}`,
          renamed,
        );
        // Missing from the list: removed.
        const removed = await patch(t, field.key, { options: original });
        t.expect(
          ok(removed) && deepEqual(optionsOf(removed), original),
          `an option missing from the list was not removed: ${short(optionsOf(removed))}`,
          removed,
        );
      } finally {
        await patch(t, field.key, { options: original });
      }
    });

    scenario('custom-fields.option-invalid', async (t) => {
      const field = dropdown(t, await t.fixtures());
      const original = (field.options ?? []).filter((o) => !o.label.startsWith(PROBE_LABEL));
      const expected = ruleCode(t, 'LABEL_UNIQUE');
      const duplicated = [...original, { label: PROBE_LABEL }, { label: PROBE_LABEL }];
      const refused = await patch(t, field.key, { options: duplicated });
      if (!t.expectError(refused, expected, 'two options with the same label') && ok(refused))
        await patch(t, field.key, { options: original });
    });

    scenario('custom-fields.options-not-supported', async (t) => {
      // A field of a type that never carries options: the types with options are the one the
      // response schema requires them for, and the ones seen with some. An empty list proves
      // nothing: whether other types show `options: []` is not shown (x-svc-unspecified).
      const fields = editable(t, await t.fixtures());
      const typesWithOptions = new Set([
        ...optionTypesOf(t),
        ...fields.filter((x) => (x.options?.length ?? 0) > 0).map((x) => x.type),
      ]);
      if (typesWithOptions.size === 0)
        return t.skip('no listed field shows options, so which types take them cannot be told', 'config');
      const field = need(
        fields.find((x) => x.type !== null && !typesWithOptions.has(x.type)),
        'an editable custom field of a type without options',
      );
      const refused = await patch(t, field.key, { options: [{ label: PROBE_LABEL }] });
      t.expectError(refused, ruleCode(t, 'DROPDOWN_ONLY'), `options on ${field.key} (${field.type})`);
    });

    scenario('custom-fields.managed-by-integration', async (t) => {
      const own = ownSource(t);
      const field = need(
        (await t.fixtures()).customFields.find((x) => x.source !== undefined && x.source !== own),
        `a custom field synced from an integration (source other than ${own ?? 'the service'})`,
      );
      const refused = await patch(t, field.key, { label: field.label ?? PROBE_LABEL });
      t.expectError(
        refused,
        { status: 409, codes: ownCodes(t.spec, op, 409), why: `${field.key} has source ${field.source}` },
        `updating ${field.key}`,
      );
    });

    scenario('custom-fields.built-in', async (t) => {
      const key = need(
        (await t.fixtures()).builtInFieldKeys[0],
        'a built-in field key (set fixtures.built_in_field_keys, e.g. ["name"])',
      );
      const refused = await patch(t, key, { label: PROBE_LABEL });
      t.expectError(refused, listedCode(t.spec, op, 'ATTRIBUTE_BUILT_IN'), `updating the built-in field ${key}`);
    });
  },
});
