// Custom fields as the list shows them after a change: a new label shows in the list (each list
// item "shows key, label and type"), and a deleted field is neither listed nor found by its key
// ("404 ATTRIBUTE_NOT_FOUND: no field with this key, or it was deleted"). No operation deletes a
// field, so the deleted ones come from the config (fixtures.deleted_field_keys; a sandbox names
// its own).
import { isObject } from '@svc/spec-runtime';
import { listedCode } from '../expectations/expect.js';
import type { Exchange } from '../http/exchange.js';
import { writableSource } from './custom-field-source.js';
import { type CheckContext, type Problem, rule, statefulWrite } from './harness.js';
import { pagingOf } from './lists-walk.js';
import { errorsOf, unless } from './problems.js';
import { ok, short } from './support.js';

const LIST = 'listCustomFields';
const UPDATE = 'updateCustomField';
const NOT_FOUND = 'ATTRIBUTE_NOT_FOUND';

/** At most this many pages of the list are read (at the largest page size). */
const MAX_PAGES = 25;

/** The whole custom field list, read at the largest page size: its entries, and the last page's answer. */
async function listed(t: CheckContext): Promise<{ entries: Array<Record<string, unknown>>; last?: Exchange }> {
  const names = pagingOf(t.spec, t.op(LIST));
  if (!names) return t.skip(`${LIST} is not a paged list`);
  const entries: Array<Record<string, unknown>> = [];
  let last: Exchange | undefined;
  for (let page = 1; page <= MAX_PAGES; page++) {
    last = await t.call({ query: { [names.page]: String(page), [names.size]: t.spec.pageSizeMax } }, {}, LIST);
    const body = isObject(last.body) ? last.body : {};
    if (Array.isArray(body.data)) entries.push(...body.data.filter(isObject));
    if (!isObject(body.pagination) || body.pagination.has_more !== true) break;
  }
  return { entries, ...(last ? { last } : {}) };
}

interface Relabel {
  key: string;
  label: string;
  changed: Exchange;
  shown?: Record<string, unknown>;
  last?: Exchange;
  restored?: Exchange;
}

async function relabel(t: CheckContext): Promise<Relabel> {
  const writable = writableSource(t);
  const field = (await t.fixtures()).customFields.find(
    (f) => typeof f.label === 'string' && f.label !== '' && writable(f),
  );
  if (!field?.label) return t.skip('no editable custom field with a label (GET /v2/api/crm/attributes)', 'config');
  const label = `${field.label} (svc-contract ${t.config.runId})`.slice(0, maxLabel(t));
  const changed = await t.call({ params: { key: field.key }, body: { label } }, {}, UPDATE);
  if (!ok(changed)) return { key: field.key, label, changed };
  const { entries, last } = await listed(t);
  const shown = entries.find((e) => e.key === field.key);
  const restored = await t.call({ params: { key: field.key }, body: { label: field.label } }, {}, UPDATE);
  return { key: field.key, label, changed, ...(shown ? { shown } : {}), ...(last ? { last } : {}), restored };
}

/** The contract's label limit (CustomFieldLabel.maxLength), so that the probe label stays valid. */
function maxLabel(t: CheckContext): number | undefined {
  const max = t.spec.schema('CustomFieldLabel')?.maxLength;
  return typeof max === 'number' ? max : undefined;
}

function relabelProblems({ key, label, changed, shown, last, restored }: Relabel): Problem[] {
  if (!ok(changed))
    return [{ message: `changing the label of ${key}: expected 200, got ${changed.status}`, exchange: changed }];
  return [
    ...unless(shown !== undefined, `${key} is not in the list after its label changed`, last),
    ...unless(
      shown === undefined || shown.label === label,
      `the list shows ${key} with the label ${short(shown?.label)}, not the new ${short(label)}`,
      last,
    ),
    ...unless(
      restored !== undefined && ok(restored),
      `restoring the label of ${key} failed (${restored?.status})`,
      restored,
    ),
  ];
}

rule({
  id: 'custom-fields.label-listed',
  title: 'A label changed through PATCH shows in the custom field list',
  source: 'listCustomFields: "Each list item shows key, label and type"; updateCustomField label: "New display name"',
  precondition:
    'an editable custom field with a label, given a new label before the whole list is read (put back after)',
  ...statefulWrite(UPDATE),
  requests: relabel,
  problems: relabelProblems,
  passed: ({ key }) => `${key}: the new label listed, then restored`,
});

interface Deleted {
  keys: string[];
  patched: Array<{ key: string; exchange: Exchange }>;
  entries: Array<Record<string, unknown>>;
  last?: Exchange;
}

async function addressDeleted(t: CheckContext): Promise<Deleted> {
  const keys = t.config.config.fixtures.deleted_field_keys ?? [];
  if (keys.length === 0)
    return t.skip(
      'no deleted custom field named (fixtures.deleted_field_keys): the API deletes none, so only a server that has one can name it',
      'option',
    );
  const patched: Deleted['patched'] = [];
  // An empty update: were the field found, nothing of it would change.
  for (const key of keys) patched.push({ key, exchange: await t.call({ params: { key }, body: {} }, {}, UPDATE) });
  return { keys, patched, ...(await listed(t)) };
}

function deletedProblems(t: CheckContext, { keys, patched, entries, last }: Deleted): Problem[] {
  const expected = { ...listedCode(t.spec, t.op(UPDATE), NOT_FOUND), why: 'the field was deleted' };
  const listedKeys = new Set(entries.map((e) => e.key));
  return [
    ...patched.flatMap(({ key, exchange }) => errorsOf(exchange, expected, `PATCH the deleted field ${key}`)),
    ...keys.flatMap((key) => unless(!listedKeys.has(key), `the deleted field ${key} is listed`, last)),
  ];
}

rule({
  id: 'custom-fields.deleted',
  title: 'A deleted custom field (named in --config) is 404 ATTRIBUTE_NOT_FOUND by its key and not listed',
  source: 'updateCustomField 404 ATTRIBUTE_NOT_FOUND: "no field with this key, or it was deleted"',
  precondition: 'a custom field the team deleted (fixtures.deleted_field_keys: no operation deletes one)',
  ...statefulWrite(UPDATE),
  requests: addressDeleted,
  problems: (state, t) => deletedProblems(t, state),
  passed: ({ keys }) => `${keys.join(', ')}: not found by key, not listed`,
});
