// Custom fields as the list shows them after a change: a new label shows in the list (each list
// item "shows key, label and type"), and a deleted field is neither listed nor found by its key
// ("404 ATTRIBUTE_NOT_FOUND: no field with this key, or it was deleted"). No operation deletes a
// field, so the deleted ones come from the config (fixtures.deleted_field_keys; a sandbox names
// its own).
import { isObject } from '@svc/spec-runtime';
import { listedCode } from '../expectations/expect.js';
import type { Exchange } from '../http/exchange.js';
import type { ConfigKey } from '../types.js';
import { writableSource } from './custom-field-source.js';
import { type CheckContext, type Problem, rule, statefulWrite } from './harness.js';
import { pagingOf } from './lists-walk.js';
import { errorsOf, unless } from './problems.js';
import { asKey, notObservable, ok, short, teamReaders } from './support.js';

const LIST = 'listCustomFields';
const UPDATE = 'updateCustomField';
const NOT_FOUND = 'ATTRIBUTE_NOT_FOUND';

/** At most this many pages of the list are read (at the largest page size). */
const MAX_PAGES = 25;

/** The whole custom field list, read at the largest page size (by `key`, else the run's): its entries, and the last page's answer. */
export async function listed(
  t: CheckContext,
  key?: ConfigKey,
): Promise<{ entries: Array<Record<string, unknown>>; last?: Exchange }> {
  const names = pagingOf(t.spec, t.op(LIST));
  if (!names) return t.skip(`${LIST} is not a paged list`);
  const entries: Array<Record<string, unknown>> = [];
  let last: Exchange | undefined;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const query = { [names.page]: String(page), [names.size]: t.spec.pageSizeMax };
    last = await t.call({ query }, asKey(key), LIST);
    const body = isObject(last.body) ? last.body : {};
    if (Array.isArray(body.data)) entries.push(...body.data.filter(isObject));
    if (!isObject(body.pagination) || body.pagination.has_more !== true) break;
  }
  return { entries, ...(last ? { last } : {}) };
}

interface Relabel {
  key: string;
  /** The label found, and the new one. */
  was: string;
  label: string;
  changed: Exchange;
  shown?: Record<string, unknown>;
  last?: Exchange;
  restored?: Exchange;
  /** The list as other keys of the team read it, after the change, then after it was put back. */
  others: OtherKeyList[];
}

/** How another key of the team lists the field: `shown` absent where its list does not show it. */
interface OtherKeyList {
  name: string;
  when: 'changed' | 'restored';
  shown?: Record<string, unknown>;
  last?: Exchange;
}

async function otherKeysList(t: CheckContext, readers: ConfigKey[], key: string, when: OtherKeyList['when']) {
  const lists: OtherKeyList[] = [];
  for (const reader of readers) {
    const { entries, last } = await listed(t, reader);
    const shown = entries.find((e) => e.key === key);
    lists.push({ name: reader.name, when, ...(shown ? { shown } : {}), ...(last ? { last } : {}) });
  }
  return lists;
}

/**
 * A label of letters outside ASCII only (Greek, then CJK): "must contain a letter or digit", and
 * CustomFieldLabel says letters and digits of any script count, so a server testing for ASCII
 * letters refuses it.
 */
const OTHER_SCRIPTS_LABEL = 'Ωμέγα座席';

async function relabel(t: CheckContext, labelOf?: (found: string) => string): Promise<Relabel> {
  const writable = writableSource(t);
  const field = (await t.fixtures()).customFields.find(
    (f) => typeof f.label === 'string' && f.label !== '' && writable(f),
  );
  if (!field?.label) return t.skip('no editable custom field with a label (GET /v2/api/crm/attributes)', 'config');
  const label = (labelOf?.(field.label) ?? `${field.label} (svc-contract ${t.config.runId})`).slice(0, maxLabel(t));
  // The team's other keys read the list first, so that a list kept per key shows the old label after.
  const readers = labelOf ? [] : teamReaders(t, t.op(LIST), t.op(UPDATE), '');
  await otherKeysList(t, readers, field.key, 'changed');
  const changed = await t.call({ params: { key: field.key }, body: { label } }, {}, UPDATE);
  const base = { key: field.key, was: field.label, label, changed, others: [] };
  if (!ok(changed)) return base;
  const { entries, last } = await listed(t);
  const shown = entries.find((e) => e.key === field.key);
  const others = await otherKeysList(t, readers, field.key, 'changed');
  const restored = await t.call({ params: { key: field.key }, body: { label: field.label } }, {}, UPDATE);
  if (ok(restored)) others.push(...(await otherKeysList(t, readers, field.key, 'restored')));
  return { ...base, ...(shown ? { shown } : {}), ...(last ? { last } : {}), restored, others };
}

/** Another key of the team listing the field with a label other than the one it holds then. */
function otherKeysProblems({ key, was, label, others }: Relabel): Problem[] {
  return others.flatMap(({ name, when, shown, last }) => {
    const expected = when === 'changed' ? label : was;
    return unless(
      shown === undefined || shown.label === expected,
      `key ${name} of the team lists ${key} with the label ${short(shown?.label)} after it was ${when}, not ${short(expected)}`,
      last,
    );
  });
}

/** The contract's label limit (CustomFieldLabel's maxLength, or an option label's), so that a probe label stays valid. */
function maxLabel(
  t: CheckContext,
  schema: 'CustomFieldLabel' | 'CustomFieldOptionLabel' = 'CustomFieldLabel',
): number | undefined {
  const max = t.spec.schema(schema)?.maxLength;
  return typeof max === 'number' ? max : undefined;
}

function relabelProblems(relabeled: Relabel): Problem[] {
  const { key, label, changed, shown, last, restored } = relabeled;
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
    ...otherKeysProblems(relabeled),
  ];
}

rule({
  id: 'custom-fields.label-listed',
  title:
    "A label changed through PATCH shows in the custom field list, as the team's other keys that may list it read it too (read before the change), and the label put back shows there after",
  source:
    'listCustomFields: "Each list item shows key, label and type"; updateCustomField label: "New display name"; "A key belongs to a single team"',
  precondition:
    "an editable custom field with a label, given a new label before the whole list is read (put back after); the team's other keys that may list the fields (--config) list them before the change, after it and after it is put back",
  ...statefulWrite(UPDATE),
  requests: (t) => relabel(t),
  problems: relabelProblems,
  passed: ({ key }) => `${key}: the new label listed, then restored`,
});

rule({
  id: 'custom-fields.label-any-script',
  title:
    'A label whose letters are all outside ASCII (Greek, CJK) is a label with letters: accepted and listed as sent',
  source:
    'updateCustomField label: "must contain a letter or digit" (CustomFieldLabel: letters and digits of any script count); ATTRIBUTE_LABEL_INVALID "without letter/digit"',
  precondition: `an editable custom field with a label, relabelled ${JSON.stringify(OTHER_SCRIPTS_LABEL)} before the whole list is read (put back after)`,
  ...statefulWrite(UPDATE, 'any-script'),
  requests: (t) => relabel(t, () => OTHER_SCRIPTS_LABEL),
  problems: relabelProblems,
  passed: ({ key, label }) => `${key}: ${JSON.stringify(label)} accepted and listed, then restored`,
});

/** A label of digits alone: "a letter or digit" is met by a digit, so a server requiring a letter refuses it. */
const DIGITS_ONLY_LABEL = '2024';

rule({
  id: 'custom-fields.label-digits-only',
  title: 'A label of digits alone (no letter) is a label with a digit: accepted and listed as sent',
  source: 'updateCustomField label: "must contain a letter or digit"; ATTRIBUTE_LABEL_INVALID "without letter/digit"',
  precondition: `an editable custom field with a label, relabelled ${JSON.stringify(DIGITS_ONLY_LABEL)} before the whole list is read (put back after)`,
  ...statefulWrite(UPDATE, 'digits-only'),
  requests: (t) => relabel(t, () => DIGITS_ONLY_LABEL),
  problems: relabelProblems,
  passed: ({ key, label }) => `${key}: ${JSON.stringify(label)} accepted and listed, then restored`,
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

type Option = { key: string; label: string };

const optionsOf = (entry: Record<string, unknown> | undefined): Option[] | undefined =>
  Array.isArray(entry?.options)
    ? entry.options.filter(isObject).map((o) => ({ key: String(o.key), label: String(o.label) }))
    : undefined;

interface OptionRenamed {
  key: string;
  option: Option;
  label: string;
  changed: Exchange;
  /** The field as the whole list shows it after the rename (the list read before it too). */
  shown?: Record<string, unknown>;
  last?: Exchange;
  restored?: Exchange;
}

/**
 * A dropdown's first option renamed ("send its current key with the new label"), the whole list
 * read before and after: a list kept from an earlier read shows the old label. Put back after.
 */
async function renameOption(t: CheckContext): Promise<OptionRenamed> {
  const writable = writableSource(t);
  const field = (await t.fixtures()).customFields.find((f) => writable(f) && (f.options?.length ?? 0) > 0);
  if (!field) return t.skip('no editable custom field with options (GET /v2/api/crm/attributes)', 'config');
  const options = optionsOf((await listed(t)).entries.find((e) => e.key === field.key));
  // "Each list item shows key, label and type": a list may leave options out, and then shows no rename.
  if (options === undefined)
    return notObservable(t, `the list shows ${field.key} without its options (each item shows key, label and type)`);
  const [option] = options;
  if (!option) return t.skip(`${field.key} lists no options now`, 'config');
  const label = `${option.label} (svc-contract ${t.config.runId})`.slice(0, maxLabel(t, 'CustomFieldOptionLabel'));
  const renamed = options.map((o) => (o.key === option.key ? { key: o.key, label } : o));
  const changed = await t.call({ params: { key: field.key }, body: { options: renamed } }, {}, UPDATE);
  const base = { key: field.key, option, label, changed };
  if (!ok(changed)) return base;
  const { entries, last } = await listed(t);
  const shown = entries.find((e) => e.key === field.key);
  const restored = await t.call({ params: { key: field.key }, body: { options } }, {}, UPDATE);
  return { ...base, ...(shown ? { shown } : {}), ...(last ? { last } : {}), restored };
}

function renamedProblems({ key, option, label, changed, shown, last, restored }: OptionRenamed): Problem[] {
  if (!ok(changed))
    return [
      { message: `renaming option ${option.key} of ${key}: expected 200, got ${changed.status}`, exchange: changed },
    ];
  const listedOption = optionsOf(shown)?.find((o) => o.key === option.key);
  return [
    ...unless(
      listedOption === undefined || listedOption.label === label,
      `the list shows option ${option.key} of ${key} labelled ${short(listedOption?.label)} after it was renamed ${short(label)}`,
      last,
    ),
    ...unless(
      restored === undefined || ok(restored),
      `putting the options of ${key} back failed (${restored?.status})`,
      restored,
    ),
  ];
}

rule({
  id: 'custom-fields.options-listed',
  title:
    'An option renamed through PATCH shows in the custom field list with its new label (the list read before and after)',
  source:
    'updateCustomField options: "Replaces the full option list"; "To rename an option, send its current key with the new label"; listCustomFields options "Present for DROPDOWN fields"',
  precondition:
    'an editable custom field with options, the whole list read (showing its options: where it shows none, skipped as not observable), its first option renamed (its key with a new label), the list read again; the options put back after',
  ...statefulWrite(UPDATE),
  requests: renameOption,
  problems: renamedProblems,
  passed: ({ key, option }) => `${key}: option ${option.key} listed with its new label, then put back`,
});
