// Custom contact fields. The option rules come from x-svc-option-rules on the update body: new
// options get a key, options are renamed by key, options missing from the list are removed,
// labels must be unique (ATTRIBUTE_OPTION_INVALID), options only on DROPDOWN fields
// (ATTRIBUTE_OPTIONS_NOT_SUPPORTED). Every scenario puts the field back as it found it, and
// clears leftovers of a run that stopped half-way (options labelled as svc-contract probes).
import { isObject, propertiesOf } from '@svc/spec-runtime';
import { type Expected, errorProblems, expectedFor, listedCode, ownCodes } from '../expectations/expect.js';
import { type CustomFieldFixture, type Fixtures, need } from '../fixtures.js';
import { textOfLength } from '../generate/boundaries.js';
import { constraintId } from '../generate/constraints.js';
import { type Exchange, errorOf } from '../http/exchange.js';
import { operationResponseRules } from '../reach/response-rules.js';
import { ownSource, writableSource } from './custom-field-source.js';
import { listed } from './custom-fields-listed.contract.js';
import { type CheckContext, type Held, type Problem, rule, statefulWrite } from './harness.js';
import { bodyParamProblem } from './negative-param.js';
import { documentedHeaders, operationChecks } from './operation-checks.js';
import { BOUNDARY_INSIDE, NEGATIVE_CHECKS } from './operation-inputs.js';
import { errorsOf, isSuccess, statusIs, unless } from './problems.js';
import { data, deepEqual, lengthLimits, notObservable, ok, short } from './support.js';

const PROBE_LABEL = 'Svc contract probe';

interface OptionRule {
  rule: string;
  error_code?: string;
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
  return f.customFields.filter(writableSource(t));
}

/** A probe label of exactly n characters (it starts like every probe, so leftovers are known). */
function probeOfLength(n: number): string {
  return textOfLength(`${PROBE_LABEL} `, n);
}

function dropdown(t: CheckContext, f: Fixtures): CustomFieldFixture {
  return need(
    editable(t, f).find((field) => Array.isArray(field.options)),
    'an editable custom field with options (a DROPDOWN created through the service)',
  );
}

/**
 * An editable field with a label, the one whose list entry shows a description first: the checks of
 * what a label leaves untouched and of a cleared description need one shown, and the list's order is
 * not stated, so the first field listed may well show none.
 */
function labelled(t: CheckContext, f: Fixtures): CustomFieldFixture {
  const candidates = editable(t, f).filter((x) => x.label);
  return need(
    candidates.find((x) => typeof x.description === 'string' && x.description.trim() !== '') ?? candidates[0],
    'an editable custom field with a label',
  );
}

/** A field's options without the probes a run that stopped half-way left. */
function ownOptions(field: CustomFieldFixture): Option[] {
  return (field.options ?? []).filter((o) => !o.label.startsWith(PROBE_LABEL));
}

const OP = 'updateCustomField';

function patch(t: CheckContext, key: string, body: Record<string, unknown>): Promise<Exchange> {
  return t.call({ params: { key }, body }, {}, OP);
}

type Option = { key: string; label: string };

function optionsOf(exchange: Exchange): Option[] | undefined {
  const options = data(exchange)?.options;
  return Array.isArray(options)
    ? options.filter(isObject).map((o) => ({ key: String(o.key), label: String(o.label) }))
    : undefined;
}

operationChecks('listCustomFields', { baseline: () => ({}) });

operationChecks(OP, {
  // Success is covered by custom-fields.partial-update, which also restores the label.
  success: false,
  baseline: (t, f) => {
    const field = labelled(t, f);
    return { params: { key: field.key }, body: { label: field.label } };
  },
});

interface LabelChange {
  field: CustomFieldFixture;
  label: string;
  /** The description set first (a value a field reset by a faulty merge would not hold), as answered. */
  primed?: Exchange;
  probe: string;
  changed: Exchange;
  /** The description put back alone, straight after the label changed: an update after an update. */
  followed?: Exchange;
  restored?: Exchange;
}

/** A description as an answer shows it; undefined where the answer does not show one (the 200 need not). */
const descriptionOf = (exchange: Exchange | undefined): unknown =>
  exchange && isObject(data(exchange)) && 'description' in (data(exchange) as object)
    ? data(exchange)?.description
    : undefined;

/** The description sent before the label alone is kept (where the answer to setting it showed it: then an answer without it lost it). */
function keptDescription({ primed, probe, changed }: LabelChange): Problem[] {
  if (descriptionOf(primed) !== probe) return [];
  return unless(
    descriptionOf(changed) === probe,
    `the description changed although only the label was sent: ${short(descriptionOf(changed))}`,
    changed,
  );
}

/** The label the update before wrote is kept by the next update, which sends the description alone. */
function keptLabel({ label, followed }: LabelChange): Problem[] {
  if (!followed) return [];
  return unless(
    ok(followed) && data(followed)?.label === label,
    `a later update sending the description alone left the label ${short(data(followed)?.label)}, not ${short(label)} as the update before set it (${followed.status})`,
    followed,
  );
}

function partialUpdateProblems(change: LabelChange): Problem[] {
  const { field, label, changed, restored } = change;
  if (!ok(changed) || !restored)
    return [{ message: `updating the label of ${field.key}: expected 200, got ${changed.status}`, exchange: changed }];
  const d = data(changed);
  return [
    ...unless(d?.label === label, `the label did not change: ${short(d?.label)}`, changed),
    ...unless(
      d?.key === field.key && d?.type === field.type,
      `key or type changed: ${short({ key: d?.key, type: d?.type })}`,
      changed,
    ),
    ...(field.options
      ? unless(
          deepEqual(optionsOf(changed), field.options),
          `the options changed although none were sent: ${short(optionsOf(changed))}`,
          changed,
        )
      : []),
    ...keptDescription(change),
    ...keptLabel(change),
    ...unless(
      ok(restored) && data(restored)?.label === field.label,
      `restoring the label of ${field.key} failed (${restored.status})`,
      restored,
    ),
  ];
}

/** The field's label with a mark of the run's, kept within the contract's label limit (CustomFieldLabel.maxLength). */
function probeLabel(t: CheckContext, field: CustomFieldFixture): string {
  const maxLength = t.spec.schema('CustomFieldLabel')?.maxLength;
  return `${field.label} (svc-contract)`.slice(0, typeof maxLength === 'number' ? maxLength : undefined);
}

async function changeLabelAlone(t: CheckContext): Promise<LabelChange> {
  const field = labelled(t, await t.fixtures());
  const label = probeLabel(t, field);
  // The precondition: a description that a reset or a merge writing defaults would not keep. Only
  // where the answer shows the description, so that the one it had can be put back.
  const original = descriptionOf(await patch(t, field.key, { label: field.label }));
  const probe = `svc-contract ${t.config.runId} kept`;
  const shown = original === null || typeof original === 'string';
  const primed = shown ? await patch(t, field.key, { description: probe }) : undefined;
  const changed = await patch(t, field.key, { label });
  const base = { field, label, ...(primed ? { primed } : {}), probe, changed };
  if (!ok(changed)) return base;
  // Put back: the description as it was ("a blank value clears it"), alone first, so that a second
  // update follows the label's (a server writing a stale copy back would lose the label there);
  // then the label, with the description again (whatever became of the first put-back).
  const description = typeof original === 'string' && original.trim() !== '' ? original : ' ';
  const followed = shown ? await patch(t, field.key, { description }) : undefined;
  const restored = await patch(t, field.key, { label: field.label, ...(shown ? { description } : {}) });
  return { ...base, ...(followed ? { followed } : {}), restored };
}

// The label sent alone changes the label and nothing else (a description set first is kept); both are put back.
rule({
  id: 'custom-fields.partial-update',
  title:
    'Only the fields sent change: the label sent alone keeps the options and a description set first, and the description sent alone next keeps the new label',
  source: 'UpdateCustomFieldRequest',
  enforces: [
    // These two added by the full sentence audit of partial updates and x-svc-response-rules (issue 24, item 5).
    'x-svc-merge-rules custom-field merged',
    'x-svc-merge-rules custom-field replaced',
  ],
  precondition:
    "the fields the label leaves untouched hold values a faulty reset would not write: the field's options, and a description set first (where the answers show it); then an update after the label's, sending the description alone",
  ...statefulWrite(OP),
  requests: changeLabelAlone,
  problems: partialUpdateProblems,
  notReached: (s) =>
    (s.field.options?.length ?? 0) > 0 || descriptionOf(s.primed) === s.probe
      ? undefined
      : `${s.field.key} has no options and the answers show no description, so nothing left out held a value a reset would not write`,
  passed: (s) =>
    descriptionOf(s.primed) === s.probe
      ? 'label changed alone; the description set first was kept'
      : 'label changed alone; the description kept: not exercised (the answers show no description)',
});

interface DescriptionClear {
  field: CustomFieldFixture;
  probe: string;
  /** The label sent with the description (both fields in one update: each must be applied). */
  label: string;
  set: Exchange;
  /** The field's list entry after the description was set, and after it was cleared. */
  listedSet?: Listed;
  listedCleared?: Listed;
  cleared: Exchange;
  restored?: Exchange;
}

type Listed = { entry?: Record<string, unknown>; last?: Exchange };

/** The field's entry in the whole list (a description a list shows must be the field's current one). */
async function listedEntry(t: CheckContext, key: string): Promise<Listed> {
  const { entries, last } = await listed(t);
  const entry = entries.find((e) => e.key === key);
  return { ...(entry ? { entry } : {}), ...(last ? { last } : {}) };
}

async function setAndClearDescription(t: CheckContext): Promise<DescriptionClear> {
  const field = labelled(t, await t.fixtures());
  let n = 0;
  const send = (description: string, extra: Record<string, unknown> = {}) =>
    t.call(
      { params: { key: field.key }, body: { description, ...extra } },
      documentedHeaders(t.op(), `${t.config.runId}-description-${++n}`),
    );
  // The update's answer need not show the description ("with key, label, type, options, source");
  // the list may ("each list item shows key, label and type"): the one it had is read from either.
  const answered = await patch(t, field.key, { label: field.label });
  const listedBefore = answerShowsDescription(answered) ? undefined : (await listedEntry(t, field.key)).entry;
  if (listedBefore && !('description' in listedBefore))
    return notObservable(t, `neither the update's answer nor the list shows the description of ${field.key}`);
  const original = listedBefore ? listedBefore.description : data(answered)?.description;
  const probe = `svc-contract ${t.config.runId}`;
  // Set with a new label in the same update, cleared with the label put back: both fields applied each time.
  const label = probeLabel(t, field);
  const set = await send(probe, { label });
  const listedSet = await listedEntry(t, field.key);
  const cleared = await send(' ', { label: field.label });
  const listedCleared = await listedEntry(t, field.key);
  const base = { field, probe, label, set, listedSet, cleared, listedCleared };
  if (typeof original !== 'string' || original.trim() === '') return base;
  return { ...base, restored: await send(original) };
}

const answerShowsDescription = (exchange: Exchange) =>
  isObject(data(exchange)) && 'description' in (data(exchange) as object);

/** "A blank value clears it": a cleared description is absent, null or empty, never the blank sent. */
const isCleared = (value: unknown) => value === undefined || value === null || value === '';

/** Both fields of one update applied: the list shows the label sent with the description. */
function labelSentWith({ label, set, listedSet }: DescriptionClear): Problem[] {
  const shown = listedSet?.entry?.label;
  return unless(
    !ok(set) || shown === undefined || shown === label,
    `the label ${short(label)} and a description sent in one update: the list shows the label ${short(shown)}`,
    listedSet?.last,
  );
}

function descriptionProblems(clear: DescriptionClear): Problem[] {
  return [...ownDescriptionProblems(clear), ...labelSentWith(clear)];
}

function ownDescriptionProblems({
  field,
  probe,
  set,
  listedSet,
  cleared,
  listedCleared,
  restored,
}: DescriptionClear): Problem[] {
  const left = data(cleared)?.description;
  const blank = isCleared(left);
  // The list need not show a description ("each list item shows key, label and type"); one it shows is the current one.
  const shownSet = listedSet?.entry?.description;
  const shownCleared = listedCleared?.entry?.description;
  // The description set, as the answer shows it, else as the list does.
  const setInAnswer = answerShowsDescription(set);
  const seenSet = setInAnswer ? data(set)?.description : shownSet;
  return [
    ...unless(
      !ok(set) || shownSet === undefined || shownSet === probe,
      `the list shows ${field.key} with the description ${short(shownSet)} after ${short(probe)} was set`,
      listedSet?.last,
    ),
    ...unless(
      !ok(cleared) || isCleared(shownCleared),
      `the list shows ${field.key} with the description ${short(shownCleared)} after a blank value cleared it`,
      listedCleared?.last,
    ),
    ...unless(
      ok(set) && seenSet === probe,
      `setting the description: got ${set.status} ${short(seenSet)}${setInAnswer ? '' : ' (as listed: the answer shows no description)'}`,
      setInAnswer ? set : (listedSet?.last ?? set),
    ),
    ...unless(ok(cleared) && blank, `a blank description clears it: got ${cleared.status} ${short(left)}`, cleared),
    ...(restored
      ? unless(ok(restored), `restoring the description of ${field.key} failed (${restored.status})`, restored)
      : []),
  ];
}

// "description: a blank value clears it": set, cleared with a blank, put back as it was; each
// answer read back. Only where the answer or the list shows the description (so the original is known).
rule({
  id: 'custom-fields.description',
  title:
    'A description is set, and a blank value clears it ("description: settable on update; a blank value clears it"): read back absent, null or empty, never the blank sent; a label sent in the same update is applied too',
  source: 'UpdateCustomFieldRequest x-svc-input-rules blank-clears',
  precondition:
    'an editable field whose answers or list entry show its description (set, then cleared, then put back; where neither shows it, skipped as not observable)',
  enforces: ['x-svc-input-rules blank-clears description'],
  ...statefulWrite(OP),
  requests: setAndClearDescription,
  problems: descriptionProblems,
});

/** A refusal the contract expects, beside the answer (a wrongly accepted change is undone at once). */
interface Refusal {
  label: string;
  expected: Expected;
  refused: Exchange;
}

async function refuseOrUndo(
  t: CheckContext,
  field: CustomFieldFixture,
  body: Record<string, unknown>,
  expected: Expected,
) {
  const refused = await patch(t, field.key, body);
  if (errorProblems(refused, expected).length > 0 && ok(refused))
    await patch(t, field.key, { options: ownOptions(field) });
  return refused;
}

const refusalProblems = ({ refused, expected, label }: Refusal) => errorsOf(refused, expected, label);

// An option label that breaks its pattern (blank), alone: refused as the contract says.
rule({
  ...NEGATIVE_CHECKS['negative.pattern'],
  ...statefulWrite(OP, 'option labels'),
  requests: async (t): Promise<Refusal> => {
    const list = dropdown(t, await t.fixtures());
    const body = { options: [...ownOptions(list), { label: ' ' }] };
    const expected = expectedFor(t.spec, t.op(), { params: { key: list.key }, body });
    if (!expected) return t.skip('the contract accepts a blank option label');
    return { label: 'a blank option label', expected, refused: await refuseOrUndo(t, list, body, expected) };
  },
  problems: refusalProblems,
});

/** A label (or option label) of a length at a documented limit, and its answer. */
interface LimitCase {
  what: string;
  detail: string;
  constraint: Held['constraint'];
  exchange: Exchange;
}

/** A label of exactly each limit on a labelled field, then the label put back. */
async function labelsAtLimits(t: CheckContext, field: CustomFieldFixture) {
  const cases: LimitCase[] = [];
  for (const { keyword, n } of lengthLimits(t.spec.schema('CustomFieldLabel'))) {
    const exchange = await patch(t, field.key, { label: probeOfLength(n) });
    const constraint = { id: constraintId('body', 'label', keyword, n), side: 'inside' as const };
    cases.push({ what: `a label of ${n} characters`, detail: `label of ${n} characters`, constraint, exchange });
  }
  return { cases, restored: await patch(t, field.key, { label: field.label }) };
}

/** An option label of exactly each limit added to a dropdown, then its options put back. */
async function optionLabelsAtLimits(t: CheckContext, list: CustomFieldFixture): Promise<LimitCase[]> {
  const cases: LimitCase[] = [];
  for (const { keyword, n } of lengthLimits(t.spec.schema('CustomFieldOptionLabel'))) {
    const exchange = await patch(t, list.key, { options: [...ownOptions(list), { label: probeOfLength(n) }] });
    const constraint = { id: constraintId('body', 'options[].label', keyword, n), side: 'inside' as const };
    cases.push({
      what: `an option label of ${n} characters`,
      detail: `option label of ${n} characters`,
      constraint,
      exchange,
    });
  }
  await patch(t, list.key, { options: ownOptions(list) });
  return cases;
}

const insideProblems = (c: LimitCase) => statusIs(c.exchange, isSuccess, `${c.what} is inside the limit`);

// The label limits from inside: a label and an option label of exactly the minimum and the
// maximum are accepted. Without a dropdown, the labels alone (as a pass of their own).
rule({
  ...BOUNDARY_INSIDE,
  ...statefulWrite(OP, 'labels of exactly the minimum and the maximum'),
  requests: async (t) => {
    const f = await t.fixtures();
    const labels = await labelsAtLimits(t, labelled(t, f));
    const list = editable(t, f).find((field) => Array.isArray(field.options));
    const options = list ? await optionLabelsAtLimits(t, list) : [];
    return { field: labelled(t, f), cases: [...labels.cases, ...options], restored: labels.restored };
  },
  problems: ({ field, cases, restored }) => [
    ...cases.flatMap(insideProblems),
    ...unless(ok(restored), `restoring the label of ${field.key} failed (${restored.status})`, restored),
  ],
  held: ({ cases }) =>
    cases.filter((c) => insideProblems(c).length === 0).map((c) => ({ detail: c.detail, constraint: c.constraint })),
});

interface OutsideCase extends Refusal {
  constraint: Held['constraint'];
  length: number;
  /** Where the label broken stands in the body. */
  broken: Array<string | number>;
}

/** What is wrong with the param of a refusal (the option broken, counted from 0), if anything. */
function paramOf(refused: Exchange, broken: Array<string | number>): string | undefined {
  const param = errorOf(refused)?.param;
  if (typeof param !== 'string') return undefined;
  const why = bodyParamProblem(param, broken, ['label', 'description', 'options']);
  return why && `${JSON.stringify(param.slice(0, 100))} ${why}`;
}

// The option label limits from outside (the generated negatives reach only top-level fields).
rule({
  ...NEGATIVE_CHECKS['negative.too-long'],
  ...statefulWrite(OP, 'option labels'),
  requests: async (t) => {
    const list = dropdown(t, await t.fixtures());
    const cases: OutsideCase[] = [];
    for (const { keyword, n } of lengthLimits(t.spec.schema('CustomFieldOptionLabel'))) {
      const length = keyword === 'maxLength' ? n + 1 : n - 1;
      const constraint = { id: constraintId('body', 'options[].label', keyword, n), side: 'outside' as const };
      const [kept, ...others] = ownOptions(list);
      // A new option's label, and a kept option renamed: the limit is on every label sent.
      const sent = [
        { what: 'a new option', options: [...ownOptions(list), { label: probeOfLength(length) }] },
        ...(kept
          ? [
              {
                what: `the option ${kept.key} renamed`,
                options: [{ ...kept, label: probeOfLength(length) }, ...others],
              },
            ]
          : []),
      ];
      for (const [index, { what, options }] of sent.entries()) {
        const body = { options };
        const expected = expectedFor(t.spec, t.op(), { params: { key: list.key }, body });
        if (!expected) continue;
        const refused = await refuseOrUndo(t, list, body, expected);
        // The entry broken: the new option, last; the renamed one, first.
        const broken = ['options', index === 0 ? options.length - 1 : 0, 'label'];
        const label = `${what}, its label of ${length} characters`;
        cases.push({ label, expected, refused, constraint, length, broken });
      }
    }
    return cases;
  },
  problems: (cases) =>
    cases.flatMap((c) => {
      const refused = refusalProblems(c);
      const why = refused.length === 0 ? paramOf(c.refused, c.broken) : undefined;
      return why ? [...refused, { message: `${c.label}: error.param ${why}`, exchange: c.refused }] : refused;
    }),
  held: (cases) =>
    cases
      .filter((c) => refusalProblems(c).length === 0)
      .map((c) => ({ detail: `option label of ${c.length} characters`, constraint: c.constraint })),
});

interface OptionEdits {
  original: Option[];
  added: Exchange;
  /** New options added together (where the field has an option to keep). */
  together?: NewOptions;
  /** The new option, where it got a key of its own. */
  probe?: Option;
  renamed?: Exchange;
  /** A new option given the label the rename freed: labels are unique among the options as they are now. */
  reused?: Exchange;
  removed?: Exchange;
  /** The label sent alone after the new option was added, and after the removal: the options stay as last written. */
  labelAfterAdd?: Exchange;
  labelAfter?: Exchange;
}

/** The new option (no key sent) as answered, if it is the one expected after the others. */
function newOption(original: Option[], added: Exchange): Option | undefined {
  const after = optionsOf(added) ?? [];
  const probe = after[original.length];
  const fresh =
    after.length === original.length + 1 &&
    probe?.label === PROBE_LABEL &&
    probe.key !== '' &&
    !original.some((o) => o.key === probe.key);
  return fresh ? probe : undefined;
}

async function editOptions(t: CheckContext): Promise<OptionEdits> {
  const field = dropdown(t, await t.fixtures());
  const original = ownOptions(field);
  if (original.length !== field.options?.length) await patch(t, field.key, { options: original });
  const added = await patch(t, field.key, { options: [...original, { label: PROBE_LABEL }] });
  const probe = ok(added) ? newOption(original, added) : undefined;
  if (!probe) {
    await patch(t, field.key, { options: original });
    return { original, added };
  }
  // The label sent alone while the options differ from those the field had: they stay as last written.
  const labelAfterAdd = field.label === null ? undefined : await patch(t, field.key, { label: field.label });
  const renamed = await patch(t, field.key, {
    options: [...original, { key: probe.key, label: `${PROBE_LABEL} renamed` }],
  });
  const reused = await patch(t, field.key, {
    options: [...original, { key: probe.key, label: `${PROBE_LABEL} renamed` }, { label: PROBE_LABEL }],
  });
  const removed = await patch(t, field.key, { options: original });
  const labelAfter = field.label === null ? undefined : await patch(t, field.key, { label: field.label });
  const together = await newOptionsTogether(t, field.key, original, probe.key);
  return {
    original,
    added,
    probe,
    renamed,
    reused,
    removed,
    ...(labelAfterAdd ? { labelAfterAdd } : {}),
    ...(labelAfter ? { labelAfter } : {}),
    ...(together ? { together } : {}),
  };
}

/** Options added in one request where the single probe never reaches the rules' preconditions. */
interface NewOptions {
  original: Option[];
  /** The kept option whose key the first new option's label spells. */
  kept: Option;
  /** The new options sent: the key's spelling, a second without a key, one with a key no option holds, the probe's label again. */
  sent: Array<{ label: string; key?: string }>;
  answer: Exchange;
  /** The key the probe's label got when it was sent alone. */
  probeKey: string;
}

/** A key no option holds, sharing nothing with the label sent beside it. */
const UNMATCHED_KEY = 'zq_no_such_option';
const sameLabel = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * "An option sent without a matching key is new and gets a key derived from its label", however many
 * are sent, and keys identify options: a label spelling a kept option's key (where a key is derived
 * from a label, it derives to that key), a second new option, one sent with a key no option holds, and
 * last the probe's label again, removed since: its key is derived from its own label as when it was
 * sent alone, not from the first new label of the request.
 */
async function newOptionsTogether(
  t: CheckContext,
  key: string,
  original: Option[],
  probeKey: string,
): Promise<NewOptions | undefined> {
  const kept = original[0];
  if (!kept || original.some((o) => o.key === UNMATCHED_KEY)) return undefined;
  // The key itself, unless a label already reads so (labels must be unique): then with a stop.
  const spelling = original.some((o) => sameLabel(o.label, kept.key)) ? `${kept.key}.` : kept.key;
  const sent = [
    { label: spelling },
    { label: `${PROBE_LABEL} one` },
    { key: UNMATCHED_KEY, label: `${PROBE_LABEL} two` },
    { label: PROBE_LABEL },
  ];
  const answer = await patch(t, key, { options: [...original, ...sent] });
  await patch(t, key, { options: original });
  return { original, kept, sent, answer, probeKey };
}

/**
 * A key derived from the label it was derived from before: holding that key's stem (a suffix such as
 * _2, which a key taken at the time adds, left out), whatever the server adds around it.
 */
function derivedAlike(key: string | undefined, before: string): boolean {
  const stem = before.replace(/[_-]?\d+$/, '');
  return key?.includes(stem === '' ? before : stem) ?? false;
}

/** Every option kept as it was, each new one present once, keys non-empty and distinct, the unmatched key not kept. */
function newOptionsProblems({ original, kept, sent, answer, probeKey }: NewOptions): Problem[] {
  const what = `adding ${sent.length} options in one request (${short(sent)})`;
  if (!ok(answer)) return [{ message: `${what}: expected 200, got ${answer.status}`, exchange: answer }];
  const after = optionsOf(answer) ?? [];
  const keys = after.map((o) => o.key);
  const lost = original.filter((o) => !after.some((a) => a.key === o.key && a.label === o.label));
  const fresh = sent.map((s) =>
    after.filter((a) => a.label === s.label.trim() && !original.some((o) => o.key === a.key)),
  );
  const unmatched = fresh[2]?.[0];
  const probeAgain = fresh[3]?.[0];
  return [
    ...unless(
      lost.length === 0,
      `${what}: kept options lost their key or label (${short(lost)}; ${kept.key} was spelled as a new label): ${short(after)}`,
      answer,
    ),
    ...unless(
      fresh.every((f) => f.length === 1) && after.length === original.length + sent.length,
      `${what}: expected each new option once beside the ${original.length} kept: ${short(after)}`,
      answer,
    ),
    ...unless(
      new Set(keys).size === keys.length && keys.every((k) => k !== ''),
      `${what}: options share a key or have an empty one: ${short(keys)}`,
      answer,
    ),
    ...unless(
      unmatched === undefined || unmatched.key !== UNMATCHED_KEY,
      `${what}: the option sent with key ${UNMATCHED_KEY}, which matches no current option, kept it instead of getting a key derived from its label`,
      answer,
    ),
    ...unless(
      probeAgain === undefined || derivedAlike(probeAgain.key, probeKey),
      `${what}: the new option ${short(PROBE_LABEL)} got the key ${short(probeAgain?.key)}, not one derived from its label as when it was sent alone (${probeKey}): is it derived from another new option's label?`,
      answer,
    ),
  ];
}

function optionEditProblems(edits: OptionEdits): Problem[] {
  return [...singleEditProblems(edits), ...(edits.together ? newOptionsProblems(edits.together) : [])];
}

function singleEditProblems(edits: OptionEdits): Problem[] {
  const { original, added, probe, renamed, reused, removed, labelAfterAdd, labelAfter } = edits;
  if (!ok(added)) return [{ message: `adding an option: expected 200, got ${added.status}`, exchange: added }];
  const afterAdd = optionsOf(added) ?? [];
  const kept = unless(
    deepEqual(afterAdd.slice(0, original.length), original),
    `existing options changed when one was added: ${short(afterAdd)}`,
    added,
  );
  if (!probe || !renamed || !removed)
    return [...kept, { message: `the new option did not get a new key: ${short(afterAdd)}`, exchange: added }];
  const afterRename = optionsOf(renamed) ?? [];
  const entry = afterRename[original.length];
  return [
    ...kept,
    ...unless(
      ok(renamed) &&
        afterRename.length === original.length + 1 &&
        entry?.key === probe.key &&
        entry?.label === `${PROBE_LABEL} renamed`,
      `renaming by key did not keep the key or take the label: ${short(afterRename)}`,
      renamed,
    ),
    ...(reused
      ? unless(
          ok(reused) && (optionsOf(reused) ?? []).filter((o) => o.label === PROBE_LABEL).length === 1,
          `a new option labelled ${short(PROBE_LABEL)}, the label the rename freed, beside the renamed one: expected 200 with it once, got ${reused.status} ${short(optionsOf(reused))}`,
          reused,
        )
      : []),
    ...unless(
      ok(removed) && deepEqual(optionsOf(removed), original),
      `an option missing from the list was not removed: ${short(optionsOf(removed))}`,
      removed,
    ),
    ...(labelAfterAdd && ok(labelAfterAdd)
      ? unless(
          deepEqual(optionsOf(labelAfterAdd), afterAdd),
          `the label sent alone after an option was added changed the options: ${short(optionsOf(labelAfterAdd))}, not ${short(afterAdd)}`,
          labelAfterAdd,
        )
      : []),
    ...(labelAfter && ok(labelAfter)
      ? unless(
          deepEqual(optionsOf(labelAfter), original),
          `the label sent alone after options were removed brought other options back: ${short(optionsOf(labelAfter))}`,
          labelAfter,
        )
      : []),
  ];
}

// A new option (no key) gets a key and leaves the others as they were; an option is renamed by
// its key; an option missing from the list is removed. The options are put back at the end.
rule({
  id: 'custom-fields.option-rules',
  title:
    'Options: new ones get a key, rename by key (the old label free again), missing ones are removed and stay removed ("An option sent without a matching key is new and gets a key derived from its label"): several new options in one request, a label spelling a kept key and a key matching no option included, every key distinct, a label sent again (last) keyed as when it was sent alone',
  source: 'x-svc-option-rules',
  precondition:
    'an editable DROPDOWN field with at least one option (created through the service): a new option added, renamed, its old label given to another new option, both removed, then the label sent alone; new options added four at once (a label spelling a kept key, a key matching no option, the first new label again)',
  enforces: [
    'x-svc-option-rules RENAME_BY_KEY',
    'x-svc-option-rules NEW_WITHOUT_MATCHING_KEY',
    'x-svc-option-rules REMOVE_MISSING',
    // Added by the full sentence audit of partial updates and x-svc-response-rules (issue 24, item 5): the options are a set, sent whole.
    'x-svc-merge-rules custom-field replaced',
  ],
  ...statefulWrite(OP),
  requests: editOptions,
  problems: optionEditProblems,
  notReached: ({ together }) =>
    together ? undefined : 'the field has no option to keep beside new ones (or one already holds the unmatched key)',
});

interface Swapped {
  field: string;
  original: Option[];
  swapped?: Option[];
  sent?: Exchange;
  restored?: Exchange;
}

/** The first two options of a dropdown with their labels swapped, then put back. */
async function swapLabels(t: CheckContext): Promise<Swapped> {
  const field = dropdown(t, await t.fixtures());
  const original = ownOptions(field);
  const [a, b, ...rest] = original;
  if (!a || !b) return { field: field.key, original };
  const swapped = [{ key: a.key, label: b.label }, { key: b.key, label: a.label }, ...rest];
  const sent = await patch(t, field.key, { options: swapped });
  const restored = await patch(t, field.key, { options: original });
  return { field: field.key, original, swapped, sent, restored };
}

// "Labels must be unique" within the list sent: it replaces the full list, so two options that
// trade labels leave every label unique, whatever labels the field held before.
rule({
  id: 'custom-fields.option-labels-swapped',
  title:
    'Two options trading labels (each kept by its key) is a list of unique labels: accepted, each key with its new label, then put back',
  source: 'x-svc-option-rules LABEL_UNIQUE, RENAME_BY_KEY ("Replaces the full option list")',
  precondition: 'an editable DROPDOWN field with two options at least, sent with the labels of the first two swapped',
  ...statefulWrite(OP, 'swap'),
  requests: swapLabels,
  problems: ({ field, swapped, sent, restored }) =>
    !swapped || !sent
      ? []
      : [
          ...unless(
            ok(sent) && deepEqual(optionsOf(sent)?.slice(0, 2), swapped.slice(0, 2)),
            `${field}: two options trading labels: expected 200 with each key holding its new label, got ${sent.status} ${short(optionsOf(sent) ?? sent.body)}`,
            sent,
          ),
          ...unless(
            restored === undefined || ok(restored),
            `${field}: putting the options back failed (${restored?.status})`,
            restored,
          ),
        ],
  notReached: ({ field, swapped }) => (swapped ? undefined : `${field} has fewer than two options to swap`),
  passed: ({ field }) => `${field}: the first two options traded labels, then were put back`,
});

rule({
  id: 'custom-fields.option-invalid',
  title: 'Duplicate option labels are refused with the documented code',
  source: 'x-svc-option-rules LABEL_UNIQUE',
  precondition:
    'requests the server must refuse: an editable DROPDOWN field sent two new options with one label, side by side; and its options with a new one, last, labelled as the first (a server may compare neighbours only)',
  enforces: ['x-svc-option-rules LABEL_UNIQUE'],
  ...statefulWrite(OP),
  requests: async (t): Promise<Refusal[]> => {
    const field = dropdown(t, await t.fixtures());
    const expected = ruleCode(t, 'LABEL_UNIQUE');
    const own = ownOptions(field);
    const sideBySide = [...own, { label: PROBE_LABEL }, { label: PROBE_LABEL }];
    const refusals: Refusal[] = [
      {
        label: 'two options with the same label',
        expected,
        refused: await refuseOrUndo(t, field, { options: sideBySide }, expected),
      },
    ];
    const first = own[0];
    if (first)
      refusals.push({
        label: `a last option labelled as the first, ${first.label}`,
        expected,
        refused: await refuseOrUndo(t, field, { options: [...own, { label: first.label }] }, expected),
      });
    return refusals;
  },
  problems: (refusals) => refusals.flatMap(refusalProblems),
});

rule({
  id: 'custom-fields.options-not-supported',
  title: 'Options on a field of a type without options are refused, an empty list of them too',
  source: 'x-svc-option-rules DROPDOWN_ONLY; CustomFieldResponse (options required for DROPDOWN)',
  precondition:
    'a request the server must refuse: options sent to an editable field of each type without options (a server may drop them on one type only), and an empty options list sent to one of them',
  enforces: ['x-svc-option-rules DROPDOWN_ONLY'],
  ...statefulWrite(OP),
  requests: async (t): Promise<Refusal[]> => {
    // A field of a type that never carries options: the types with options are the one the
    // response schema requires them for, and the ones seen with some. An empty list proves
    // nothing: whether other types show `options: []` is not shown (x-svc-unspecified).
    const fields = editable(t, await t.fixtures());
    const typesWithOptions = new Set([
      ...t.spec.optionFieldTypes,
      ...fields.filter((x) => (x.options?.length ?? 0) > 0).map((x) => x.type),
    ]);
    if (typesWithOptions.size === 0)
      return t.skip('no listed field shows options, so which types take them cannot be told', 'config');
    const withoutOptions = fields.filter((x) => x.type !== null && !typesWithOptions.has(x.type));
    const onePerType = [...new Map(withoutOptions.map((x) => [x.type, x])).values()];
    const first = need(onePerType[0], 'an editable custom field of a type without options');
    const expected = ruleCode(t, 'DROPDOWN_ONLY');
    const refusals: Refusal[] = [];
    for (const field of onePerType)
      refusals.push({
        label: `options on ${field.key} (${field.type})`,
        expected,
        refused: await patch(t, field.key, { options: [{ label: PROBE_LABEL }] }),
      });
    // An empty list is options sent too (the rule says "options sent", not "options given"): a
    // server that reads [] as nothing sent lets it through. Once: such a server does so on every type.
    refusals.push({
      label: `an empty options list on ${first.key} (${first.type})`,
      expected,
      refused: await patch(t, first.key, { options: [] }),
    });
    return refusals;
  },
  problems: (refusals) => refusals.flatMap(refusalProblems),
});

/**
 * Each field of the update body alone, holding the value the field already has (a server that
 * wrongly takes it changes nothing): the label, the description (blank where the list shows none:
 * a blank clears, so nothing changes), and the options where the field shows some.
 */
function heldValues(t: CheckContext, field: CustomFieldFixture): Array<[string, unknown]> {
  const op = t.op(OP);
  const body = op.requestBody ? t.spec.resolve(op.requestBody.schemaPointer) : undefined;
  const held: Record<string, unknown> = {
    label: field.label ?? undefined,
    description: field.description ?? ' ',
    options: field.options,
  };
  return Object.keys(propertiesOf(t.spec.contract, body)).flatMap(
    (name): Array<[string, unknown]> => (held[name] === undefined ? [] : [[name, held[name]]]),
  );
}

rule({
  id: 'custom-fields.managed-by-integration',
  title: 'A field synced from an integration cannot be updated (409), whichever field of it is sent',
  source: 'CustomField source: "Any other value means the field is synced from a CRM integration and is read-only."',
  precondition:
    "a request the server must refuse: a field synced from an integration (its source not the service's own), each field of the update sent alone with the value it holds",
  ...statefulWrite(OP),
  requests: async (t): Promise<Refusal[]> => {
    const own = ownSource(t);
    const field = need(
      (await t.fixtures()).customFields.find((x) => x.source !== undefined && x.source !== own),
      `a custom field synced from an integration (source other than ${own ?? 'the service'})`,
    );
    const expected = {
      status: 409,
      codes: ownCodes(t.spec, t.op(), 409),
      why: `${field.key} has source ${field.source}`,
    };
    const refusals: Refusal[] = [];
    for (const [name, value] of heldValues(t, field))
      refusals.push({
        label: `updating ${name} of ${field.key}`,
        expected,
        refused: await patch(t, field.key, { [name]: value }),
      });
    return refusals;
  },
  problems: (refusals) => refusals.flatMap(refusalProblems),
});

/** The built-in field keys: the description's examples ("such as name or company") and those the config names. */
async function builtInKeys(t: CheckContext): Promise<string[]> {
  const listOp = t.op('listCustomFields');
  const examples = operationResponseRules(listOp).flatMap((r) => (r.kind === 'excludes' ? r.examples : []));
  return [...new Set([...examples, ...(await t.fixtures()).builtInFieldKeys])];
}

rule({
  id: 'custom-fields.built-in',
  title:
    'A built-in field key cannot be updated (400 ATTRIBUTE_BUILT_IN), each one the description or the config names',
  source: 'updateCustomField 400 ATTRIBUTE_BUILT_IN; "Built-in fields such as name or company are not custom fields"',
  precondition:
    "a request the server must refuse: each built-in field key, the description's examples (name, company) and fixtures.built_in_field_keys",
  ...statefulWrite(OP),
  requests: async (t): Promise<Refusal[]> => {
    const keys = need(await builtInKeys(t), 'a built-in field key (set fixtures.built_in_field_keys, e.g. ["name"])');
    const expected = listedCode(t.spec, t.op(), 'ATTRIBUTE_BUILT_IN');
    const refusals: Refusal[] = [];
    for (const key of keys)
      refusals.push({
        label: `updating the built-in field ${key}`,
        expected,
        refused: await patch(t, key, { label: PROBE_LABEL }),
      });
    return refusals;
  },
  problems: (refusals) => refusals.flatMap(refusalProblems),
});
