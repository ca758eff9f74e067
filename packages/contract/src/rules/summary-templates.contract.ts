// Summary templates: DELETE deactivates (x-svc-transitions: active → deactivated, 204; a second
// DELETE finds no active template, 404). Ids come from the config file; each run deactivates one,
// so a staging server needs a supply (or the 204 half is reported as skipped once all are used).
import { type Expected, listedCode } from '../expectations/expect.js';
import { need } from '../fixtures.js';
import type { Exchange } from '../http/exchange.js';
import {
  completedSummaries,
  ITEM_READ,
  readAgain,
  type SummaryRead,
  summaryCalls,
  templateKeys,
} from './call-summaries.js';
import { type CheckContext, rule, statefulWrite } from './harness.js';
import { documentedHeaders, operationChecks } from './operation-checks.js';
import { afterEarlier, errorsOf } from './problems.js';
import { IDEMPOTENCY_REPLAY, ok, otherCallers, type Repeats, replayProblems, sendRepeats } from './support.js';
import { usedUp } from './used-up.js';

const OP = 'deleteSummaryTemplate';

interface Transition {
  error_code?: string;
}

operationChecks(OP, {
  success: false,
  baseline: (_t, f) => ({
    params: { id: need(f.summaryTemplates[0], 'a summary template id (set fixtures.summary_template_ids)') },
  }),
});

/** The documented answer to a DELETE of a deactivated template (the transition naming an error). */
function goneExpected(t: CheckContext): Expected {
  const op = t.op();
  const transitions = (Array.isArray(op.raw['x-svc-transitions']) ? op.raw['x-svc-transitions'] : []) as Transition[];
  const gone = transitions.find((tr) => typeof tr.error_code === 'string')?.error_code;
  if (!gone) return t.skip('the operation has no x-svc-transitions naming the error of a deactivated template');
  return listedCode(t.spec, op, gone);
}

interface Deactivation {
  id: string;
  notFound: Expected;
  first: Exchange;
  /** The keyed DELETE and its key sent three times more: each repeat the stored 204, replayed. */
  repeats: Repeats;
  again?: Exchange;
  /** The same DELETE by other keys of the team after it: the template is the team's, deactivated for every key. */
  againByOthers: Array<{ key: string; exchange: Exchange }>;
  /** The completed summaries read before the DELETE, and the same reads after it. */
  before: SummaryRead[];
  after: SummaryRead[];
  /** Calls with more than one completed summary before the DELETE, read without a template key before and after it. */
  keyless: Array<{ call: string; before: Exchange; after?: Exchange }>;
}

/** The calls of which two template keys each read a completed summary. */
function severalCompleted(reads: readonly SummaryRead[]): string[] {
  const count = new Map<string, number>();
  for (const { call, exchange } of reads) if (ok(exchange)) count.set(call, (count.get(call) ?? 0) + 1);
  return [...count].filter(([, n]) => n > 1).map(([call]) => call);
}

const readKeyless = (t: CheckContext, call: string) => t.call({ params: { id: call } }, {}, ITEM_READ);

/** The completed summaries the API shows of the known calls, under every documented template key. */
async function summariesNow(t: CheckContext): Promise<SummaryRead[]> {
  const f = await t.fixtures();
  const configured = t.config.config.fixtures;
  const named = [
    ...(configured.several_completed_summary_call_ids ?? []),
    ...(configured.one_completed_summary_call_ids ?? []),
  ];
  return completedSummaries(t, summaryCalls(t, f, named), templateKeys(t, f));
}

/**
 * The first configured template still active, deleted, then deleted again; the summaries already
 * generated read before and after (once per run: both checks of the deactivation judge it).
 */
function deactivation(t: CheckContext): Promise<Deactivation> {
  return t.once('summary-template-deactivation', () => deactivateOne(t));
}

async function deactivateOne(t: CheckContext): Promise<Deactivation> {
  const ids = need(
    (await t.fixtures()).summaryTemplates,
    'summary template ids the suite may deactivate (fixtures.summary_template_ids)',
  );
  const notFound = goneExpected(t);
  const before = await summariesNow(t);
  const keyless: Deactivation['keyless'] = [];
  for (const call of severalCompleted(before)) keyless.push({ call, before: await readKeyless(t, call) });
  for (const id of ids) {
    const headers = documentedHeaders(t.op(), `${t.config.runId}-delete-${id}`);
    // A server that runs a keyed DELETE again finds no active template (404); one that replays, 204.
    const repeats = await sendRepeats(t, `a keyed DELETE of ${id}`, 'replay', (keyed) =>
      t.call({ params: { id } }, { ...headers, ...keyed }),
    );
    const { first } = repeats;
    if (first.status === notFound.status) continue; // deactivated by an earlier run
    if (!ok(first)) return { id, notFound, first, repeats, before, after: [], keyless, againByOthers: [] };
    const again = await t.call({ params: { id } });
    const againByOthers: Deactivation['againByOthers'] = [];
    for (const key of otherCallers(t, t.op()))
      againByOthers.push({
        key: key.name,
        exchange: await t.call({ params: { id } }, { auth: { kind: 'key', key: key.key } }),
      });
    const after = await readAgain(t, before);
    for (const read of keyless) read.after = await readKeyless(t, read.call);
    return { id, notFound, first, repeats, again, againByOthers, before, after, keyless };
  }
  return t.skip(
    usedUp(
      t,
      `every known template is already deactivated (each DELETE answered ${notFound.status})`,
      'summary_template_ids',
    ),
    'config',
  );
}

rule({
  id: 'summary-templates.delete',
  title: 'DELETE gives 204, then 404 for the same template, by the same key and by other keys of the team',
  source: 'x-svc-transitions',
  precondition:
    'an active summary template (fixtures.summary_template_ids), deactivated by the run, then deleted again by the run key and by other keys of the team that may delete',
  enforces: [
    'x-svc-transitions DELETE /v2/api/summary_templates/{id} (active → deactivated)',
    'x-svc-transitions DELETE /v2/api/summary_templates/{id} (deactivated → deactivated)',
  ],
  ...statefulWrite(OP),
  requests: deactivation,
  problems: ({ id, notFound, first, again, againByOthers }) =>
    again
      ? [
          ...errorsOf(again, notFound, `DELETE ${id} again`),
          ...againByOthers.flatMap(({ key, exchange }) =>
            errorsOf(exchange, notFound, `DELETE ${id} again by another key of the team (${key})`),
          ),
        ]
      : [{ message: `DELETE ${id}: expected 204, got ${first.status}`, exchange: first }],
  passed: ({ id, notFound }) => `${id} deactivated, then ${notFound.status}`,
});

// The deactivation above, its key sent three times more before the unkeyed DELETE.
rule({
  ...IDEMPOTENCY_REPLAY,
  ...statefulWrite(OP),
  requests: deactivation,
  problems: ({ first, repeats }, t) => (ok(first) ? replayProblems(repeats, t.spec.idempotencyReplayedHeader) : []),
  passed: ({ repeats }) => `${repeats.what}: 3 repeats replayed`,
  notReached: ({ id, first }) =>
    ok(first) ? undefined : `the DELETE of ${id} was not answered 2xx (${first.status}): no key to send again`,
});

rule({
  id: 'summary-templates.delete-keeps-summaries',
  title:
    'After a DELETE deactivates a template, the summaries already generated stay readable: every call read with a template key before the DELETE reads the same after it, and a call with more than one still needs a template key',
  source:
    'Summary template lifecycle: active → DELETE → deactivated (soft-deleted), "not used for new call summaries; summaries already generated are unaffected"',
  precondition:
    'completed summaries read (a call read with a documented template key answered 2xx) before an active template (fixtures.summary_template_ids) was deactivated by the run, then read again; a call with more than one read without a template key before and after',
  ...statefulWrite(OP),
  requests: deactivation,
  problems: ({ after, keyless }) =>
    afterEarlier([
      ...after.flatMap(({ call, key, exchange }) =>
        ok(exchange)
          ? []
          : [
              {
                message: `${call} with template_key ${key} read a completed summary before the DELETE, and answers ${exchange.status} after it`,
                exchange,
              },
            ],
      ),
      // Its summaries unaffected, the call still has more than one: read without a key, still refused.
      ...keyless.flatMap(({ call, before, after: read }) =>
        read && !ok(before) && ok(read)
          ? [
              {
                message: `${call} has more than one completed summary, and its read without template_key was refused (${before.status}) before the DELETE but answers ${read.status} after it`,
                exchange: read,
              },
            ]
          : [],
      ),
    ]),
  passed: ({ id, after }) =>
    `${id} deactivated; ${after.map((r) => `${r.call}?template_key=${r.key}`).join(', ')} read the same after`,
  notReached: ({ first, before }) => {
    if (!ok(first)) return `the DELETE was not answered 2xx (${first.status}): no template was deactivated`;
    return before.length === 0
      ? 'no completed summary was read before the DELETE (no known call read with a documented template key answered 2xx)'
      : undefined;
  },
});

interface DeactivatedBefore {
  notFound: Expected;
  deletes: Array<{ id: string; exchange: Exchange }>;
}

// A template deactivated before the run is a state no operation shows (the API reads no template):
// only the config can name one. A server that remembers only its own deactivations answers 204.
rule({
  id: 'summary-templates.inactive',
  title: 'DELETE of a template deactivated before the run (named in --config) is 404 SUMMARY_TEMPLATE_NOT_FOUND',
  source: 'deleteSummaryTemplate 404 SUMMARY_TEMPLATE_NOT_FOUND: "no active template with this id exists for the team"',
  precondition:
    'a summary template deactivated before the run (fixtures.inactive_summary_template_ids: no operation reads a template)',
  ...statefulWrite(OP),
  requests: async (t): Promise<DeactivatedBefore> => {
    const ids = t.config.config.fixtures.inactive_summary_template_ids ?? [];
    if (ids.length === 0)
      return t.skip(
        'no template deactivated before the run named (fixtures.inactive_summary_template_ids): the API reads no template, so only a server that has one can name it',
        'option',
      );
    const notFound = goneExpected(t);
    const deletes: DeactivatedBefore['deletes'] = [];
    for (const id of ids.slice(0, t.config.fixturesPerKind ?? 20))
      deletes.push({ id, exchange: await t.call({ params: { id } }) });
    return { notFound, deletes };
  },
  problems: ({ notFound, deletes }) =>
    deletes.flatMap(({ id, exchange }) => errorsOf(exchange, notFound, `DELETE ${id}, deactivated before the run`)),
  passed: ({ notFound, deletes }) => `${deletes.map((d) => d.id).join(', ')}: ${notFound.status}`,
});
