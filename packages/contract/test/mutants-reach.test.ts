// The mutants of the checks that reach further into the contract (inputs.explore, the scenarios
// that send every documented input, the read-backs of their effects): each a sandbox broken in one
// way the description states, caught by name; and for each, a harmless variation of the same
// class (a control) that must pass, so that teeth and false positives are both tested.
import { afterAll, describe, expect, it } from 'vitest';
import { itCatchesEachByName, type Mutant, removeOutputs, runAgainst } from './support/mutants.js';
import { bodyOf, json, type Mutation, mutatingProxy, type ProxiedRequest, pathOf, sandbox } from './support/servers.js';

afterAll(removeOutputs);

const withBody = (q: ProxiedRequest, body: Record<string, unknown>): ProxiedRequest => ({
  ...q,
  body: JSON.stringify(body),
});

/** An error answer in the API's dialect, for a mutant that refuses what the contract allows. */
function refuse(status: number, type: string, code: string): Mutation['response'] {
  return (r, q) =>
    json({ ...r, status }, (b) => {
      delete b.data;
      // The request's target quoted: a not-found message includes the failing value.
      const message = `refused: ${decodeURIComponent(q.path)}`;
      b.error = { type, code, message, retryable: false, request_id: r.headers.get('x-request-id') };
    });
}

/** Requests whose body matches `when` are refused as invalid input. */
function refuses(when: (q: ProxiedRequest) => boolean, code: string): Mutation {
  const answer = refuse(400, 'validation_error', code);
  return { response: (r, q) => (when(q) && answer ? answer(r, q) : r) };
}

const isQueue = (q: ProxiedRequest) => q.method === 'PATCH' && pathOf(q) === '/v2/api/dialing-queues/current';
const isField = (q: ProxiedRequest) => q.method === 'PATCH' && pathOf(q).startsWith('/v2/api/crm/attributes/');

const REACH: Mutant[] = [
  {
    name: 'refuses extend=transcript, a documented value',
    caughtBy: 'inputs.explore',
    only: ['getConversationItem', 'inputs.explore'],
    mutation: refuses((q) => /[?&]extend=transcript(&|$)/.test(q.path), 'UNSUPPORTED_EXTEND_VALUE'),
  },
  {
    name: 'ignores do_not_disturb (answers the queue unchanged)',
    caughtBy: 'dialer-queues.each-value',
    only: ['dialer-queues.each-value'],
    allowWrites: true,
    mutation: {
      request: (q) => {
        if (!isQueue(q)) return q;
        const { do_not_disturb: _dropped, ...rest } = bodyOf(q);
        return withBody(q, rest);
      },
    },
  },
  {
    name: 'uses email over user_id (the description says user_id wins)',
    caughtBy: 'dialer-queues.each-value',
    only: ['dialer-queues.each-value'],
    allowWrites: true,
    mutation: {
      request: (q) => {
        const body = bodyOf(q);
        if (!isQueue(q) || body.user_id === undefined || body.email === undefined) return q;
        const { user_id: _ignored, ...rest } = body;
        return withBody(q, rest);
      },
    },
  },
  {
    name: 'keeps the description when a blank one is sent',
    caughtBy: 'custom-fields.description',
    only: ['custom-fields.description'],
    allowWrites: true,
    mutation: {
      request: (q) => {
        const body = bodyOf(q);
        if (!isField(q) || typeof body.description !== 'string' || body.description.trim() !== '') return q;
        const { description: _kept, ...rest } = body;
        return withBody(q, rest);
      },
    },
  },
  {
    // Refusing the flat single values is a reading the contract allows (body-form); storing a value
    // other than the one written back is not.
    name: 'stores a greeting other than the one written back',
    caughtBy: 'receptionist.write-back',
    only: ['receptionist.write-back'],
    allowWrites: true,
    mutation: {
      request: (q) => {
        const body = bodyOf(q);
        if (q.method !== 'PATCH' || !pathOf(q).endsWith('/agent') || typeof body.greeting_message !== 'string')
          return q;
        return withBody(q, { ...body, greeting_message: `${body.greeting_message} (changed)` });
      },
    },
  },
  {
    name: 'refuses threads on conversation notes',
    caughtBy: 'threads.create-each-kind',
    only: ['threads.create-each-kind'],
    allowWrites: true,
    mutation: refuses(
      (q) => q.method === 'POST' && pathOf(q) === '/v2/api/threads' && bodyOf(q).entity_type === 'CONVERSATION_NOTE',
      'INVALID_THREAD_ENTITY_TYPE',
    ),
  },
  {
    name: 'refuses an action scoped to a line',
    caughtBy: 'conversations.action-on-line',
    only: ['conversations.action-on-line'],
    allowWrites: true,
    mutation: refuses(
      (q) => q.method === 'PUT' && pathOf(q).endsWith('/action') && bodyOf(q).svc_number !== undefined,
      'INVALID_PHONE_FORMAT',
    ),
  },
  {
    // Each page consistent on its own (response.pagination holds): only the walk sees the rest missing.
    name: 'counts only the page in total_count on small pages (the rest of the list unreachable)',
    caughtBy: 'lists.walk',
    only: ['listCustomFields', 'lists.walk'],
    mutation: {
      response: (r, q) =>
        r.status === 200 && pathOf(q) === '/v2/api/crm/attributes' && /[?&]size=[2-4](&|$)/.test(q.path)
          ? json(r, (b) => {
              const n = (b.data as unknown[]).length;
              Object.assign(b.pagination as object, { total_count: n, total_pages: n > 0 ? 1 : 0, has_more: false });
            })
          : r,
    },
  },
  {
    // Only the first line is the baseline's: a server broken on another line is seen by walking them all.
    name: 'answers the receptionist of the last line of the team with 404 PHONE_NUMBER_NOT_FOUND',
    caughtBy: 'reads.every-line',
    only: ['getReceptionist', 'reads.every-line'],
    mutation: {
      response: (r, q) =>
        q.method === 'GET' && /^\/v2\/api\/numbers\/%2B442071838700\/agent$/i.test(pathOf(q))
          ? (refuse(404, 'not_found_error', 'PHONE_NUMBER_NOT_FOUND')?.(r, q) ?? r)
          : r,
    },
  },
  // --- The rules of the full sentence audit (x-svc-response-rules, omitted fields in the schema).
  {
    name: "answers a thread's comments newest first (the description says creation order)",
    caughtBy: 'described.order',
    only: ['getThread', 'described.order'],
    mutation: {
      response: (r, q) =>
        r.status === 200 && q.method === 'GET' && /^\/v2\/api\/threads\/[^/]+$/.test(pathOf(q))
          ? json(r, (b) => {
              const thread = b.data as Record<string, unknown>;
              thread.comments = [...(thread.comments as unknown[])].reverse();
            })
          : r,
    },
  },
  {
    name: 'lists a built-in field (name) among the custom fields',
    caughtBy: 'described.excludes',
    only: ['listCustomFields', 'described.excludes'],
    mutation: {
      response: (r, q) =>
        r.status === 200 && pathOf(q) === '/v2/api/crm/attributes'
          ? json(r, (b) => {
              (b.data as unknown[]).push({ key: 'name', label: 'Name', type: 'TEXT' });
            })
          : r,
    },
  },
  {
    name: 'gives MISSING_PARAMETER without naming the parameter in param',
    caughtBy: 'described.error-mentions',
    only: ['findThread', 'described.error-mentions'],
    mutation: {
      response: (r) =>
        r.status === 400 && r.body.includes('"MISSING_PARAMETER"')
          ? json(r, (b) => {
              delete (b.error as Record<string, unknown>).param;
            })
          : r,
    },
  },
  {
    name: 'words validation errors without the value that failed',
    caughtBy: 'described.error-mentions',
    only: ['listCustomFields', 'described.error-mentions'],
    mutation: {
      response: (r) =>
        r.status === 400 && r.body.includes('"validation_error"')
          ? json(r, (b) => {
              (b.error as Record<string, unknown>).message = 'The request is not valid.';
            })
          : r,
    },
  },
  {
    name: "carries each website's scraped text in the receptionist's knowledge (the description omits it)",
    caughtBy: 'response.schema',
    only: ['getReceptionist', 'conformance.success'],
    mutation: {
      response: (r, q) =>
        r.status === 200 && q.method === 'GET' && pathOf(q).endsWith('/agent')
          ? json(r, (b) => {
              const knowledge = (b.data as { knowledge: { websites: Array<Record<string, unknown>> } }).knowledge;
              knowledge.websites = knowledge.websites.map((w) => ({ ...w, scraped_text: 'Cleanings, whitening.' }));
            })
          : r,
    },
  },
  {
    name: 'answers several failing fields with INVALID_REQUEST but another message',
    caughtBy: 'response.schema',
    only: ['upsertCurrentDialingQueue', 'negative'],
    allowWrites: true,
    mutation: {
      response: (r) =>
        r.status === 400 && r.body.includes('"INVALID_REQUEST"')
          ? json(r, (b) => {
              (b.error as Record<string, unknown>).message = 'Bad request';
            })
          : r,
    },
  },
  {
    // The baseline reads the first deal only: a server broken on another record is seen by reading them all.
    name: 'answers the second deal with 404 (the first reads fine)',
    caughtBy: 'reads.every-fixture',
    only: ['getDeal', 'reads.every-fixture'],
    mutation: {
      response: (r, q) =>
        q.method === 'GET' && pathOf(q) === '/v2/api/crm/deals/dea-2Wq8Er4t'
          ? (refuse(404, 'not_found_error', 'ENDPOINT_NOT_FOUND')?.(r, q) ?? r)
          : r,
    },
  },
  {
    // The last item of the conversation on the other line: only reading each conversation per line finds it.
    name: 'answers a conversation item that is the last of its conversation on one line only with 404',
    caughtBy: 'reads.every-fixture',
    only: ['getConversationItem', 'reads.every-fixture'],
    mutation: {
      response: (r, q) =>
        q.method === 'GET' && pathOf(q) === '/v2/api/conversations/items/cll-2Vb7cX1z'
          ? (refuse(404, 'not_found_error', 'CALL_NOT_FOUND')?.(r, q) ?? r)
          : r,
    },
  },
  {
    name: 'refuses receptionist updates on the last line of the team',
    caughtBy: 'writes.every-line',
    only: ['updateReceptionist', 'writes.every-line'],
    allowWrites: true,
    mutation: {
      response: (r, q) =>
        q.method === 'PATCH' && /^\/v2\/api\/numbers\/%2B442071838700\/agent$/i.test(pathOf(q))
          ? (refuse(404, 'not_found_error', 'PHONE_NUMBER_NOT_FOUND')?.(r, q) ?? r)
          : r,
    },
  },
  {
    // Accepted, but not a no-op: an empty update on another line resets what it holds.
    name: 'resets the greeting of a line other than the first on an empty update',
    caughtBy: 'writes.every-line',
    only: ['updateReceptionist', 'writes.every-line'],
    allowWrites: true,
    mutation: {
      request: (q) =>
        q.method === 'PATCH' &&
        /^\/v2\/api\/numbers\/%2B14155550188\/agent$/i.test(pathOf(q)) &&
        Object.keys(bodyOf(q)).length === 0
          ? withBody(q, { greeting_message: 'reset by an empty update' })
          : q,
    },
  },
  {
    // The seed's notes: the suite never wrote them, so only re-parsing what it reads sees this.
    name: 'lists no mentions in the notes it reads',
    caughtBy: 'response.mentions',
    only: ['getConversationNote'],
    mutation: {
      response: (r, q) =>
        r.status === 200 && /^\/v2\/api\/conversations\/notes\//.test(pathOf(q))
          ? json(r, (b) => {
              (b.data as Record<string, unknown>).mentions = [];
            })
          : r,
    },
  },
  {
    name: 'lists a user in the mentions of a thread comment whose content does not mention them',
    caughtBy: 'response.mentions',
    only: ['getThread'],
    mutation: {
      response: (r, q) =>
        r.status === 200 && q.method === 'GET' && /^\/v2\/api\/threads\/cth-/.test(pathOf(q))
          ? json(r, (b) => {
              for (const c of (b.data as { comments: Array<{ mentions: unknown[] }> }).comments)
                c.mentions.push({ user_id: 'usr-0Nobody00', name: null, deleted: true });
            })
          : r,
    },
  },
  {
    // The action's scope is ambiguous, so auth.insufficient-scope checks only the refusal there.
    name: 'names no scope in the message of API_KEY_INSUFFICIENT_SCOPE (on the action, whose scope is ambiguous)',
    caughtBy: 'response.error-details',
    only: ['applyConversationAction', 'auth.insufficient-scope'],
    allowWrites: true,
    mutation: {
      response: (r) =>
        r.status === 403 && r.body.includes('API_KEY_INSUFFICIENT_SCOPE')
          ? json(r, (b) => {
              Object.assign(b.error as object, { message: 'This key may not do that.', suggestion: 'Ask an admin.' });
            })
          : r,
    },
  },
  {
    name: 'refuses a phone number not in E.164 without a suggestion',
    caughtBy: 'response.error-details',
    only: ['listConversations', 'negative.phone-format'],
    mutation: {
      response: (r) =>
        r.status === 400 && r.body.includes('INVALID_PHONE_FORMAT')
          ? json(r, (b) => {
              delete (b.error as Record<string, unknown>).suggestion;
            })
          : r,
    },
  },
  {
    // Counts consistent on every page (response.pagination holds): only walking the list of that line sees it.
    name: "shows another conversation in place of its own on small pages of one line's conversation list",
    caughtBy: 'lists.walk',
    only: ['listConversations', 'lists.walk'],
    mutation: {
      response: (r, q) =>
        r.status === 200 &&
        pathOf(q) === '/v2/api/conversations' &&
        /[?&]svc_number=%2B14155550188(&|$)/i.test(q.path) &&
        /[?&]size=[1-4](&|$)/.test(q.path)
          ? json(r, (b) => {
              const [first] = b.data as Array<Record<string, unknown>>;
              if (first) first.contact_number = '+14155550999';
            })
          : r,
    },
  },
];

/** Harmless variations of the same classes: each must pass the checks its mutant fails. */
const CONTROLS: Array<{ name: string; only: string[]; mutation: Mutation }> = [
  {
    // The same entries, their fields in another order: the walk compares values, not text.
    name: 'answers list entries with their fields in another order',
    only: ['listCustomFields', 'lists.walk'],
    mutation: {
      response: (r, q) =>
        r.status === 200 && pathOf(q) === '/v2/api/crm/attributes'
          ? json(r, (b) => {
              b.data = (b.data as Array<Record<string, unknown>>).map((e) =>
                Object.fromEntries(Object.entries(e).reverse()),
              );
            })
          : r,
    },
  },
  {
    name: 'answers the receptionist of every line with its blocks in another order',
    only: ['getReceptionist', 'reads.every-line'],
    mutation: {
      response: (r, q) =>
        r.status === 200 && pathOf(q).endsWith('/agent')
          ? json(r, (b) => {
              b.data = Object.fromEntries(Object.entries(b.data as Record<string, unknown>).reverse());
            })
          : r,
    },
  },
  {
    // A template key is per team: a server without it answers the documented 404.
    name: 'answers every template_key with the documented 404',
    only: ['getConversationItem', 'inputs.explore'],
    mutation: {
      response: (r, q) =>
        /[?&]template_key=/.test(q.path)
          ? (refuse(404, 'not_found_error', 'SUMMARY_TEMPLATE_NOT_FOUND')?.(r, q) ?? r)
          : r,
    },
  },
  {
    name: 'answers the queue with its fields in another order',
    only: ['dialer-queues.each-value'],
    mutation: {
      response: (r, q) =>
        isQueue(q) && r.status === 200
          ? json(r, (b) => {
              const data = b.data as Record<string, unknown>;
              b.data = Object.fromEntries(Object.entries(data).reverse());
            })
          : r,
    },
  },
  {
    // A cleared description may be left out of the answer instead of sent blank.
    name: 'leaves a cleared description out of the answer',
    only: ['custom-fields.description'],
    mutation: {
      response: (r, q) => {
        const sent = bodyOf(q).description;
        if (!isField(q) || r.status !== 200 || typeof sent !== 'string' || sent.trim() !== '') return r;
        return json(r, (b) => {
          delete (b.data as Record<string, unknown>).description;
        });
      },
    },
  },
  {
    name: 'answers JSON as application/json; charset=utf-8 (the write-back, a thread per kind, actions per line)',
    only: ['receptionist.write-back', 'threads.create-each-kind', 'conversations.action-on-line'],
    mutation: {
      response: (r) => {
        if (!r.headers.get('content-type')?.startsWith('application/json')) return r;
        const headers = new Headers(r.headers);
        headers.set('content-type', 'application/json; charset=utf-8');
        return { ...r, headers };
      },
    },
  },
  {
    // Another record of the same kind answered in the other reading the contract allows (the deal naming).
    name: 'answers the second deal with the field-table naming (value, close_date, person)',
    only: ['getDeal', 'reads.every-fixture'],
    mutation: {
      response: (r, q) =>
        r.status === 200 && pathOf(q) === '/v2/api/crm/deals/dea-2Wq8Er4t'
          ? json(r, (b) => {
              const deal = b.data as Record<string, unknown>;
              Object.assign(deal, { value: deal.amount, close_date: deal.closed_at, person: null });
              delete deal.amount;
              delete deal.closed_at;
            })
          : r,
    },
  },
  {
    name: 'answers the receptionist update of every line with 204, its other documented success status',
    only: ['updateReceptionist', 'writes.every-line'],
    mutation: {
      response: (r, q) => {
        if (q.method !== 'PATCH' || !pathOf(q).endsWith('/agent') || r.status !== 200) return r;
        const headers = new Headers(r.headers);
        headers.delete('content-type');
        return { status: 204, headers, body: '' };
      },
    },
  },
  {
    name: "answers each line's conversation list with its entries' fields in another order",
    only: ['listConversations', 'lists.walk'],
    mutation: {
      response: (r, q) =>
        r.status === 200 && pathOf(q) === '/v2/api/conversations' && /[?&]svc_number=/.test(q.path)
          ? json(r, (b) => {
              b.data = (b.data as Array<Record<string, unknown>>).map((e) =>
                Object.fromEntries(Object.entries(e).reverse()),
              );
            })
          : r,
    },
  },
];

describe('the checks that reach further: each mutant caught by name, each control passing', () => {
  // Every reach mutant's report is replayed: none is a rate window.
  itCatchesEachByName(REACH);

  for (const control of CONTROLS) {
    it(`control: ${control.name}`, async () => {
      const upstream = await sandbox();
      const proxied = await mutatingProxy(upstream, control.mutation);
      try {
        const { result, failed } = await runAgainst(proxied, {
          name: control.name,
          caughtBy: '',
          only: control.only,
          allowWrites: true,
        });
        expect(failed).toEqual([]);
        const checks = result.report.operations.flatMap((op) => op.checks);
        for (const id of control.only.filter((x) => x.includes('.')))
          expect(
            checks.some((c) => c.id === id && c.status === 'passed'),
            id,
          ).toBe(true);
      } finally {
        await proxied.close();
        await upstream.close();
      }
    });
  }

  it('names a line no key of the run may use (reads and writes), rather than failing it or leaving it out silently', async () => {
    const upstream = await sandbox();
    // The run key is refused the last line, and no line-limited key of the config lists that line.
    const lastLine = /^\/v2\/api\/numbers\/%2B442071838700\/agent$/i;
    const proxied = await mutatingProxy(upstream, {
      response: (r, q) =>
        lastLine.test(pathOf(q)) && q.headers.get('authorization') === `Api-Key ${upstream.apiKey}`
          ? (refuse(403, 'permission_error', 'SVC_NUMBER_FORBIDDEN')?.(r, q) ?? r)
          : r,
    });
    try {
      const { result, failed } = await runAgainst(proxied, {
        name: 'a line no key may use',
        caughtBy: '',
        only: ['reads.every-line', 'writes.every-line'],
        allowWrites: true,
      });
      expect(failed).toEqual([]);
      const checks = result.report.operations.flatMap((op) => op.checks);
      for (const id of ['reads.every-line', 'writes.every-line']) {
        const check = checks.find((c) => c.id === id);
        expect(check?.status, id).toBe('passed');
        expect(check?.details.join(' '), id).toContain(
          '+442071838700 (no key allowed on it: the run key is refused SVC_NUMBER_FORBIDDEN and no line-limited key of --config lists it)',
        );
        expect(check?.details.join(' '), id).toContain('+14155550188 (the run key)');
      }
    } finally {
      await proxied.close();
      await upstream.close();
    }
  });
});
