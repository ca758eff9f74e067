// The AI receptionist of a line. The update follows x-svc-merge-rules of its body: single values
// are merged (the others keep theirs), collections are replaced whole. The scenarios change one
// value or one collection, compare everything else with the configuration read before, and put
// the original back.
import { isObject } from '@svc/spec-runtime';
import { errorProblems, expectedFor } from '../expectations/expect.js';
import { BODY_FORM, bodyFormReading } from '../expectations/readings.js';
import { need } from '../fixtures.js';
import { projectOnto } from '../generate/schema.js';
import type { Exchange } from '../http/exchange.js';
import type { ConfigKey } from '../types.js';
import { type CheckContext, type Problem, rule, statefulWrite } from './harness.js';
import { operationChecks } from './operation-checks.js';
import { unless } from './problems.js';
import { at, data, deepEqual, type Json, nest, ok, probeText, short, teamReaders } from './support.js';

interface MergeRules {
  merged: string[];
  replaced: string[];
}

function mergeRules(t: CheckContext): MergeRules {
  const op = t.op('updateReceptionist');
  const rules = (
    t.spec.resolve(op.requestBody?.schemaPointer ?? '') as { 'x-svc-merge-rules'?: MergeRules } | undefined
  )?.['x-svc-merge-rules'];
  if (!rules || !Array.isArray(rules.merged) || !Array.isArray(rules.replaced))
    return t.skip('the update body has no x-svc-merge-rules');
  return rules;
}

/** How many lines' receptionists are read to choose the one the checks change. */
const LINES_READ = 5;

/** A line's receptionist configuration as the run first read it. */
interface LineAsFound {
  number: string;
  config?: Json;
  /** The answer's length (-1 where it could not be read). */
  size: number;
}

/**
 * The receptionists of the first LINES_READ lines (by number), as found at the run's start, the
 * largest configuration first (ties: the lower number): what the checks choose their line from,
 * and where values another line holds are taken.
 */
function linesAsFound(t: CheckContext): Promise<LineAsFound[]> {
  return t.once('receptionist-lines-as-found', async () => {
    const lines = need((await t.fixtures()).lines, 'a line (GET /v2/api/numbers listed none; or set fixtures.lines)');
    const found: LineAsFound[] = [];
    for (const number of [...lines].sort().slice(0, LINES_READ)) {
      const { exchange, config } = await read(t, number);
      found.push({ number, ...(config ? { config } : {}), size: ok(exchange) ? exchange.text.length : -1 });
    }
    return found.sort((a, b) => b.size - a.size);
  });
}

/**
 * The line whose receptionist configuration is the largest as found, so that the checks reach as
 * much of it as the server holds (transfer rules, knowledge entries, calendars) whatever order the
 * line list has (its order is not stated).
 */
async function line(t: CheckContext): Promise<string> {
  const [largest] = await linesAsFound(t);
  return need(largest?.number, 'a line (GET /v2/api/numbers listed none; or set fixtures.lines)');
}

const READ = 'getReceptionist';

async function read(t: CheckContext, number: string): Promise<{ exchange: Exchange; config?: Json }> {
  const exchange = await t.call({ params: { number } }, {}, 'getReceptionist');
  const config = data(exchange);
  return { exchange, ...(config ? { config } : {}) };
}

/** A single value as read: inside the agent block unless its name is dotted (knowledge.text). */
function single(config: Json | undefined, name: string): unknown {
  if (name.includes('.')) return at(config, name);
  return isObject(config?.agent) ? config.agent[name] : config?.[name];
}

function update(t: CheckContext, number: string, body: Json): Promise<Exchange> {
  return t.call({ params: { number }, body }, {}, 'updateReceptionist');
}

/** The merged text values: plain strings, not phone numbers. */
function textFields(t: CheckContext, config: Json | undefined): string[] {
  const text = (n: string) => typeof single(config, n) === 'string' && !/phone/.test(n);
  return mergeRules(t).merged.filter(text);
}

/**
 * A merged text value to play with. A dotted one (knowledge.text) first: both readings of the
 * body's form (x-svc-ambiguity body-form) nest it alike, while the other single values go flat in
 * one reading and inside `agent` in the other.
 */
function textField(t: CheckContext, config: Json | undefined): string {
  const names = textFields(t, config);
  return need(names.find((n) => n.includes('.')) ?? names[0], 'a text value in the receptionist configuration');
}

operationChecks('getReceptionist', { baseline: async (t) => ({ params: { number: await line(t) } }) });

/**
 * The configuration as read, sent back in the write shape (projectOnto): the single values in the
 * `agent` block or at the top level (the two readings of x-svc-ambiguity), every collection, the
 * knowledge text. Undefined where the contract would refuse it (a read shape it does not accept).
 */
function writeBack(
  t: CheckContext,
  number: string,
  config: Json | undefined,
  reading: 'agent' | 'top',
): Json | undefined {
  const op = t.op('updateReceptionist');
  if (!config || !op.requestBody) return undefined;
  const singles = isObject(config.agent) ? config.agent : {};
  const read = { ...config, ...(reading === 'agent' ? { agent: singles } : { ...singles, agent: undefined }) };
  const body = projectOnto(t.spec, t.spec.resolve(op.requestBody.schemaPointer), read) as Json | undefined;
  return body && !expectedFor(t.spec, op, { params: { number }, body }) ? body : undefined;
}

const OP = 'updateReceptionist';

/** A merged value as read (in the agent block or dotted), a collection as read (replaced whole). */
function stateOf(rules: MergeRules, config: Json | undefined, name: string): unknown {
  return rules.replaced.includes(name) ? at(config, name) : single(config, name);
}

/** Every value and collection other than those sent, as read before and after: unchanged. */
function untouchedProblems(
  rules: MergeRules,
  sent: readonly string[],
  before: Json | undefined,
  after: Json | undefined,
  exchange: Exchange,
  why: (name: string, was: unknown, now: unknown) => string,
): Problem[] {
  return [...rules.merged, ...rules.replaced]
    .filter((name) => !sent.includes(name))
    .flatMap((name) => {
      const [was, now] = [stateOf(rules, before, name), stateOf(rules, after, name)];
      return unless(sameAsSets(now, was), why(name, was, now), exchange);
    });
}

interface WriteBack {
  rules: MergeRules;
  before: Json | undefined;
  written: Exchange;
  /** The flat single values were refused as unknown (the agent reading), then written in that form. */
  otherForm: boolean;
  after?: Json;
}

async function writeBackAsRead(t: CheckContext): Promise<WriteBack> {
  const number = await line(t);
  const before = await read(t, number);
  const body = writeBack(t, number, before.config, 'top');
  if (!body) return t.skip('the configuration as read is not a body the update accepts');
  let written = await update(t, number, body);
  // A server taking the other body form (x-svc-ambiguity body-form) refuses the flat single
  // values as unknown: that reading is accepted, and the configuration written back in its form.
  const otherForm = bodyFormReading(t.spec, t.op(), { params: { number }, body }, Object.keys(body));
  const nested = writeBack(t, number, before.config, 'agent');
  const refusedFlat = otherForm !== undefined && nested !== undefined && errorProblems(written, otherForm).length === 0;
  if (refusedFlat) written = await update(t, number, nested);
  const state = { rules: mergeRules(t), before: before.config, written, otherForm: refusedFlat };
  if (!ok(written)) return state;
  const after = (await read(t, number)).config;
  return after ? { ...state, after } : state;
}

/** One value or collection changed, read back, and put back as it was. */
interface OneChange {
  rules: MergeRules;
  name: string;
  before: Json;
  sent: unknown;
  changed: Exchange;
  after?: Json;
  /** Other keys of the team that read the configuration before the change and after it. */
  otherReads?: Array<{ key: string; before: Exchange; after: Exchange }>;
  /** After a collection was replaced: another value written (its answer), then the configuration read again. */
  afterOther?: { written: Exchange; read: Exchange; config?: Json };
  /** The line whose receptionist holds the value sent (a code, whose allowed values are not shown). */
  borrowedFrom?: string;
  /** The team's other lines, read before the change and after it: the configuration is per line. */
  otherLines?: Array<{ line: string; before?: Json; after?: Json; exchange: Exchange }>;
  /** The answer to putting the value back; absent where the change was kept for a later joined put-back. */
  restored?: Exchange;
  /** The body that puts the value back, in the form the server took. */
  undo: Json;
  /** A collection sent with one entry more (see `withOneMore`), not less one. */
  oneMore?: true;
}

/** The receptionist as read before a change; undefined (with the exchange) where it could not be read. */
async function readBefore(t: CheckContext): Promise<{ number: string; exchange: Exchange; config?: Json }> {
  const number = await line(t);
  return { number, ...(await read(t, number)) };
}

/** A refusal of the flat single values as unknown: the other body form's answer (x-svc-ambiguity body-form). */
function refusedAsOtherForm(t: CheckContext, number: string, body: Json, answer: Exchange): boolean {
  const otherForm = bodyFormReading(t.spec, t.op(OP), { params: { number }, body }, Object.keys(body));
  return otherForm !== undefined && !ok(answer) && errorProblems(answer, otherForm).length === 0;
}

/**
 * One value changed, read back and put back: dotted as its path says, a single value flat or, where
 * the server refuses it flat as the other body form's field, inside the agent block.
 */
async function changeAndRestore(
  t: CheckContext,
  number: string,
  change: Omit<OneChange, 'changed' | 'after' | 'restored' | 'otherReads' | 'afterOther' | 'undo'>,
  original: unknown,
  also: {
    readers?: ConfigKey[];
    thenWrite?: { body: Json; undo: Json };
    otherLines?: string[];
    /** Leave the value changed: the caller puts it back later, joined with others (undo). */
    keep?: boolean;
  } = {},
): Promise<OneChange> {
  const readAs = (key: ConfigKey) => t.call({ params: { number } }, { auth: { kind: 'key', key: key.key } }, READ);
  const readers: Array<{ key: ConfigKey; before: Exchange }> = [];
  for (const key of also.readers ?? []) readers.push({ key, before: await readAs(key) });
  const linesBefore: Array<{ line: string; before?: Json }> = [];
  for (const other of also.otherLines ?? []) linesBefore.push({ line: other, before: (await read(t, other)).config });
  let form = (value: unknown) => nest(change.name, value);
  let changed = await update(t, number, form(change.sent));
  if (refusedAsOtherForm(t, number, form(change.sent), changed)) {
    form = (value) => ({ agent: nest(change.name, value) });
    changed = await update(t, number, form(change.sent));
  }
  const after = ok(changed) ? (await read(t, number)).config : undefined;
  const otherReads: NonNullable<OneChange['otherReads']> = [];
  if (ok(changed))
    for (const { key, before } of readers.filter((r) => ok(r.before)))
      otherReads.push({ key: `${key.kind ?? 'active'} key "${key.name}"`, before, after: await readAs(key) });
  const otherLines: NonNullable<OneChange['otherLines']> = [];
  if (ok(changed))
    for (const { line: other, before } of linesBefore) {
      const again = await read(t, other);
      otherLines.push({
        line: other,
        ...(before ? { before } : {}),
        ...(again.config ? { after: again.config } : {}),
        exchange: again.exchange,
      });
    }
  let afterOther: OneChange['afterOther'];
  if (ok(changed) && also.thenWrite) {
    let written = await update(t, number, also.thenWrite.body);
    // A flat single value refused as the other body form's field: sent, and put back, inside agent.
    if (refusedAsOtherForm(t, number, also.thenWrite.body, written)) {
      also.thenWrite = { body: { agent: also.thenWrite.body }, undo: { agent: also.thenWrite.undo } };
      written = await update(t, number, also.thenWrite.body);
    }
    const again = await read(t, number);
    afterOther = { written, read: again.exchange, ...(again.config ? { config: again.config } : {}) };
  }
  // The value written next is put back with the change.
  const undo = joined(form(original), afterOther ? also.thenWrite?.undo : undefined);
  return {
    ...change,
    changed,
    ...(after ? { after } : {}),
    ...(otherReads.length > 0 ? { otherReads } : {}),
    ...(otherLines.length > 0 ? { otherLines } : {}),
    ...(afterOther ? { afterOther } : {}),
    undo,
    ...(also.keep ? {} : { restored: await update(t, number, undo) }),
  };
}

/** Two bodies as one (objects at the same key joined: the agent form of both). */
function joined(a: Json, b: Json | undefined): Json {
  const out: Json = { ...a };
  for (const [k, v] of Object.entries(b ?? {}))
    out[k] = isObject(out[k]) && isObject(v) ? joined(out[k] as Json, v) : v;
  return out;
}

/** What a read by another key of the team shows after the change: the change (no copy kept per key). */
/** Another line's receptionist changed by a value sent to this line's ("AI receptionist configuration (per line)"). */
function otherLineProblems({ name, otherLines = [] }: OneChange): Problem[] {
  return otherLines.flatMap(({ line: other, before, after, exchange }) =>
    unless(
      before === undefined ||
        after === undefined ||
        deepEqual(withoutPathAndTimes(after, []), withoutPathAndTimes(before, [])),
      `the receptionist of ${other} changed when only ${name} of another line's was sent (the configuration is per line): ${short(after)}`,
      exchange,
    ),
  );
}

function otherReadProblems({ name, sent, otherReads = [] }: OneChange): Problem[] {
  return otherReads.flatMap(({ key, after }) =>
    unless(
      ok(after) && deepEqual(single(data(after), name), sent),
      `another ${key} of the team, which read the configuration before, reads ${name} after the change as ${short(single(data(after), name))}, not ${short(sent)}`,
      after,
    ),
  );
}

/** Every timestamp (updated_at) taken out, and the value at `path`: what a change of `path` leaves as it was. */
function withoutPathAndTimes(value: unknown, path: string[]): unknown {
  if (Array.isArray(value)) return value.map((v) => withoutPathAndTimes(v, []));
  if (!isObject(value)) return value;
  const [head, ...rest] = path;
  const kept: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'updated_at' || (k === head && rest.length === 0)) continue;
    kept[k] = withoutPathAndTimes(v, k === head ? rest : []);
  }
  return kept;
}

type Unread = { unread: Exchange; number: string };

const unreadProblems = ({ unread, number }: Unread): Problem[] => [
  { message: `the receptionist of ${number} could not be read: ${unread.status || unread.error}`, exchange: unread },
];

function changeProblems(s: OneChange, what: string, sentProblems: (s: OneChange) => Problem[]): Problem[] {
  const restoring = s.restored
    ? unless(ok(s.restored), `restoring ${s.name} failed (${s.restored.status})`, s.restored)
    : [];
  if (!ok(s.changed))
    return [{ message: `${what}: expected 200, got ${s.changed.status}`, exchange: s.changed }, ...restoring];
  return [...sentProblems(s), ...restoring];
}

/**
 * Each merged text value changed alone in turn (the dotted knowledge.text first, then those the
 * agent block holds): a server may merge one value and drop another when it is left out. Codes
 * and addresses are left out, and so is a value the contract would refuse with the probe's suffix.
 */
async function mergeEach(t: CheckContext): Promise<Merged | Unread> {
  const first = await lineWithKnowledge(t);
  if (!first.config) return { unread: first.exchange, number: first.number };
  const rules = mergeRules(t);
  const names = textFields(t, first.config);
  const inAgent = names.filter((n) => !n.includes('.'));
  // Free text only (a value with a space in it), and the first value as before: a code (FRIENDLY,
  // en-US, a voice id) or an address may be refused with a suffix the contract lets through.
  const prose = (n: string) => /\s/.test(String(single(first.config, n)));
  const ordered = [...names.filter((n) => n.includes('.')), ...inAgent.filter((n, i) => i === 0 || prose(n))];
  const suffix = ` (svc-contract ${t.config.runId})`;
  const valid = (name: string) =>
    !expectedFor(t.spec, t.op(OP), {
      params: { number: first.number },
      body: nest(name, `${single(first.config, name)}${suffix}`),
    });
  const changes: OneChange[] = [];
  // The team's other lines, read around each text value sent: a value sent to one line changes no other.
  const otherLines = (await linesAsFound(t)).map((l) => l.number).filter((n) => n !== first.number);
  for (const name of need(ordered.filter(valid), 'a text value in the receptionist configuration')) {
    const before = changes.length > 0 ? ((await read(t, first.number)).config ?? first.config) : first.config;
    const old = single(before, name) as string;
    // The first change is also read by other keys of the team, each of which read it before.
    const readers = changes.length === 0 ? teamReaders(t, t.op(READ), t.op(OP), first.number) : [];
    changes.push(
      await changeAndRestore(t, first.number, { rules, name, before, sent: `${old}${suffix}` }, old, {
        readers,
        otherLines,
        keep: true,
      }),
    );
  }
  // The knowledge text sent empty: a value sent, not one left out, so it replaces the text too.
  for (const name of ordered.filter((n) => n.includes('.'))) {
    if (expectedFor(t.spec, t.op(OP), { params: { number: first.number }, body: nest(name, '') })) continue;
    const before = (await read(t, first.number)).config ?? first.config;
    const old = single(before, name);
    if (typeof old === 'string' && old !== '')
      changes.push(await changeAndRestore(t, first.number, { rules, name, before, sent: '' }, old, { keep: true }));
  }
  // The codes and addresses (voice_id, tone_of_voice, language, ...) take a value another line holds,
  // on every line: a server resetting one value to a default when another is sent shows only on a
  // line whose value is not the default, whichever line that is.
  const codes = inAgent.filter((n) => !ordered.includes(n));
  const lines = [
    { number: first.number, config: first.config },
    ...(await linesAsFound(t)).filter((l) => l.number !== first.number),
  ];
  const putBacks: PutBack[] = [];
  for (const { number, config } of lines) {
    const ofLine = number === first.number ? [...changes] : [];
    for (const { name, value, from } of config ? await borrowedValues(t, number, config, codes) : []) {
      const before = (await read(t, number)).config ?? config ?? {};
      const old = single(before, name);
      const change = { rules, name, before, sent: value, borrowedFrom: from };
      ofLine.push(await changeAndRestore(t, number, change, old, { keep: true }));
    }
    changes.push(...ofLine.filter((c) => !changes.includes(c)));
    const back = await putBack(t, number, ofLine);
    if (back) putBacks.push(back);
  }
  return { changes, putBacks };
}

/** The values a line's changes left changed, put back together in one update. */
interface PutBack {
  line: string;
  names: string[];
  exchange: Exchange;
}

/**
 * Each value is sent alone and left changed for the next one (the others then hold values a reset
 * would not write either): one update per line puts back the values as found, the first undo of
 * each name holding its value from before its first change.
 */
async function putBack(t: CheckContext, number: string, kept: readonly OneChange[]): Promise<PutBack | undefined> {
  const firsts = new Map<string, Json>();
  for (const c of kept) if (!firsts.has(c.name) && ok(c.changed)) firsts.set(c.name, c.undo);
  if (firsts.size === 0) return undefined;
  const body = [...firsts.values()].reduce((all, undo) => joined(all, undo), {});
  return { line: number, names: [...firsts.keys()], exchange: await update(t, number, body) };
}

const putBackProblems = ({ putBacks }: Merged): Problem[] =>
  putBacks.flatMap(({ line: number, names, exchange }) =>
    unless(ok(exchange), `putting back ${names.join(', ')} of ${number} failed (${exchange.status})`, exchange),
  );

/**
 * For each value named, one another line's receptionist holds that differs from this line's: a
 * value the server itself holds, where the allowed values are not shown (voice_id, tone_of_voice).
 */
async function borrowedValues(
  t: CheckContext,
  number: string,
  config: Json,
  names: readonly string[],
): Promise<Array<{ name: string; value: string; from: string }>> {
  // As found at the run's start: a value the server holds is valid whatever changed since.
  const configs = (await linesAsFound(t))
    .filter((l) => l.number !== number)
    .map(({ number: from, config: c }) => ({ from, config: c }));
  return names.flatMap((name) => {
    const found = configs.find(
      ({ config: c }) => typeof single(c, name) === 'string' && single(c, name) !== single(config, name),
    );
    const value = found && single(found.config, name);
    const accepted =
      typeof value === 'string' && !expectedFor(t.spec, t.op(OP), { params: { number }, body: nest(name, value) });
    return found && accepted ? [{ name, value, from: found.from }] : [];
  });
}

/** Another line's value refused: the allowed values are not shown, so the refusal is reported, not failed. */
const refusedBorrowed = (c: OneChange) =>
  c.borrowedFrom !== undefined && c.changed.status >= 400 && c.changed.status < 500;

type Merged = { changes: OneChange[]; putBacks: PutBack[] };

/** Entries of the knowledge block beside its text (websites, files), as read. */
const knowledgeEntries = (config: Json | undefined): number =>
  ['websites', 'files'].reduce((n, k) => {
    const list = at(config, `knowledge.${k}`);
    return n + (Array.isArray(list) ? list.length : 0);
  }, 0);

/**
 * The receptionist of the checks' line, or, where its knowledge holds no websites or files beside
 * its text, of a line as found whose knowledge does: a server that rewrites the block from the body
 * shows it only there.
 */
async function lineWithKnowledge(t: CheckContext): Promise<{ number: string; exchange: Exchange; config?: Json }> {
  const first = await readBefore(t);
  if (!first.config || knowledgeEntries(first.config) > 0) return first;
  const other = (await linesAsFound(t)).find((l) => l.number !== first.number && knowledgeEntries(l.config) > 0);
  return other ? { number: other.number, ...(await read(t, other.number)) } : first;
}

/** Why no read by another key of the team could show a copy kept per key: none is configured, or none could read. */
function noOtherReader({ changes: [first] }: Merged): string | undefined {
  if (!first || !ok(first.changed) || (first.otherReads?.length ?? 0) > 0) return undefined;
  return `no other key of the team that may read this line's receptionist (AGENTS_READ) read it before the change and after: declare one in --config (a copy kept per key shows only there)`;
}

/** A value a reset to nothing would write: absent, null, empty, false. */
const isEmpty = (value: unknown) =>
  value === undefined || value === null || value === '' || value === false || (Array.isArray(value) && !value.length);

/**
 * Why a value of a block sent alone could not show the block rewritten from the body: nothing else of
 * its block (knowledge's websites and files beside its text) held an entry before.
 */
function emptyBlock({ name, before }: OneChange): string | undefined {
  if (!name.includes('.')) return undefined;
  const [block = ''] = name.split('.');
  const rest = Object.entries(isObject(before[block]) ? (before[block] as Json) : {}).filter(
    ([k, v]) => k !== name.slice(block.length + 1) && Array.isArray(v),
  );
  return rest.length === 0 || rest.some(([, v]) => (v as unknown[]).length > 0)
    ? undefined
    : `${block}'s ${rest.map(([k]) => k).join(' and ')} held no entry when ${name} was sent: a block rewritten from the body would not show`;
}

/** Why no single value left out could show a reset, if none could: every one of them was empty before. */
function emptyOthers({ rules, name, before }: OneChange): string | undefined {
  const others = rules.merged.filter((other) => other !== name);
  return others.some((other) => !isEmpty(single(before, other)))
    ? undefined
    : `every single value other than ${name} (${others.join(', ')}) was empty, null or false before, as a reset would leave it`;
}

function mergedProblems(s: OneChange): Problem[] {
  const { rules, name, before, after, changed } = s;
  const merged = { ...rules, replaced: [] };
  const path = name.includes('.') ? name.split('.') : ['agent', name];
  return [
    ...unless(single(after, name) === s.sent, `${name} was not updated: ${short(single(after, name))}`, changed),
    // Beyond the merged values and the collections: the rest of the configuration (websites, files, prompt) too.
    ...unless(
      after === undefined || deepEqual(withoutPathAndTimes(after, path), withoutPathAndTimes(before, path)),
      `the configuration changed beyond ${name} although only ${name} was sent: ${short(after)}`,
      changed,
    ),
    ...otherReadProblems(s),
    ...otherLineProblems(s),
    ...untouchedProblems(
      merged,
      [name],
      before,
      after,
      changed,
      (other, was, now) => `${other} changed although only ${name} was sent: ${short(was)} → ${short(now)}`,
    ),
    ...untouchedProblems(
      { ...rules, merged: [] },
      [],
      before,
      after,
      changed,
      (collection) => `${collection} changed although it was not sent`,
    ),
  ];
}

// A single value sent alone is merged: it changes, every other value and collection keeps its own.
rule({
  id: 'receptionist.merge-rules',
  title:
    "Single values are merged (each text value of the agent block and knowledge.text, sent alone in turn): the others keep their values, and the team's other lines keep theirs (the configuration is per line)",
  source: 'x-svc-merge-rules.merged',
  enforces: ['x-svc-merge-rules merged'],
  precondition:
    'a single value of the agent block and knowledge.text, each sent alone with a new value (a code or an address: the value another line holds, on every line); the single values other than the one sent hold values a faulty reset would not write (one at least not empty, null or false), and knowledge holds website or file entries beside its text; other keys of the team that may read it read it before the first change and after; the other lines of the team read before each text value is sent and after',
  ...statefulWrite(OP),
  requests: mergeEach,
  problems: (s) =>
    'unread' in s
      ? unreadProblems(s)
      : [
          ...s.changes
            .filter((c) => !refusedBorrowed(c))
            .flatMap((c) => changeProblems(c, `updating ${c.name}`, mergedProblems)),
          ...putBackProblems(s),
        ],
  passed: (s) =>
    'changes' in s
      ? `merged, each alone: ${s.changes
          .map((c) =>
            c.borrowedFrom === undefined
              ? c.name
              : `${c.name} (${short(c.sent)}, as ${c.borrowedFrom} holds it${refusedBorrowed(c) ? `: refused ${c.changed.status}, its allowed values are not shown` : ''})`,
          )
          .join(', ')}`
      : undefined,
  notReached: (s) =>
    'unread' in s
      ? undefined
      : s.changes
          .flatMap((c) => [emptyOthers(c), emptyBlock(c)])
          .concat(noOtherReader(s))
          .filter((why) => why !== undefined)
          .join('; ') || undefined,
});

/**
 * A collection to shrink by one entry: an array, or an object holding one (business_hours.schedule),
 * or a set of switches (capabilities), one turned off. The smallest entry goes (the first of equals): the richest stay sent, so that a server that keeps
 * only part of an entry (a day's second interval) shows it when the set is read back.
 */
function shrunk(original: unknown): unknown {
  if (Array.isArray(original) && original.length > 0) return withoutSmallest(original);
  if (!isObject(original)) return undefined;
  const inner = Object.entries(original).find(([, v]) => Array.isArray(v) && v.length > 0);
  if (inner) return { ...original, [inner[0]]: withSeveralIntervals(withoutSmallest(inner[1] as unknown[])) };
  // A set of switches (capabilities: every key always reported): the first one on, turned off.
  const on = Object.entries(original).find(([, v]) => v === true);
  return on ? { ...original, [on[0]]: false } : undefined;
}

/** An interval: an object of two integers, the first below the second (an opening's start and end). */
function isInterval(value: unknown): value is Json {
  const numbers = isObject(value) ? Object.values(value) : [];
  return (
    numbers.length === 2 && numbers.every(Number.isInteger) && (numbers[0] as number) + 3 <= (numbers[1] as number)
  );
}

/**
 * Entries holding lists of intervals (days and their openings): where none holds two, the first
 * interval of the first entry that holds one is sent as two with a gap between, so that a server
 * that keeps or shows one interval a day (the first, or a span from the first start to the last
 * end) shows it when the set is read back.
 */
function withSeveralIntervals(entries: unknown[]): unknown[] {
  const listOf = (entry: unknown) =>
    Object.entries(isObject(entry) ? entry : {}).find(
      ([, v]) => Array.isArray(v) && v.length > 0 && v.every(isInterval),
    );
  if (entries.some((e) => ((listOf(e)?.[1] as unknown[] | undefined)?.length ?? 0) >= 2)) return entries;
  const at = entries.findIndex((e) => listOf(e) !== undefined);
  const [name, list] = listOf(entries[at]) ?? [];
  const [first, ...rest] = (list as Json[] | undefined) ?? [];
  if (at < 0 || !name || !first) return entries;
  const [[startKey, start], [endKey, end]] = Object.entries(first) as [[string, number], [string, number]];
  const third = Math.floor((end - start) / 3);
  const split = [
    { [startKey]: start, [endKey]: start + third },
    { [startKey]: end - third, [endKey]: end },
  ];
  return entries.map((e, i) => (i === at ? { ...(e as Json), [name]: [...split, ...rest] } : e));
}

/**
 * A list that the set less one leaves shorter than two, with one entry more: its richest entry
 * again, the first text with a space in it marked, so that a server that keeps only the first entry
 * of several, or only those it already held, shows it. An entry that names something by id (an id, a
 * calendar_connection_id) is left alone: its copy may be taken as the same entry (a calendar selected
 * twice), and one with no free text to mark would be two entries alike.
 */
function withOneMore(original: unknown, mark: string): unknown[] | undefined {
  if (!Array.isArray(original) || original.length === 0 || withoutSmallest(original).length >= 2) return undefined;
  const sizes = entrySizes(original);
  const richest: unknown = original[sizes.indexOf(Math.max(...sizes))];
  const namesById = (entry: Json) => Object.entries(entry).some(([k, v]) => /(^|_)id$/.test(k) && v !== null);
  if (!isObject(richest) || namesById(richest)) return undefined;
  const prose = Object.entries(richest).find(([, v]) => typeof v === 'string' && /\s/.test(v));
  return prose ? [...original, { ...richest, [prose[0]]: `${prose[1]}${mark}` }] : undefined;
}

/** Each entry's size as JSON: the smallest goes first, the richest is copied. */
const entrySizes = (entries: readonly unknown[]) => entries.map((e) => JSON.stringify(e)?.length ?? 0);

function withoutSmallest(entries: readonly unknown[]): unknown[] {
  const sizes = entrySizes(entries);
  const smallest = sizes.indexOf(Math.min(...sizes));
  return entries.filter((_, i) => i !== smallest);
}

/**
 * Every collection with an entry to remove, each replaced in turn by itself less one entry and put
 * back: a server that merges the set sent into the stored one keeps the entry, whichever collection
 * it merges.
 */
async function replaceEach(t: CheckContext): Promise<{ changes: OneChange[] } | Unread> {
  const before = await readBefore(t);
  if (!before.config) return { unread: before.exchange, number: before.number };
  const rules = mergeRules(t);
  const changes: OneChange[] = [];
  const start = before.config;
  const current = async () => (changes.length > 0 ? ((await read(t, before.number)).config ?? start) : start);
  // The read shape is sent back as the write shape: only where the contract accepts it.
  const accepted = (name: string, sent: unknown) =>
    sent !== undefined && !expectedFor(t.spec, t.op(), { params: { number: before.number }, body: nest(name, sent) });
  for (const name of rules.replaced) {
    let config = await current();
    const original = at(config, name);
    const sent = shrunk(original);
    // Then another value changed (knowledge.text first: both body forms nest it alike): the
    // replaced set stays. A change, not the value as it is: a server may skip a write that changes
    // nothing, and bring the set back only on one that does. Put back with the collection.
    const thenWrite = nextWrite(t, before.number, config, name);
    if (accepted(name, sent))
      changes.push(
        await changeAndRestore(t, before.number, { rules, name, before: config, sent }, original, {
          ...(thenWrite ? { thenWrite } : {}),
        }),
      );
    // A set of several entries sent where no write above sends two: all of them are kept.
    const more = withOneMore(original, ` (svc-contract ${t.config.runId}, one entry more)`);
    if (!accepted(name, more)) continue;
    config = await current();
    changes.push(
      await changeAndRestore(t, before.number, { rules, name, before: config, sent: more, oneMore: true }, original),
    );
  }
  if (changes.length === 0) return t.skip('no collection with an entry to remove whose read shape the update accepts');
  return { changes };
}

/** A merged value changed after `collection` was replaced, and the body that puts it back. */
function nextWrite(
  t: CheckContext,
  number: string,
  config: Json | undefined,
  collection: string,
): { body: Json; undo: Json } | undefined {
  const other = textFields(t, config)[0] === undefined ? undefined : textField(t, config);
  if (other === undefined) return undefined;
  const old = single(config, other);
  const changed = nest(other, `${String(old)} (svc-contract ${t.config.runId} after ${collection})`);
  const body = expectedFor(t.spec, t.op(OP), { params: { number }, body: changed }) ? nest(other, old) : changed;
  return { body, undo: nest(other, old) };
}

/** After the collection was replaced, another value written: its answer (where it shows the set) and a read keep the set sent. */
function keptAfterOther({ name, sent, afterOther }: OneChange): Problem[] {
  if (!afterOther) return [];
  const { written, read: again, config } = afterOther;
  if (!ok(written))
    return [
      {
        message: `another value written after ${name} was replaced: expected 200, got ${written.status}`,
        exchange: written,
      },
    ];
  const answered = at(data(written), name);
  return [
    ...unless(
      answered === undefined || sameAsSets(answered, sent),
      `${name}, replaced, answered otherwise when another value was written next: ${short(answered)}`,
      written,
    ),
    ...unless(
      sameAsSets(at(config, name), sent),
      `${name}, replaced, changed again when another value was written next: ${short(at(config, name))}`,
      again,
    ),
  ];
}

/**
 * Equal as the description calls the collections, complete sets: lists at any depth compared
 * without their order (transfer rules, calendars, a day's openings), objects by their keys.
 */
function sameAsSets(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) {
    const unmatched = [...b];
    return (
      a.length === b.length &&
      a.every((entry) => {
        const i = unmatched.findIndex((other) => sameAsSets(entry, other));
        return i >= 0 && unmatched.splice(i, 1).length === 1;
      })
    );
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && sameAsSets(a[k], b[k]));
  }
  return deepEqual(a, b);
}

function replacedProblems(s: OneChange): Problem[] {
  const { rules, name, before, after, sent, changed } = s;
  return [
    ...keptAfterOther(s),
    ...unless(
      sameAsSets(at(after, name), sent),
      `${name} was not replaced by the set sent: ${short(at(after, name))}`,
      changed,
    ),
    ...untouchedProblems(rules, [name], before, after, changed, (other) => `${other} changed although it was not sent`),
  ];
}

// A collection sent is replaced whole by the set sent; the other collections and values stay.
rule({
  id: 'receptionist.collections-replaced',
  title:
    'Collections are replaced as complete sets: each collection, sent less one entry (its smallest; a set of switches with one turned off), loses it, a list that leaves fewer than two is also sent with one entry more and keeps them all, and nothing else changes',
  source: 'x-svc-merge-rules.replaced',
  precondition:
    'a receptionist collection with an entry to remove: each sent less one entry; a list of several entries sent',
  enforces: ['x-svc-merge-rules replaced'],
  ...statefulWrite(OP),
  requests: replaceEach,
  problems: (s) =>
    'unread' in s
      ? unreadProblems(s)
      : s.changes.flatMap((c) => changeProblems(c, `replacing ${c.name}`, replacedProblems)),
  passed: (s) =>
    'changes' in s
      ? `replaced, each less one entry: ${s.changes
          .filter((c) => !c.oneMore)
          .map((c) => c.name)
          .join(', ')}${oneMoreNames(s.changes)}`
      : undefined,
  notReached: (s) =>
    'changes' in s && !s.changes.some((c) => ok(c.changed) && holdsSeveral(c.sent))
      ? 'no collection was sent with several entries (no list of two, nor one entry to copy without an id and with free text)'
      : undefined,
});

/** A list of two entries or more, or an object holding one (business_hours.schedule). */
function holdsSeveral(sent: unknown): boolean {
  const lists = Array.isArray(sent) ? [sent] : isObject(sent) ? Object.values(sent).filter(Array.isArray) : [];
  return lists.some((list) => list.length >= 2);
}

/** The collections also sent with one entry more, for the passed line. */
function oneMoreNames(changes: OneChange[]): string {
  const names = changes.filter((c) => c.oneMore).map((c) => c.name);
  return names.length > 0 ? `; with one entry more: ${names.join(', ')}` : '';
}

/** A body of at least this many bytes is one servers often read apart (a worker, a stream). */
const LARGE_BODY_BYTES = 16 * 1024;
/** An answer of at least this many characters is one servers often keep apart (as bytes, in a cache). */
const LARGE_ANSWER_CHARACTERS = 64 * 1024;
/** The largest body the check sends: under 63 000 bytes, so that no cap a JSON API might keep is met. */
const MOST_BODY_BYTES = 63_000;

/** A long value merged, the configuration then read twice with no write between, and the value put back. */
interface LargeChange extends OneChange {
  first?: Exchange;
  second?: Exchange;
}

/**
 * A text of ASCII characters long enough that the configuration holding it is read back as an
 * answer of LARGE_ANSWER_CHARACTERS or more (`rest`: the characters of the answer besides the
 * value), in a body of LARGE_BODY_BYTES or more and at most MOST_BODY_BYTES.
 */
function largeText(t: CheckContext, name: string, rest: number): string {
  const wanted = Math.max(LARGE_ANSWER_CHARACTERS - rest + 1024, LARGE_BODY_BYTES + 1024);
  const room = MOST_BODY_BYTES - JSON.stringify(nest(name, '')).length;
  return `${probeText(t, 'large value')} `.padEnd(Math.min(wanted, room), 'x');
}

async function mergeLarge(t: CheckContext): Promise<LargeChange | Unread> {
  const before = await readBefore(t);
  if (!before.config) return { unread: before.exchange, number: before.number };
  const rules = mergeRules(t);
  const name = textField(t, before.config);
  const old = single(before.config, name) as string;
  const sent = largeText(t, name, before.exchange.text.length - old.length);
  const changed = await update(t, before.number, nest(name, sent));
  const first = ok(changed) ? await read(t, before.number) : undefined;
  const second = first ? await read(t, before.number) : undefined;
  const undo = nest(name, old);
  const restored = await update(t, before.number, undo);
  const reads = first && second ? { first: first.exchange, second: second.exchange } : {};
  return {
    rules,
    name,
    before: before.config,
    sent,
    changed,
    ...(first?.config ? { after: first.config } : {}),
    undo,
    restored,
    ...reads,
  };
}

/** The configuration read again, with no write between: the same answer. */
function readAgainProblems({ first, second }: LargeChange): Problem[] {
  if (!first || !second) return [];
  return unless(
    ok(second) && deepEqual(data(second), data(first)),
    `the configuration read again with no write between is not the same: ${second.status} ${short(data(second))}`,
    second,
  );
}

/** Why the large answer was not reached: the configuration read back was shorter. */
function largeAnswerNotReached(s: LargeChange | Unread): string | undefined {
  if ('unread' in s || !s.first) return undefined;
  const length = s.first.text.length;
  return length >= LARGE_ANSWER_CHARACTERS
    ? undefined
    : `the configuration read back was ${length} characters, under ${LARGE_ANSWER_CHARACTERS}: a large answer read twice was not reached`;
}

// Single values are merged whatever their length (the description sets no limit on them): a server
// that reads large bodies apart, or keeps large answers apart, must answer them as small ones.
rule({
  id: 'receptionist.large-value',
  title: 'A long single value (a body of 16 KiB or more) is merged and read back as sent, the same on each read',
  source: 'x-svc-merge-rules.merged ("Single values are merged"; no length limit is stated for knowledge.text)',
  enforces: ['x-svc-merge-rules merged'],
  precondition:
    'an update body of 16 KiB or more (one single value of tens of thousands of characters), and the configuration holding it, 64 K characters or more, read twice with no write between',
  ...statefulWrite(OP),
  requests: mergeLarge,
  problems: (s) =>
    'unread' in s
      ? unreadProblems(s)
      : changeProblems(s, `updating ${s.name} with ${String(s.sent).length} characters`, (c) => [
          ...mergedProblems(c),
          ...readAgainProblems(s),
        ]),
  notReached: largeAnswerNotReached,
});

// Declared after the rules that change one value: writing the whole configuration back writes
// knowledge.text too, and a server that rewrites the knowledge block from the body loses its
// websites and files there, the state merge-rules must see as found (its precondition).
// Writing back what was read, single values at the top level (the other reading), changes nothing.
rule({
  id: 'receptionist.write-back',
  title: 'The configuration written back as read (single values at the top level) changes nothing',
  source: 'x-svc-merge-rules + x-svc-ambiguity (both readings of the single values)',
  precondition: "a line's receptionist configuration as read, written back whole",
  ...statefulWrite(OP),
  requests: writeBackAsRead,
  problems: ({ rules, before, written, after }) =>
    ok(written)
      ? [
          ...untouchedProblems(
            rules,
            [],
            before,
            after,
            written,
            (name, was, now) => `${name} changed when written back as read: ${short(was)} → ${short(now)}`,
          ),
          // Beyond the values and collections written: the rest of the configuration (websites, files, prompt) too.
          ...unless(
            after === undefined || sameAsSets(withoutPathAndTimes(after, []), withoutPathAndTimes(before, [])),
            `the configuration changed when written back as read: ${short(after)}`,
            written,
          ),
        ]
      : [{ message: `writing the configuration back as read: expected 200, got ${written.status}`, exchange: written }],
  passed: ({ otherForm }) =>
    otherForm
      ? `the flat single values refused as unknown (${BODY_FORM}: the agent form); written back in that form`
      : undefined,
});

// The generated checks last, for the same reason: their baseline writes the whole configuration back.
operationChecks('updateReceptionist', {
  // The whole configuration written back as read (nothing changes), so that the negative inputs
  // break each rule of every block once; one value alone where the read shape is not accepted.
  baseline: async (t) => {
    const number = await line(t);
    const body = await t.once(`receptionist-baseline:${number}`, async () => {
      const { config } = await read(t, number);
      const whole = writeBack(t, number, config, 'agent');
      if (whole) return whole;
      const name = textField(t, config);
      return nest(name, single(config, name));
    });
    return { params: { number }, body };
  },
});
