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
export async function listed(t: CheckContext): Promise<{ entries: Array<Record<string, unknown>>; last?: Exchange }> {
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

/** The types a custom field may have (CustomFieldType: the enum, beside null, in a oneOf). */
function fieldTypes(t: CheckContext): string[] {
  const schema = t.spec.schema('CustomFieldType');
  const branches = [schema, ...(Array.isArray(schema?.oneOf) ? schema.oneOf : [])].filter(isObject);
  return branches.flatMap((s) =>
    Array.isArray(s.enum) ? s.enum.filter((v): v is string => typeof v === 'string') : [],
  );
}

interface Immutable {
  key: string;
  type: string;
  /** The type change, then the key change, each sent alone. */
  sent: Array<{ body: Record<string, unknown>; exchange: Exchange }>;
  shown?: Record<string, unknown>;
  movedTo?: Record<string, unknown>;
  last?: Exchange;
}

/**
 * Another type, then another key, sent alone to an editable field; the list read after. Whether
 * such a write is refused or ignored is not shown (x-svc-unspecified), so either passes; what no
 * reading allows is the field listed with another type, or under another key. A field a faulty
 * server changed is put back.
 */
async function changeKeyAndType(t: CheckContext): Promise<Immutable> {
  const writable = writableSource(t);
  const field = (await t.fixtures()).customFields.find((f) => typeof f.type === 'string' && writable(f));
  if (!field?.type) return t.skip('no editable custom field with a type (GET /v2/api/crm/attributes)', 'config');
  const type = field.type;
  const other = fieldTypes(t).find((candidate) => candidate !== type);
  if (!other) return t.skip('CustomFieldType names no second type');
  const key = field.key;
  const newKey = `${key}_svc_contract`;
  const sent: Immutable['sent'] = [];
  for (const body of [{ type: other }, { key: newKey }])
    sent.push({ body, exchange: await t.call({ params: { key }, body }, {}, UPDATE) });
  const { entries, last } = await listed(t);
  const shown = entries.find((e) => e.key === key);
  const movedTo = entries.find((e) => e.key === newKey);
  if (shown && shown.type !== type) await t.call({ params: { key }, body: { type } }, {}, UPDATE);
  if (movedTo) await t.call({ params: { key: newKey }, body: { key } }, {}, UPDATE);
  return { key, type, sent, ...(shown ? { shown } : {}), ...(movedTo ? { movedTo } : {}), ...(last ? { last } : {}) };
}

function immutableProblems({ key, type, sent, shown, movedTo, last }: Immutable): Problem[] {
  return [
    ...sent.flatMap(({ body, exchange }) => {
      const answered = ok(exchange) && isObject(exchange.body) ? exchange.body.data : undefined;
      if (!isObject(answered)) return [];
      return unless(
        answered.key === key && answered.type === type,
        `${short(body)} sent to ${key} was answered with key ${short(answered.key)} and type ${short(answered.type)}`,
        exchange,
      );
    }),
    ...unless(
      movedTo === undefined,
      `after ${short({ key: movedTo?.key })} was sent to ${key}, the list shows it under that key`,
      last,
    ),
    ...unless(
      shown !== undefined || movedTo !== undefined,
      `${key} is not in the list after its key and type were sent`,
      last,
    ),
    ...unless(
      shown === undefined || shown.type === type,
      `the list shows ${key} with the type ${short(shown?.type)}, not ${type}: its type changed`,
      last,
    ),
  ];
}

rule({
  id: 'custom-fields.key-and-type-immutable',
  title: "Another key or type sent to a custom field is refused or ignored: the field's key and type never change",
  source:
    'Custom contact field: key "Unique key; immutable", type "…; immutable"; option rules: "key and type cannot be changed."',
  precondition:
    'an editable custom field with a type, sent another type then another key (each alone) before the whole list is read',
  enforces: ['x-svc-option-rules KEY_AND_TYPE_IMMUTABLE'],
  ...statefulWrite(UPDATE),
  requests: changeKeyAndType,
  problems: immutableProblems,
  passed: ({ key, sent }) => ({
    detail: `${key}: ${sent.map(({ body, exchange }) => `${short(body)} ${exchange.status}`).join(', ')}; key and type unchanged`,
    readings: 'refused, or accepted and ignored: not stated (x-svc-unspecified)',
  }),
});
