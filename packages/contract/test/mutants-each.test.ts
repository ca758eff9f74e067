// Mutants of a rule that holds for each of several where the suite read one: every refusal's
// headers, every line's receptionist, every built-in key, every display name, every update method a
// router may alias, the code of each path parameter's not-found, every text with no alphanumeric
// character, every key's owner. Each is the sandbox broken in one way the description states,
// caught by name.
import { afterAll, describe } from 'vitest';
import {
  isOtherTeam,
  isQueueWrite,
  itCatchesEachByName,
  itPassesEachAgainstTheSandbox,
  type Mutant,
  mainKey,
  removeOutputs,
} from './support/mutants.js';
import { isAgent, isTagRemoval, isThreadRead } from './support/requests.js';
import { bodyOf, dataIn, json, type Mutation, type ProxiedRequest, pathOf, type Target } from './support/servers.js';

afterAll(removeOutputs);

type Body = Record<string, unknown>;
const lineOf = (q: ProxiedRequest) => decodeURIComponent(pathOf(q).split('/')[4] ?? '');

/** A server that forgets the Idempotency-Key on a scope refusal (its guard answers before the echo). */
const scopeRefusalUnechoed: Mutation = {
  response: (r, q) => {
    if (r.status !== 403 || !q.headers.has('idempotency-key')) return r;
    const headers = new Headers(r.headers);
    headers.delete('idempotency-key');
    return { ...r, headers };
  },
};

/** A server that keeps the business name of the team, not of the line: the last one written shows on every line. */
function businessNameOfTheTeam(): Mutation {
  let written: { line: string; name: string } | undefined;
  return {
    request: (q) => {
      const body = bodyOf(q);
      const agent = (body.agent ?? body) as Body;
      if (q.method === 'PATCH' && isAgent(q) && typeof agent.business_name === 'string')
        written = { line: lineOf(q), name: agent.business_name };
      return q;
    },
    response: (r, q) =>
      q.method === 'GET' && isAgent(q) && written && lineOf(q) !== written.line
        ? json(r, (b) => {
            const agent = dataIn(b)?.agent as Body | undefined;
            if (agent && written) agent.business_name = written.name;
          })
        : r,
  };
}

/** A server that knows `name` as a built-in field but not `company`, which it answers as no field at all. */
const companyUnknown: Mutation = {
  request: (q) =>
    q.method === 'PATCH' && pathOf(q) === '/v2/api/crm/attributes/company'
      ? { ...q, path: q.path.replace('/company', '/svc-no-such-field') }
      : q,
};

/** A server whose mention parser stops at a dot or a comma: such a display name is left out of mentions. */
const punctuatedMentionsDropped: Mutation = {
  response: (r, q) =>
    isThreadRead(q) || (q.method === 'POST' && pathOf(q).endsWith('/comments'))
      ? json(r, (b) => {
          const thread = dataIn(b);
          const comments = Array.isArray(thread?.comments) ? (thread.comments as Body[]) : thread ? [thread] : [];
          for (const comment of comments) {
            if (typeof comment.content !== 'string' || !Array.isArray(comment.mentions)) continue;
            const punctuated = [...comment.content.matchAll(/@\[([^\]]*)\]\((usr-[^)]*)\)/g)]
              .filter(([, name]) => /[.,]/.test(name ?? ''))
              .map(([, , id]) => id);
            comment.mentions = comment.mentions.filter((m: Body) => !punctuated.includes(String(m.user_id)));
          }
        })
      : r,
};

/** A router that takes PUT on a custom field as its PATCH. */
const putAsPatch: Mutation = {
  request: (q) =>
    q.method === 'PUT' && pathOf(q).startsWith('/v2/api/crm/attributes/') ? { ...q, method: 'PATCH' } : q,
};

/** A server that looks the tag up before the item: an unknown item's tag is answered TAG_NOT_FOUND. */
const tagBeforeItem: Mutation = {
  response: (r, q) =>
    isTagRemoval(q) && r.status === 404
      ? json(r, (b) => {
          const error = b.error as Body | undefined;
          if (error?.code === 'CONVERSATION_ITEM_NOT_FOUND') error.code = 'TAG_NOT_FOUND';
        })
      : r,
};

/** A server that trims the search first and takes a blank one as none. */
const blankSearchIgnored: Mutation = {
  request: (q) => {
    if (q.method !== 'GET' || pathOf(q) !== '/v2/api/conversations') return q;
    const query = new URLSearchParams(q.path.split('?')[1] ?? '');
    const search = query.get('search');
    if (search === null || search === '' || search.trim() !== '') return q;
    query.delete('search');
    return { ...q, path: `${pathOf(q)}?${query}` };
  },
};

/** A server that answers every key of the team with the queue of the team's first owner (the run key's). */
function teamQueueForEveryKey(upstream: Target): Mutation {
  const others = upstream.config.keys.filter((k) => !isOtherTeam(k)).map((k) => k.key);
  return {
    request: (q) => {
      const body = bodyOf(q);
      const key = q.headers.get('authorization')?.replace(/^Api-Key /, '') ?? '';
      if (!isQueueWrite(q) || !others.includes(key) || body.user_id !== undefined || body.email !== undefined) return q;
      const headers = new Headers(q.headers);
      headers.set('authorization', `Api-Key ${mainKey(upstream)}`);
      return { ...q, headers };
    },
  };
}

const EACH: Mutant[] = [
  {
    name: 'leaves the Idempotency-Key out of a scope refusal',
    caughtBy: 'response.idempotency-key-echo',
    only: ['auth.insufficient-scope'],
    allowWrites: true,
    mutation: scopeRefusalUnechoed,
  },
  {
    name: "shows the business name last written on any line on every line's receptionist",
    caughtBy: 'receptionist.merge-rules',
    only: ['receptionist.merge-rules'],
    allowWrites: true,
    mutation: businessNameOfTheTeam,
  },
  {
    name: 'answers the built-in field company as no field (404)',
    caughtBy: 'custom-fields.built-in',
    only: ['custom-fields.built-in'],
    allowWrites: true,
    mutation: companyUnknown,
  },
  {
    name: 'leaves a mention whose display name has a dot or a comma out of mentions',
    caughtBy: 'threads.mention-display-name',
    only: ['threads.mention-display-name'],
    allowWrites: true,
    mutation: punctuatedMentionsDropped,
  },
  {
    name: 'takes PUT on a custom field as its PATCH',
    caughtBy: 'routing.wrong-method',
    only: ['routing.wrong-method'],
    mutation: putAsPatch,
  },
  {
    name: "answers a tag removal on an unknown item with the tag's TAG_NOT_FOUND",
    caughtBy: 'negative.unknown-id',
    only: ['removeConversationItemTag'],
    allowWrites: true,
    mutation: tagBeforeItem,
  },
  {
    name: 'takes a search of blanks only as no search',
    caughtBy: 'conversations.search',
    only: ['conversations.search'],
    mutation: blankSearchIgnored,
  },
  {
    name: "answers every key of the team with the run key owner's queue",
    caughtBy: 'dialer-queues.key-owner',
    only: ['dialer-queues.key-owner'],
    allowWrites: true,
    mutation: teamQueueForEveryKey,
  },
];

describe('mutants of a rule that holds for each of several', () => {
  itCatchesEachByName(EACH);
  itPassesEachAgainstTheSandbox(EACH, { allowWrites: true });
});
