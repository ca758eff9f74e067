// DELETE /v2/api/summary_templates/{id}: soft delete (deactivate). Summaries already generated
// with the template are untouched; a second delete finds no active template and answers 404.
import { fail, type Handler, noContent } from './types.js';

export const deleteSummaryTemplate: Handler = ({ team, params }) => {
  const template = team.summary_templates.find((t) => t.id === params.id && t.active);
  if (!template)
    return fail('SUMMARY_TEMPLATE_NOT_FOUND', `No active summary template with id ${params.id} for this team.`, {
      param: 'id',
    });
  template.active = false;
  return noContent();
};
