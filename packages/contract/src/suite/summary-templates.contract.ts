// Summary templates: DELETE deactivates (x-svc-transitions: active → deactivated, 204; a second
// DELETE finds no active template, 404). Ids come from the config file; each run deactivates one,
// so a staging server needs a supply (or the 204 half is reported as skipped once all are used).
import { listedCode } from '../checks/expect.js';
import { need } from '../fixtures.js';
import { documentedHeaders, operationChecks } from './operation-checks.js';
import { ok } from './support.js';

interface Transition {
  error_code?: string;
}

operationChecks('deleteSummaryTemplate', {
  success: false,
  baseline: (_t, f) => ({
    params: { id: need(f.summaryTemplates[0], 'a summary template id (set fixtures.summary_template_ids)') },
  }),
  scenarios: (op, scenario) => {
    scenario('summary-templates.delete', async (t) => {
      const ids = need(
        (await t.fixtures()).summaryTemplates,
        'summary template ids the suite may deactivate (fixtures.summary_template_ids)',
      );
      const transitions = (
        Array.isArray(op.raw['x-svc-transitions']) ? op.raw['x-svc-transitions'] : []
      ) as Transition[];
      const gone = transitions.find((tr) => typeof tr.error_code === 'string')?.error_code;
      if (!gone) return t.skip('the operation has no x-svc-transitions naming the error of a deactivated template');
      const notFound = listedCode(t.spec, op, gone);
      for (const id of ids) {
        const first = await t.call({ params: { id } }, documentedHeaders(op, `${t.config.runId}-delete-${id}`));
        if (first.status === notFound.status) continue; // deactivated by an earlier run
        if (!t.expect(ok(first), `DELETE ${id}: expected 204, got ${first.status}`, first)) return;
        t.expectError(await t.call({ params: { id } }), notFound, `DELETE ${id} again`);
        t.pass(`${id} deactivated, then ${notFound.status}`);
        return;
      }
      return t.skip(
        `every configured template is already deactivated (each DELETE answered ${notFound.status}); add active ones to fixtures.summary_template_ids`,
        'config',
      );
    });
  },
});
