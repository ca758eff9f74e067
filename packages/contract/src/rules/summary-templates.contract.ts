// Summary templates: DELETE deactivates (x-svc-transitions: active → deactivated, 204; a second
// DELETE finds no active template, 404). Ids come from the config file; each run deactivates one,
// so a staging server needs a supply (or the 204 half is reported as skipped once all are used).
import { type Expected, listedCode } from '../expectations/expect.js';
import { need } from '../fixtures.js';
import type { Exchange } from '../http/exchange.js';
import { type CheckContext, rule, statefulWrite } from './harness.js';
import { documentedHeaders, operationChecks } from './operation-checks.js';
import { errorsOf } from './problems.js';
import { ok } from './support.js';
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
  again?: Exchange;
}

/** The first configured template still active, deleted, then deleted again. */
async function deactivateOne(t: CheckContext): Promise<Deactivation> {
  const ids = need(
    (await t.fixtures()).summaryTemplates,
    'summary template ids the suite may deactivate (fixtures.summary_template_ids)',
  );
  const notFound = goneExpected(t);
  for (const id of ids) {
    const first = await t.call({ params: { id } }, documentedHeaders(t.op(), `${t.config.runId}-delete-${id}`));
    if (first.status === notFound.status) continue; // deactivated by an earlier run
    if (!ok(first)) return { id, notFound, first };
    return { id, notFound, first, again: await t.call({ params: { id } }) };
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
  title: 'DELETE gives 204, then 404 for the same template',
  source: 'x-svc-transitions',
  precondition: 'an active summary template (fixtures.summary_template_ids), deactivated by the run',
  enforces: [
    'x-svc-transitions DELETE /v2/api/summary_templates/{id} (active → deactivated)',
    'x-svc-transitions DELETE /v2/api/summary_templates/{id} (deactivated → deactivated)',
  ],
  ...statefulWrite(OP),
  requests: deactivateOne,
  problems: ({ id, notFound, first, again }) =>
    again
      ? errorsOf(again, notFound, `DELETE ${id} again`)
      : [{ message: `DELETE ${id}: expected 204, got ${first.status}`, exchange: first }],
  passed: ({ id, notFound }) => `${id} deactivated, then ${notFound.status}`,
});
