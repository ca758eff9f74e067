// Mutants of the call and item classes mutation testing of the reference server left (issue 34),
// each breaking its class somewhere other than the handler mutant that showed it, so that the
// check is general: a template_key no template has ignored before the server reads it, a batch
// answer leaving out an item it found, a call without a completed summary failing as it is
// answered, two conversations given the same last item
// in the list answer, an unknown text message id answered as an unknown call, a line of another
// team let through for the run's own key. Each is caught by
// name (and its report replayed); what the description allows still passes: the batch's items in
// another envelope and order with fields of its own, a not-found message in other words.
import { afterAll, describe, expect, it } from 'vitest';
import {
  itCatchesEachByName,
  itPassesEachAgainstTheSandbox,
  type Mutant,
  removeOutputs,
  runAgainst,
} from './support/mutants.js';
import { isBatch, isItemRead } from './support/requests.js';
import { json, type Mutation, mutatingProxy, type ProxiedRequest, sandbox, type Target } from './support/servers.js';

afterAll(removeOutputs);

const pathOf = (q: ProxiedRequest) => q.path.split('?')[0] ?? '';
const errorIn = (b: Record<string, unknown>) =>
  typeof b.error === 'object' && b.error !== null ? (b.error as Record<string, unknown>) : undefined;

/** The template keys the contract documents: any other is dropped from an item read before the server sees it. */
const DOCUMENTED_KEYS = new Set(['MARKDOWN_CLASSIC', 'MARKDOWN_SHORT_CALL']);
const ignoresUnknownTemplateKey: Mutation = {
  request: (q) => {
    if (!isItemRead(q)) return q;
    const [path, query = ''] = q.path.split('?');
    const params = new URLSearchParams(query);
    const key = params.get('template_key');
    if (key === null || DOCUMENTED_KEYS.has(key)) return q;
    params.delete('template_key');
    const rest = params.toString();
    return { ...q, path: rest === '' ? (path ?? '') : `${path}?${rest}` };
  },
};

/** A batch answer without the last item it found. */
const batchDropsAnItem: Mutation = {
  response: (r, q) =>
    isBatch(q) && r.status === 200
      ? json(r, (b) => {
          if (Array.isArray(b.data) && b.data.length > 1) b.data.pop();
        })
      : r,
};

/** A call read by id whose answer shows no summary (none completed) fails as it is answered. */
const summarylessCallFails: Mutation = {
  response: (r, q) => {
    if (!isItemRead(q) || !pathOf(q).includes('/cll-') || r.status !== 200) return r;
    const data = (JSON.parse(r.body) as { data?: { summary?: unknown } }).data;
    if (data?.summary !== '') return r;
    return json({ ...r, status: 500 }, (b) =>
      Object.assign(b, {
        data: undefined,
        error: {
          type: 'server_error',
          code: 'INTERNAL_SERVER_ERROR',
          message: 'Cannot read the summary.',
          retryable: true,
          request_id: r.headers.get('x-request-id'),
        },
      }),
    );
  },
};

/** The conversation list shows its first entry's last item in its second entry too. */
const conversationsShareALastItem: Mutation = {
  response: (r, q) =>
    q.method === 'GET' && pathOf(q) === '/v2/api/conversations' && r.status === 200
      ? json(r, (b) => {
          const entries = Array.isArray(b.data) ? (b.data as Array<Record<string, unknown>>) : [];
          const [first, second] = entries;
          if (first && second) second.last_item = first.last_item;
        })
      : r,
};

/** An unknown text message id answered as an unknown call. */
const unknownMessageIsACall: Mutation = {
  response: (r, q) =>
    isItemRead(q) && pathOf(q).includes('/msg-') && r.status === 404
      ? json(r, (b) => {
          const error = errorIn(b);
          if (error?.code === 'TEXT_MESSAGE_NOT_FOUND') error.code = 'CALL_NOT_FOUND';
        })
      : r,
};

/** The run's own key refused a line of another team: answered as if the line were its team's. */
function otherTeamsLineLetThrough(upstream: Target): Mutation {
  return {
    response: (r, q) => {
      const ownKey = q.headers.get('authorization') === `Api-Key ${upstream.apiKey}`;
      if (!ownKey || r.status !== 403 || !r.body.includes('SVC_NUMBER_FORBIDDEN')) return r;
      const empty = { page: 1, size: 20, total_count: 0, total_pages: 0, has_more: false };
      return { ...r, status: 200, body: JSON.stringify(q.method === 'GET' ? { data: [], pagination: empty } : {}) };
    },
  };
}

const CALLS: Mutant[] = [
  {
    name: 'ignores a template_key no template has (the first summary answered)',
    caughtBy: 'conversation-items.template-key-selects',
    only: ['conversation-items.template-key-selects'],
    mutation: ignoresUnknownTemplateKey,
  },
  {
    name: 'leaves an item it found out of a batch answer',
    caughtBy: 'conversation-items.batch-selected',
    only: ['conversation-items.batch-selected'],
    mutation: batchDropsAnItem,
  },
  {
    name: 'fails a call that has no completed summary',
    caughtBy: 'conversation-items.no-completed-summary',
    only: ['conversation-items.no-completed-summary'],
    mutation: summarylessCallFails,
  },
  {
    name: 'shows the same last item in two conversations',
    caughtBy: 'response.selection',
    only: ['listConversations'],
    mutation: conversationsShareALastItem,
  },
  {
    name: 'answers an unknown msg- id with CALL_NOT_FOUND',
    caughtBy: 'negative.unknown-id',
    only: ['getConversationItem'],
    mutation: unknownMessageIsACall,
  },
  {
    name: "lets the run's key use another team's line",
    caughtBy: 'auth.line-of-other-team',
    only: ['auth.line-of-other-team'],
    allowWrites: true,
    mutation: otherTeamsLineLetThrough,
  },
];

/** What the description allows: the batch's items under another envelope, in another order, with fields of their own; other wording. */
const allowedVariations: Mutation = {
  response: (r, q) => {
    if (isBatch(q) && r.status === 200)
      return json(r, (b) => {
        const items = Array.isArray(b.data) ? [...(b.data as Array<Record<string, unknown>>)].reverse() : [];
        b.data = { items: items.map((i) => ({ ...i, fetched: true })), count: items.length };
      });
    if (r.status === 404 && r.body.includes('SUMMARY_TEMPLATE_NOT_FOUND'))
      return json(r, (b) => {
        const error = errorIn(b);
        if (error) error.message = `That call holds no finished summary made with ${q.path.split('template_key=')[1]}.`;
      });
    return r;
  },
};

describe('the call and item classes mutation testing found: each mutant caught by name', () => {
  itCatchesEachByName(CALLS);

  itPassesEachAgainstTheSandbox(CALLS, { allowWrites: true });

  it('the batch in another envelope and order, and a not-found message in other words, pass', async () => {
    const upstream = await sandbox();
    try {
      const target = await mutatingProxy(upstream, allowedVariations);
      const { result, failed } = await runAgainst(target, {
        name: 'allowed variations',
        caughtBy: 'conversation-items.batch-selected',
        only: ['conversation-items.batch-selected', 'conversation-items.template-key-selects'],
      });
      expect(failed).toEqual([]);
      const passed = result.report.operations
        .flatMap((op) => op.checks)
        .filter((c) => c.status === 'passed')
        .map((c) => c.id);
      expect(passed).toEqual(
        expect.arrayContaining(['conversation-items.batch-selected', 'conversation-items.template-key-selects']),
      );
    } finally {
      await upstream.close();
    }
  });
});
