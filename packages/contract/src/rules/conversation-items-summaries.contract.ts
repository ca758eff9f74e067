// Which summary a call's read answers. A call whose summaries are mixed (one completed, the others
// still pending) or that has no completed summary at all: the error SUMMARY_TEMPLATE_KEY_REQUIRED is
// for a call that "has more than one completed summary", so such a call is answered without a
// template_key. Which summaries a call has is not readable through the API: the calls come from
// the config (fixtures.one_completed_summary_call_ids, no_completed_summary_call_ids; a sandbox
// names its own). The other side: a call the API shows to have more than one completed summary
// (read with two template keys, each answered with a summary) is refused without one. And
// template_key selects: a key for which the call has no completed summary (one no template has) is
// 404 SUMMARY_TEMPLATE_NOT_FOUND, not some other summary of the call.
import { isObject } from '@svc/spec-runtime';
import { listedCode } from '../expectations/expect.js';
import { dataOf, type Exchange } from '../http/exchange.js';
import { loadSpec } from '../spec.js';
import { completedSummaries, type SummaryRead, summaryCalls, TEMPLATE_KEY, templateKeys } from './call-summaries.js';
import { documentedValues } from './explore-inputs.js';
import { type CheckContext, contractOperation, type Problem, rule } from './harness.js';
import { afterEarlier, errorsOf, isSuccess, statusIs, unless } from './problems.js';
import { ok } from './support.js';

const OP = 'getConversationItem';
const op = contractOperation(OP);

interface CallReads {
  reads: Array<{ id: string; exchange: Exchange }>;
}

/** Calls the config names for a state of their summaries, each read without template_key: a success. */
function answeredWithoutKey(entry: {
  id: string;
  title: string;
  precondition: string;
  list: 'one_completed_summary_call_ids' | 'no_completed_summary_call_ids';
  what: string;
}): void {
  rule({
    id: entry.id,
    title: entry.title,
    source:
      'SUMMARY_TEMPLATE_KEY_REQUIRED: "Call has more than one completed summary; set template_key"; getConversationItem: "optional template_key selects a summary"',
    precondition: entry.precondition,
    operationId: OP,
    resource: loadSpec().resourceOf(op),
    needs: {},
    requests: async (t): Promise<CallReads> => {
      const ids = t.config.config.fixtures[entry.list] ?? [];
      if (ids.length === 0)
        return t.skip(
          `no call with ${entry.what} named (fixtures.${entry.list}): summaries are not readable through the API`,
          'option',
        );
      const reads: CallReads['reads'] = [];
      for (const id of ids) reads.push({ id, exchange: await t.call({ params: { id } }) });
      return { reads };
    },
    problems: ({ reads }) =>
      reads.flatMap(({ id, exchange }) =>
        statusIs(exchange, isSuccess, `${op.method} ${id} without template_key: ${entry.what}, so no key is needed`),
      ),
    passed: ({ reads }) => `${reads.map((r) => r.id).join(', ')}: answered without template_key`,
  });
}

answeredWithoutKey({
  id: 'conversation-items.one-completed-summary',
  title:
    'A call with one completed summary and others pending (named in --config) is answered without template_key, not refused with SUMMARY_TEMPLATE_KEY_REQUIRED',
  precondition:
    'a call with exactly one completed summary and others pending (fixtures.one_completed_summary_call_ids: summaries are not readable through the API)',
  list: 'one_completed_summary_call_ids',
  what: 'one completed summary',
});

answeredWithoutKey({
  id: 'conversation-items.no-completed-summary',
  title:
    'A call with no completed summary (named in --config) is answered without template_key: a success, never a refusal or a 5xx',
  precondition:
    'a call with no completed summary (fixtures.no_completed_summary_call_ids: summaries are not readable through the API, and such a call is never the one the lists show)',
  list: 'no_completed_summary_call_ids',
  what: 'no completed summary',
});

interface SeveralCompleted {
  /** Calls the API showed more than one completed summary of (reads with two template keys answered 2xx). */
  held: Array<{ call: string; keys: string[]; exchange: Exchange }>;
  /** What was looked at, for the reason when nothing held. */
  calls: string[];
  keys: string[];
}

async function readSeveralCompleted(t: CheckContext): Promise<SeveralCompleted> {
  const f = await t.fixtures();
  const keys = templateKeys(t, f);
  if (keys.length < 2) return t.skip('the template_key parameter documents fewer than two template keys');
  const calls = summaryCalls(t, f, t.config.config.fixtures.several_completed_summary_call_ids ?? []);
  if (calls.length === 0) return t.skip('no call is known (fixtures.several_completed_summary_call_ids)', 'config');
  const completed = await completedSummaries(t, calls, keys);
  const held: SeveralCompleted['held'] = [];
  for (const call of calls) {
    const of = completed.filter((r) => r.call === call).map((r) => r.key);
    // The precondition, shown through the API: two documented keys each read a completed summary.
    if (of.length >= 2) held.push({ call, keys: of, exchange: await t.call({ params: { id: call } }) });
  }
  return { held, calls, keys };
}

rule({
  id: 'conversation-items.several-completed-summaries',
  title:
    'A call shown to have more than one completed summary (two template keys each read one) is refused without template_key: 400 SUMMARY_TEMPLATE_KEY_REQUIRED',
  source:
    'SUMMARY_TEMPLATE_KEY_REQUIRED: "Call has more than one completed summary; set template_key (e.g. MARKDOWN_CLASSIC or MARKDOWN_SHORT_CALL)"; SUMMARY_TEMPLATE_NOT_FOUND: "On item fetch: no completed summary for the requested template_key"',
  precondition:
    'a call with more than one completed summary, shown through the API: read with two documented template keys, each answered 2xx (the calls of fixtures.several_completed_summary_call_ids first, then the calls discovery found)',
  operationId: OP,
  resource: loadSpec().resourceOf(op),
  needs: { stateful: true },
  requests: readSeveralCompleted,
  problems: ({ held }, t) =>
    held.flatMap(({ call, keys, exchange }) =>
      afterEarlier(
        errorsOf(
          exchange,
          listedCode(t.spec, op, 'SUMMARY_TEMPLATE_KEY_REQUIRED'),
          `${op.method} ${call} without template_key (completed summaries read with ${keys.join(', ')})`,
        ),
      ),
    ),
  passed: ({ held }) => held.map((h) => `${h.call} (${h.keys.join(', ')}): 400 without template_key`).join('; '),
  notReached: ({ held, calls, keys }) =>
    held.length === 0
      ? `no call of ${calls.join(', ')} read a completed summary with two of ${keys.join(', ')} (name one in fixtures.several_completed_summary_call_ids)`
      : undefined,
});

/** Calls whose template_key read is tried with a key no template has, at most. */
const MAX_SELECTED = 2;

interface UnknownKeyReads {
  /** Calls shown to hold a completed summary (a documented key read one), each read with a key no template has. */
  held: Array<{ call: string; key: string; exchange: Exchange }>;
  calls: string[];
  /** The reads with each documented key that answered 2xx, and the documented keys. */
  completed: SummaryRead[];
  keys: string[];
}

/**
 * A read with one documented key whose answer names another documented key as a field's value
 * (the template of the summary shown, where the answer shows one): another summary was selected.
 */
function otherKeyShown({ call, key, exchange }: SummaryRead, keys: readonly string[]): Problem[] {
  const item = dataOf(exchange);
  if (!isObject(item)) return [];
  const shown = Object.entries(item).find(([, v]) => typeof v === 'string' && v !== key && keys.includes(v));
  return unless(
    shown === undefined,
    `${op.method} ${call} with template_key ${key} shows ${shown?.[0]} ${shown?.[1]}: the summary of another template`,
    exchange,
  );
}

/** A template key no team has: template keys are per team, and this one is made up for the run. */
function keyOfNoTemplate(t: CheckContext): string {
  return `SVC_CONTRACT_NO_TEMPLATE_${t.config.runId.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

async function readWithUnknownKey(t: CheckContext): Promise<UnknownKeyReads> {
  const f = await t.fixtures();
  const keys = templateKeys(t, f);
  if (keys.length === 0) return t.skip('the template_key parameter documents no template key');
  const calls = summaryCalls(t, f, t.config.config.fixtures.several_completed_summary_call_ids ?? []);
  if (calls.length === 0) return t.skip('no call is known (fixtures.several_completed_summary_call_ids)', 'config');
  const completed = await completedSummaries(t, calls, keys);
  const held: UnknownKeyReads['held'] = [];
  const key = keyOfNoTemplate(t);
  for (const call of [...new Set(completed.map((r) => r.call))].slice(0, MAX_SELECTED))
    held.push({ call, key, exchange: await t.call({ params: { id: call }, query: { [TEMPLATE_KEY]: key } }) });
  return { held, calls, completed, keys };
}

rule({
  id: 'conversation-items.template-key-selects',
  title:
    'template_key selects the summary: a call shown to hold a completed summary, read with a template_key no template has, is 404 SUMMARY_TEMPLATE_NOT_FOUND, never answered with another summary; read with a documented key, its answer names no other documented key',
  source:
    'getConversationItem: "optional template_key selects a summary"; SUMMARY_TEMPLATE_NOT_FOUND: "On item fetch: no completed summary for the requested template_key"',
  precondition:
    'a call shown through the API to hold a completed summary (read 2xx with a documented template key), then read with a template key made up for the run',
  operationId: OP,
  resource: loadSpec().resourceOf(op),
  needs: { stateful: true },
  requests: readWithUnknownKey,
  problems: ({ held, completed, keys }, t) => [
    ...completed.flatMap((read) => otherKeyShown(read, keys)),
    ...held.flatMap(({ call, key, exchange }) =>
      errorsOf(
        exchange,
        listedCode(t.spec, op, 'SUMMARY_TEMPLATE_NOT_FOUND'),
        `${op.method} ${call} with template_key ${key}, which no template has`,
      ),
    ),
  ],
  passed: ({ held }) => held.map((h) => `${h.call}: 404 for template_key ${h.key}`).join('; '),
  notReached: ({ held, calls }) =>
    held.length === 0
      ? `no call of ${calls.join(', ')} read a completed summary with a documented template key (name one in fixtures.several_completed_summary_call_ids)`
      : undefined,
});

const EXTEND = 'extend';

interface Composed {
  call: string;
  key: string;
  value: string;
  /** The call read without parameters and with the extension alone: what the extension adds. */
  plain: Exchange;
  extended: Exchange;
  /** The call read with its template key, and with the key and the extension together. */
  keyed: Exchange;
  both?: Exchange;
}

const fieldsOf = (exchange: Exchange): string[] => {
  const data = dataOf(exchange);
  return isObject(data) ? Object.keys(data) : [];
};

/** The fields the extension added to the plain read, missing from the read with both parameters. */
function extensionLost({ plain, extended, both }: Composed): string[] {
  if (!both || ![plain, extended, both].every(ok)) return [];
  const before = new Set(fieldsOf(plain));
  const present = new Set(fieldsOf(both));
  return fieldsOf(extended).filter((field) => !before.has(field) && !present.has(field));
}

async function readComposed(t: CheckContext): Promise<Composed[]> {
  const f = await t.fixtures();
  const param = t.op().parameters.find((p) => p.in === 'query' && p.name === EXTEND);
  const values = param ? documentedValues(t.spec, param, f) : [];
  if (values.length === 0) return t.skip(`the item read documents no value of ${EXTEND}`);
  const calls = t.config.config.fixtures.one_completed_summary_call_ids ?? [];
  if (calls.length === 0)
    return t.skip(
      'no call with one completed summary is named (fixtures.one_completed_summary_call_ids): only such a call reads both without and with a template key',
      'option',
    );
  const composed: Composed[] = [];
  const [call] = calls as [string];
  const [completed] = await completedSummaries(t, [call], templateKeys(t, f));
  if (!completed) return composed;
  const plain = await t.call({ params: { id: call } });
  for (const value of values) {
    const extended = await t.call({ params: { id: call }, query: { [EXTEND]: value } });
    const both = await t.call({ params: { id: call }, query: { [TEMPLATE_KEY]: completed.key, [EXTEND]: value } });
    composed.push({ call, key: completed.key, value, plain, extended, keyed: completed.exchange, both });
  }
  return composed;
}

rule({
  id: 'conversation-items.parameters-compose',
  title:
    'extend and template_key compose: the fields extend adds to a call read alone, it adds when template_key is given too, and the pair is answered 2xx',
  source:
    'getConversationItem: "optional extend=transcript; optional template_key selects a summary" (two optional parameters, neither said to exclude the other)',
  precondition:
    'a call with one completed summary (fixtures.one_completed_summary_call_ids), read 2xx with a documented template key, without parameters and with each documented extend value; then with both',
  operationId: OP,
  resource: loadSpec().resourceOf(op),
  needs: {},
  requests: readComposed,
  problems: (composed) =>
    composed.flatMap((read) => {
      const what = `${op.method} ${read.call} with ${TEMPLATE_KEY}=${read.key} and ${EXTEND}=${read.value}`;
      if (!read.both) return [];
      if (ok(read.plain) && ok(read.extended) && !ok(read.both))
        return [
          {
            message: `${what}: answered ${read.both.status}, while each parameter alone answered 2xx`,
            exchange: read.both,
          },
        ];
      const lost = extensionLost(read);
      return unless(
        lost.length === 0,
        `${what}: ${lost.join(', ')} missing, which ${EXTEND}=${read.value} adds to the call read alone`,
        read.both,
      );
    }),
  passed: (composed) =>
    composed
      .map((c) => `${c.call}: ${EXTEND}=${c.value} with ${TEMPLATE_KEY}=${c.key} adds what it adds alone`)
      .join('; '),
  notReached: (composed) =>
    composed.length === 0
      ? 'the call with one completed summary read no completed summary with any documented template key'
      : composed.every((c) => !ok(c.plain) || !ok(c.extended))
        ? 'the call was not answered 2xx both without parameters and with extend alone'
        : undefined,
});
