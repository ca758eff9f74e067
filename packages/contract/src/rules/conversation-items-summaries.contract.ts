// A call whose summaries are mixed: one completed, the others still pending. The error
// SUMMARY_TEMPLATE_KEY_REQUIRED is for a call that "has more than one completed summary", so such
// a call is answered without a template_key. Which summaries a call has is not readable through
// the API: the calls come from the config (fixtures.one_completed_summary_call_ids; a sandbox
// names its own).
import type { Exchange } from '../http/exchange.js';
import { loadSpec } from '../spec.js';
import { contractOperation, rule } from './harness.js';
import { isSuccess, statusIs } from './problems.js';

const OP = 'getConversationItem';
const op = contractOperation(OP);

interface MixedCalls {
  reads: Array<{ id: string; exchange: Exchange }>;
}

rule({
  id: 'conversation-items.one-completed-summary',
  title:
    'A call with one completed summary and others pending (named in --config) is answered without template_key, not refused with SUMMARY_TEMPLATE_KEY_REQUIRED',
  source:
    'SUMMARY_TEMPLATE_KEY_REQUIRED: "Call has more than one completed summary; set template_key"; getConversationItem: "optional template_key selects a summary"',
  precondition:
    'a call with exactly one completed summary and others pending (fixtures.one_completed_summary_call_ids: summaries are not readable through the API)',
  operationId: OP,
  resource: loadSpec().resourceOf(op),
  needs: {},
  requests: async (t): Promise<MixedCalls> => {
    const ids = t.config.config.fixtures.one_completed_summary_call_ids ?? [];
    if (ids.length === 0)
      return t.skip(
        'no call with one completed summary and others pending named (fixtures.one_completed_summary_call_ids): summaries are not readable through the API',
        'option',
      );
    const reads: MixedCalls['reads'] = [];
    for (const id of ids) reads.push({ id, exchange: await t.call({ params: { id } }) });
    return { reads };
  },
  problems: ({ reads }) =>
    reads.flatMap(({ id, exchange }) =>
      statusIs(
        exchange,
        isSuccess,
        `${op.method} ${id} without template_key: one completed summary, so no key is needed`,
      ),
    ),
  passed: ({ reads }) => `${reads.map((r) => r.id).join(', ')}: answered without template_key`,
});
