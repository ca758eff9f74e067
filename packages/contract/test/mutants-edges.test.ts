// Mutants at the edges of the rules: a page's own counts, the parameter an error names, words
// matched inside a word or split at a special character, an action given one line reaching
// another, a value reset when another is sent, mention markup left out of a length, options that
// trade labels refused. Each is the sandbox broken in one
// way the description states, from held-out broken servers that passed the suite, caught by name;
// and a control: Idempotency-Replayed: false on a first execution, which the description allows.
import { afterAll, describe, expect, it } from 'vitest';
import { itCatchesEachByName, type Mutant, removeOutputs, runAgainst, withHeader } from './support/mutants.js';
import { isFieldList, isFieldUpdate } from './support/requests.js';
import {
  bodyOf,
  json,
  type Mutation,
  mutatingProxy,
  type ProxiedRequest,
  type ProxiedResponse,
  pathOf,
  sandbox,
} from './support/servers.js';

afterAll(removeOutputs);

const isConversationList = (q: ProxiedRequest) => q.method === 'GET' && pathOf(q) === '/v2/api/conversations';
const isAction = (q: ProxiedRequest) =>
  q.method === 'PUT' && /^\/v2\/api\/conversations\/[^/]+\/action$/.test(pathOf(q));
const queryOf = (q: ProxiedRequest) => new URLSearchParams(q.path.split('?')[1] ?? '');
const withBody = (q: ProxiedRequest, body: Record<string, unknown>): ProxiedRequest => ({
  ...q,
  body: JSON.stringify(body),
});

/** A page after the first, partly filled, says the count of entries it holds as its size, not the size asked for. */
const sizeCounted: Mutation = {
  response: (r, q) =>
    isFieldList(q) && r.status === 200 && Number(queryOf(q).get('page')) > 1
      ? json(r, (b) => {
          const paging = b.pagination as { size?: number } | undefined;
          if (paging && Array.isArray(b.data) && b.data.length > 0 && b.data.length < Number(paging.size))
            paging.size = b.data.length;
        })
      : r,
};

/** A page past the last counts nothing: total_count and total_pages 0. */
const emptyPastTheEnd: Mutation = {
  response: (r, q) =>
    isConversationList(q) && r.status === 200
      ? json(r, (b) => {
          const paging = b.pagination as { total_count?: number; total_pages?: number } | undefined;
          if (paging && Array.isArray(b.data) && b.data.length === 0 && Number(queryOf(q).get('page')) > 1) {
            paging.total_count = 0;
            paging.total_pages = 0;
          }
        })
      : r,
};

/** A page past the last refused as a page number out of range (400 INVALID_PAGE_SIZE), not answered empty. */
const pastTheEndRefused: Mutation = {
  response: (r, q) => {
    if (!isFieldList(q) || r.status !== 200 || Number(queryOf(q).get('page')) <= 1) return r;
    const { data } = JSON.parse(r.body) as { data?: unknown };
    if (!Array.isArray(data) || data.length > 0) return r;
    return json({ ...r, status: 400 }, (b) => {
      b.error = {
        type: 'validation_error',
        code: 'INVALID_PAGE_SIZE',
        message: `page ${queryOf(q).get('page')} is out of range.`,
        param: 'page',
        request_id: r.headers.get('x-request-id'),
      };
      delete b.data;
      delete b.pagination;
    });
  },
};

/**
 * The conversation list narrowed to a line counts its pages at the default size (20), whatever size
 * was asked: total_pages and has_more say one page where a small size makes two.
 */
const lineCountedAtDefaultSize: Mutation = {
  response: (r, q) =>
    isConversationList(q) && r.status === 200 && queryOf(q).has('svc_number') && queryOf(q).has('size')
      ? json(r, (b) => {
          const paging = b.pagination as {
            page?: number;
            total_count?: number;
            total_pages?: number;
            has_more?: boolean;
          };
          if (typeof paging?.total_count !== 'number' || typeof paging.page !== 'number') return;
          const pages = Math.ceil(paging.total_count / 20);
          if (paging.total_pages !== undefined) paging.total_pages = pages;
          paging.has_more = paging.page < pages;
        })
      : r,
};

/** A custom field update sending a label and a description stores the description alone, its answer echoing both. */
function labelDroppedBesideDescription(): Mutation {
  const echoed = new Map<string, unknown>();
  return {
    request: (q) => {
      const { label, ...rest } = bodyOf(q);
      if (!isFieldUpdate(q) || label === undefined || rest.description === undefined) return q;
      echoed.set(pathOf(q), label);
      return { ...q, body: JSON.stringify(rest) };
    },
    response: (r, q) => {
      const label = echoed.get(pathOf(q));
      if (!isFieldUpdate(q) || label === undefined) return r;
      echoed.delete(pathOf(q));
      return json(r, (b) => {
        if (b.data && typeof b.data === 'object') (b.data as Record<string, unknown>).label = label;
      });
    },
  };
}

/** INVALID_PAGE_SIZE names the page parameter. */
const sizeNamedPage: Mutation = {
  response: (r) =>
    r.status === 400
      ? json(r, (b) => {
          const error = b.error as { code?: string; param?: string } | undefined;
          if (error?.code === 'INVALID_PAGE_SIZE') error.param = 'page';
        })
      : r,
};

/** Options that give an option a label another option holds now are refused, even where the two trade labels. */
function swapRefused(): Mutation {
  const labels = new Map<string, Map<string, string>>();
  const remember = (field: string, options: unknown) => {
    if (!Array.isArray(options)) return;
    const byKey = new Map<string, string>();
    for (const o of options as Array<{ key?: string; label?: string }>)
      if (typeof o.key === 'string' && typeof o.label === 'string') byKey.set(o.key, o.label);
    labels.set(field, byKey);
  };
  return {
    request: (q) => {
      const field = pathOf(q).split('/').at(-1) ?? '';
      const sent = bodyOf(q).options;
      if (q.method !== 'PATCH' || !Array.isArray(sent)) return q;
      const now = labels.get(field) ?? new Map<string, string>();
      const taken = (sent as Array<{ key?: string; label?: string }>).some((o) =>
        [...now].some(([key, label]) => key !== o.key && label === o.label),
      );
      // Refused as the sandbox refuses a duplicate label: the list sent with its first label twice.
      return taken ? withBody(q, { options: [...sent, { label: (sent[0] as { label?: string }).label }] }) : q;
    },
    response: (r, q) => {
      if (r.status !== 200) return r;
      json(r, (b) => {
        if (q.method === 'PATCH')
          remember(pathOf(q).split('/').at(-1) ?? '', (b.data as { options?: unknown })?.options);
        if (isFieldList(q) && Array.isArray(b.data))
          for (const f of b.data as Array<{ key?: string; options?: unknown }>) if (f.key) remember(f.key, f.options);
      });
      return r;
    },
  };
}

/** A comment's length counted without a leading mention's markup. */
const markupNotCounted: Mutation = {
  request: (q) => {
    const content = bodyOf(q).content;
    if (q.method !== 'POST' || !pathOf(q).endsWith('/comments') || typeof content !== 'string') return q;
    if (content.length <= 4000 || !content.startsWith('@[')) return q;
    const end = content.indexOf(') ');
    return end < 0 ? q : withBody(q, { content: content.slice(end + 2) });
  },
};

/** The item search splits words at special characters instead of stripping them. */
const specialSplits: Mutation = {
  request: (q) => {
    const query = bodyOf(q).query;
    if (q.method !== 'POST' || pathOf(q) !== '/v2/api/conversations/items/search' || typeof query !== 'string')
      return q;
    return withBody(q, { ...bodyOf(q), query: query.replace(/[&.]/g, ' ') });
  },
};

/** The conversation list's search matches a word anywhere inside an entry's text, not only at a word's start. */
function insideMatched(): Mutation {
  const whole = new Map<string, unknown[]>();
  return {
    response: (r: ProxiedResponse, q) => {
      if (!isConversationList(q) || r.status !== 200) return r;
      const key = q.headers.get('authorization') ?? '';
      const search = queryOf(q).get('search');
      return json(r, (b) => {
        if (!Array.isArray(b.data)) return;
        if (search === null && !queryOf(q).has('svc_number')) whole.set(key, b.data);
        if (search === null || b.data.length > 0) return;
        const words = search.toLowerCase().split(/\s+/).filter(Boolean);
        b.data = (whole.get(key) ?? []).filter((e) => words.every((w) => JSON.stringify(e).toLowerCase().includes(w)));
      });
    },
  };
}

/** ARCHIVE given a line marks the contact's items on every line read. */
function archiveReadsEveryLine(): Mutation {
  const archived = new Map<string, string>();
  return {
    response: (r, q) => {
      const sent = bodyOf(q);
      if (isAction(q) && r.status === 200 && sent.action === 'ARCHIVE' && typeof sent.svc_number === 'string')
        archived.set(decodeURIComponent(pathOf(q).split('/')[4] ?? ''), sent.svc_number);
      if (q.method !== 'GET' || !pathOf(q).startsWith('/v2/api/conversations/items/') || r.status !== 200) return r;
      return json(r, (b) => {
        const item = b.data as { contact_number?: string; svc_number?: string; read?: boolean } | undefined;
        const line = item?.contact_number ? archived.get(item.contact_number) : undefined;
        if (item && line !== undefined && item.svc_number !== line) item.read = true;
      });
    },
  };
}

/** UNARCHIVE given a line unarchives the contact on every line. */
const unarchiveEveryLine: Mutation = {
  request: (q) => {
    const sent = bodyOf(q);
    if (!isAction(q) || sent.action !== 'UNARCHIVE' || sent.svc_number === undefined) return q;
    return withBody(q, { action: 'UNARCHIVE' });
  },
};

/** A receptionist update sending the language alone resets the voice to the default one. */
const languageResetsVoice: Mutation = {
  request: (q) => {
    if (q.method !== 'PATCH' || !/\/agent$/.test(pathOf(q))) return q;
    const sent = bodyOf(q);
    const agent = (sent.agent ?? {}) as Record<string, unknown>;
    if (agent.language !== undefined && agent.voice_id === undefined)
      return withBody(q, { ...sent, agent: { ...agent, voice_id: 'vc-olivia-warm' } });
    if (sent.language !== undefined && sent.voice_id === undefined && sent.agent === undefined)
      return withBody(q, { ...sent, voice_id: 'vc-olivia-warm' });
    return q;
  },
};

const EDGES: Mutant[] = [
  {
    name: "says a partly filled page's entry count as its size",
    caughtBy: 'lists.walk',
    only: ['listCustomFields'],
    mutation: sizeCounted,
  },
  {
    name: 'counts nothing on a page past the last',
    caughtBy: 'lists.walk',
    only: ['listConversations'],
    mutation: emptyPastTheEnd,
  },
  {
    // The page after the last breaks no stated rule of the page number ("at least 1").
    name: 'refuses the page after the last as out of range (400 INVALID_PAGE_SIZE)',
    caughtBy: 'lists.walk',
    only: ['listCustomFields'],
    mutation: pastTheEndRefused,
  },
  {
    // A line holds few conversations: only a walk at a size below its count has two pages to count.
    name: "counts a line's conversation pages at the default size, not the one asked",
    caughtBy: 'lists.walk',
    only: ['listConversations'],
    mutation: lineCountedAtDefaultSize,
  },
  {
    name: 'stores only the description of an update that also sends a label, echoing both',
    caughtBy: 'custom-fields.description',
    only: ['custom-fields.description'],
    allowWrites: true,
    mutation: labelDroppedBesideDescription,
  },
  {
    name: 'names the page parameter in an INVALID_PAGE_SIZE',
    caughtBy: 'negative.out-of-range',
    only: ['listCustomFields'],
    mutation: sizeNamedPage,
  },
  {
    name: 'refuses two options trading labels',
    caughtBy: 'custom-fields.option-labels-swapped',
    only: ['custom-fields.option-labels-swapped'],
    allowWrites: true,
    mutation: swapRefused,
  },
  {
    name: "leaves a leading mention's markup out of a comment's length",
    caughtBy: 'threads.content-limits',
    only: ['threads.content-limits'],
    allowWrites: true,
    mutation: markupNotCounted,
  },
  {
    name: 'splits the item search at special characters',
    caughtBy: 'conversation-items.search',
    only: ['conversation-items.search'],
    mutation: specialSplits,
  },
  {
    name: 'matches the list search inside a word',
    caughtBy: 'conversations.search',
    only: ['conversations.search'],
    mutation: insideMatched,
  },
  {
    name: "marks the contact's items on other lines read on ARCHIVE given a line",
    caughtBy: 'conversations.action-one-line',
    only: ['conversations.action-one-line'],
    allowWrites: true,
    mutation: archiveReadsEveryLine,
    replayRestarted: 'the items marked read stay read in the proxy the run went through',
  },
  {
    name: 'unarchives every line on UNARCHIVE given a line',
    caughtBy: 'conversations.action-one-line',
    only: ['conversations.action-one-line'],
    allowWrites: true,
    mutation: unarchiveEveryLine,
  },
  {
    name: "resets a line's voice when its language is sent alone",
    caughtBy: 'receptionist.merge-rules',
    only: ['receptionist.merge-rules'],
    allowWrites: true,
    mutation: languageResetsVoice,
  },
];

describe('the edges of the rules: each mutant caught by name', () => {
  itCatchesEachByName(EDGES);
});

describe('controls: what the description leaves open', () => {
  it('Idempotency-Replayed: false on a first execution (only a replay says true): the replay checks pass', async () => {
    const replayedFalse: Mutation = {
      response: (r, q) =>
        q.headers.has('idempotency-key') && !r.headers.has('idempotency-replayed')
          ? withHeader(r, 'idempotency-replayed', 'false')
          : r,
    };
    const upstream = await sandbox();
    const proxy = await mutatingProxy(upstream, replayedFalse);
    try {
      const only = ['idempotency.replay', 'applyConversationAction'];
      const { result, failed } = await runAgainst(proxy, { name: 'control', caughtBy: '', only, allowWrites: true });
      expect(failed).toEqual([]);
      expect(result.exitCode).toBe(0);
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });
});
