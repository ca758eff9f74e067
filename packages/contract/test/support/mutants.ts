// The mutants of the sandbox: each is the sandbox with one rule broken (by a proxy in front of
// it, or by a hook into the sandbox's contract), with the check that must catch it by name and
// the subset of the suite (--only) that runs against it. Shared by the mutants test files, which
// split the list so that two vitest workers run them side by side.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadContract } from '@svc/spec-runtime';
import { expect, it } from 'vitest';
import type { ContractOptions } from '../../src/options.js';
import { keyVariableOf } from '../../src/replay/sent.js';
import { runContract, runReplay } from '../../src/run.js';
import {
  bodyOf,
  forgetsKeys,
  json,
  type Mutation,
  mutatingProxy,
  type ProxiedRequest,
  type ProxiedResponse,
  pathOf,
  sandbox,
  type Target,
  tooMany,
} from './servers.js';

/** The seed's member removed from the team (the sandbox names it in fixtures.removed_user_ids). */
export const REMOVED_USER = 'usr-9Qx3Lm7w';

export const isQueueWrite = (q: ProxiedRequest) =>
  q.method === 'PATCH' && pathOf(q) === '/v2/api/dialing-queues/current';

/**
 * A server that remembers the teammate a key named last by user_id and applies to that teammate's
 * queue the key's later updates that name no one; with `emptyToOwner`, an empty update (which
 * changes nothing) still reads the owner's queue, so only an update that changes something shows it.
 */
export function stickyQueueTarget({ emptyToOwner }: { emptyToOwner: boolean }): () => Mutation {
  return () => {
    const last = new Map<string, unknown>();
    return {
      request: (q) => {
        if (!isQueueWrite(q)) return q;
        const key = q.headers.get('authorization') ?? '';
        const sent = bodyOf(q);
        if (sent.user_id !== undefined) last.set(key, sent.user_id);
        const namesNoOne = sent.user_id === undefined && sent.email === undefined;
        if (!namesNoOne || !last.has(key) || (emptyToOwner && Object.keys(sent).length === 0)) return q;
        return { ...q, body: JSON.stringify({ ...sent, user_id: last.get(key) }) };
      },
    };
  };
}

/** The response with one header set. */
export const withHeader = (r: ProxiedResponse, name: string, value: string): ProxiedResponse => {
  const headers = new Headers(r.headers);
  headers.set(name, value);
  return { ...r, headers };
};

/**
 * A server that answers the requests `which` picks, by the key and request sent, as it first
 * answered them (a cache per key), the run key's too only where `alsoRunKey`.
 */
export function keepsFirstAnswers(
  which: (q: ProxiedRequest) => boolean,
  alsoRunKey: boolean,
): (upstream: Target) => Mutation {
  return (upstream) => {
    const first = new Map<string, ProxiedResponse>();
    return {
      response: (r, q) => {
        const key = q.headers.get('authorization') ?? '';
        if (!which(q) || r.status >= 300 || (!alsoRunKey && key === `Api-Key ${upstream.apiKey}`)) return r;
        const seen = `${key} ${q.path} ${q.body ?? ''}`;
        const kept = first.get(seen);
        if (kept) return kept;
        first.set(seen, r);
        return r;
      },
    };
  };
}

/**
 * A server that runs a keyed write `which` picks again on every repeat of its key and marks the
 * answer replayed: the answer is the state as the write leaves it, whatever happened between. With
 * `storedWhenRefused`, a repeat the write refuses (a tag already there) answers the stored response
 * instead, so that only a repeat after the write's effect was undone shows it.
 */
export function reappliesKeyedWrites(
  which: (q: ProxiedRequest) => boolean,
  { storedWhenRefused = false } = {},
): () => Mutation {
  return () => {
    // By team's key and Idempotency-Key: another team's use of the same key is its own.
    const stored = new Map<string, ProxiedResponse | undefined>();
    const keyOf = (q: ProxiedRequest, key: string) => `${q.headers.get('authorization') ?? ''} ${key}`;
    return {
      request: (q) => {
        const key = q.headers.get('idempotency-key');
        if (!which(q) || key === null) return q;
        if (!stored.has(keyOf(q, key))) {
          stored.set(keyOf(q, key), undefined);
          return q;
        }
        const headers = new Headers(q.headers);
        headers.delete('idempotency-key');
        headers.set('x-svc-reapplied', key);
        return { ...q, headers };
      },
      response: (r, q) => {
        const first = q.headers.get('idempotency-key');
        if (first !== null && which(q) && stored.get(keyOf(q, first)) === undefined) stored.set(keyOf(q, first), r);
        const key = q.headers.get('x-svc-reapplied');
        if (key === null) return r;
        const kept = storedWhenRefused && r.status >= 400 ? stored.get(keyOf(q, key)) : undefined;
        // The stored answer, with this request's own id (what a replay answers it with).
        const answer = kept ? withHeader(kept, 'x-request-id', r.headers.get('x-request-id') ?? '') : r;
        return withHeader(withHeader(answer, 'idempotency-key', key), 'idempotency-replayed', 'true');
      },
    };
  };
}

const outputs: string[] = [];
/** Removes the report folders the runs wrote (call it in afterAll). */
export function removeOutputs(): void {
  for (const dir of outputs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export interface Mutant {
  name: string;
  /** The check that must fail. */
  caughtBy: string;
  only: string[];
  allowWrites?: boolean;
  /** A mutation, or one made from the upstream (its keys). */
  mutation?: Mutation | ((upstream: Target) => Mutation);
  /** A hook instead of a proxy: a sandbox started with these options. */
  sandbox?: Parameters<typeof sandbox>[0];
  /** Run at the documented rates (the mutants run with --rate off unless their fault needs the run's own budget kept). */
  paced?: boolean;
  /**
   * Why the replay goes to this broken server started again (redeployed, as a fixed server would be)
   * rather than to the one the run used: its fault lives in state the run left behind, so the same
   * server can no longer reach the rule's precondition.
   */
  replayRestarted?: string;
}

const isPath = (path: string, prefix: string) => path.split('?')[0]?.startsWith(prefix) ?? false;

/** Requests (those `where` picks) made with a config key matching `which` reach the server with another key instead. */
export function swapKey(
  which: (key: Target['config']['keys'][number]) => boolean,
  to: (upstream: Target) => string,
  where: (q: ProxiedRequest) => boolean = () => true,
): (upstream: Target) => Mutation {
  return (upstream) => ({
    request: (q) => {
      if (!where(q)) return q;
      const headers = new Headers(q.headers);
      const sent = headers.get('authorization');
      if (upstream.config.keys.some((k) => which(k) && sent === `Api-Key ${k.key}`))
        headers.set('authorization', `Api-Key ${to(upstream)}`);
      return { ...q, headers };
    },
  });
}
export const mainKey = (upstream: Target) => upstream.apiKey;

/** A config key of another team (the sandbox config declares one). */
export const isOtherTeam = (k: Target['config']['keys'][number]) => k.kind === 'other-team';
export const otherTeamKey = (upstream: Target) =>
  upstream.config.keys.find(isOtherTeam)?.key ?? 'no other-team key in the sandbox config';

/** A server that refuses every fourth read with a 429, however few came (reads refused early). */
function refusesReadsEarly(): Mutation {
  let reads = 0;
  return {
    response: (r, q) => {
      if (q.method !== 'GET' || ++reads % 4 !== 0) return r;
      return tooMany(r, 0);
    },
  };
}

/** Every error body of `status` changed (the status and code kept). */
function errorsOf(status: number, change: (error: Record<string, unknown>) => void): Mutation {
  return {
    response: (r) =>
      r.status === status
        ? json(r, (b) => {
            if (b.error && typeof b.error === 'object') change(b.error as Record<string, unknown>);
          })
        : r,
  };
}

/**
 * Every sixth read answered 429 RATE_LIMIT_EXCEEDED with no retry_after_seconds: the server's 429s
 * lack it whenever they come, so a replay's traffic meets one again as the run's did. The wait is
 * in a Retry-After header instead (0 s), so that the suite, which falls back to the window's reset
 * without one, does not sit out a whole window at each of them.
 */
function rateLimitWithoutWait(): Mutation {
  let reads = 0;
  return {
    response: (r, q) => {
      if (q.method !== 'GET' || ++reads % 6 !== 0) return r;
      const error = { type: 'rate_limit_error', code: 'RATE_LIMIT_EXCEEDED', message: 'Slow down', retryable: true };
      const refused = json({ ...r, status: 429 }, (b) =>
        Object.assign(b, {
          data: undefined,
          pagination: undefined,
          error: { ...error, request_id: r.headers.get('x-request-id') },
        }),
      );
      return withHeader(refused, 'retry-after', '0');
    },
  };
}

/** A receptionist update that merges the transfer rules sent into the ones last read, instead of replacing them. */
function mergesTransferRules(): Mutation {
  let stored: unknown[] = [];
  const isAgent = (path: string) => /^\/v2\/api\/numbers\/[^/]+\/agent$/.test(path.split('?')[0] ?? '');
  return {
    request: (q) => {
      if (q.method !== 'PATCH' || !isAgent(q.path) || q.body === undefined) return q;
      const body = JSON.parse(q.body) as Record<string, unknown>;
      if (!Array.isArray(body.transfer_rules)) return q;
      const sent = body.transfer_rules.map((r) => JSON.stringify(r));
      const kept = stored.filter((r) => !sent.includes(JSON.stringify(r)));
      return { ...q, body: JSON.stringify({ ...body, transfer_rules: [...body.transfer_rules, ...kept] }) };
    },
    response: (r, q) => {
      if (q.method === 'GET' && isAgent(q.path) && r.status === 200) {
        const rules = (JSON.parse(r.body) as { data?: { transfer_rules?: unknown } }).data?.transfer_rules;
        if (Array.isArray(rules)) stored = rules;
      }
      return r;
    },
  };
}

/** The lookup of a thread by its item answers { data: null } for the items given a thread through it. */
function findsNoNewThread(): Mutation {
  const threaded = new Set<string>();
  return {
    request: (q) => {
      if (q.method === 'POST' && q.path.split('?')[0] === '/v2/api/threads' && q.body !== undefined) {
        const body = JSON.parse(q.body) as { entity_id?: unknown };
        if (typeof body.entity_id === 'string') threaded.add(body.entity_id);
      }
      return q;
    },
    response: (r, q) => {
      const [path, query = ''] = q.path.split('?');
      const item = new URLSearchParams(query).get('entity_id');
      return q.method === 'GET' && path === '/v2/api/threads' && item !== null && threaded.has(item)
        ? json(r, (b) => Object.assign(b, { data: null }))
        : r;
    },
  };
}

/** A dialer queue update whose JSON body is changed before the sandbox reads it (an empty body left alone). */
export function queueBodyWith(q: ProxiedRequest, change: (body: Record<string, unknown>) => Record<string, unknown>) {
  if (q.method !== 'PATCH' || !isPath(q.path, '/v2/api/dialing-queues/current') || q.body === undefined) return q;
  const body = JSON.parse(q.body) as Record<string, unknown>;
  return Object.keys(body).length === 0 ? q : { ...q, body: JSON.stringify(change(body)) };
}

/** A custom field update that clears the description when the label changes and no description is sent (a reset of what was omitted). */
function clearsOmittedDescription(): Mutation {
  const labels = new Map<string, unknown>();
  const keyOf = (path: string) => (path.split('?')[0] ?? '').split('/').pop() ?? '';
  return {
    request: (q) => {
      if (q.method !== 'PATCH' || !isPath(q.path, '/v2/api/crm/attributes/') || q.body === undefined) return q;
      const body = JSON.parse(q.body) as Record<string, unknown>;
      const renames = body.label !== undefined && labels.has(keyOf(q.path)) && labels.get(keyOf(q.path)) !== body.label;
      return renames && !('description' in body) ? { ...q, body: JSON.stringify({ ...body, description: ' ' }) } : q;
    },
    response: (r, q) => {
      if (q.method === 'PATCH' && isPath(q.path, '/v2/api/crm/attributes/') && r.status === 200)
        labels.set(keyOf(q.path), (JSON.parse(r.body) as { data?: { label?: unknown } }).data?.label);
      return r;
    },
  };
}

/** A server that refuses the largest documented page size (as if the limit were 1..99). */
const refusesSize100: Mutation = {
  response: (r, q) =>
    /[?&]size=100(&|$)/.test(q.path)
      ? json({ ...r, status: 400 }, (b) =>
          Object.assign(b, {
            data: undefined,
            pagination: undefined,
            error: {
              type: 'validation_error',
              code: 'INVALID_PAGE_SIZE',
              message: 'size',
              retryable: false,
              request_id: r.headers.get('x-request-id'),
            },
          }),
        )
      : r,
};

/** Thread creation (POST /v2/api/threads) with its content changed before the server sees it. */
function threadContent(change: (content: string) => string): Mutation {
  return {
    request: (q) => {
      if (q.method !== 'POST' || q.path.split('?')[0] !== '/v2/api/threads' || q.body === undefined) return q;
      const body = JSON.parse(q.body) as Record<string, unknown>;
      if (typeof body.content !== 'string') return q;
      return { ...q, body: JSON.stringify({ ...body, content: change(body.content) }) };
    },
  };
}

/** The rate-limit headers of every response changed. */
export function rateHeaders(change: (headers: Headers) => void): Mutation {
  return {
    response: (r) => {
      const headers = new Headers(r.headers);
      change(headers);
      return { ...r, headers };
    },
  };
}

/** A pagination block changed on every 2xx list. */
function pagination(change: (p: Record<string, number | boolean>) => void): Mutation {
  return {
    response: (r) =>
      r.status === 200 && r.body.includes('"pagination"')
        ? json(r, (b) => change(b.pagination as Record<string, number | boolean>))
        : r,
  };
}

/** Idempotency keys whose sends are counted, for a server that forgets after a few repeats. */
function forgetsAfter(sends: number): Mutation {
  const seen = new Map<string, number>();
  return {
    request: (q) => {
      const key = q.headers.get('idempotency-key');
      if (key === null) return q;
      const n = (seen.get(key) ?? 0) + 1;
      seen.set(key, n);
      if (n <= sends) return q;
      const headers = new Headers(q.headers);
      headers.set('idempotency-key', `${key}-forgotten-${n}`);
      return { ...q, headers };
    },
  };
}

/** The bundle with the PhoneNumber pattern (and its error code) gone: a server that accepts any number. */
function contractWithoutPhoneRule() {
  const bundle = structuredClone(createRequire(import.meta.url)('@svc/openapi/openapi.json')) as {
    components: { schemas: Record<string, Record<string, unknown>> };
  };
  delete bundle.components.schemas.PhoneNumber?.pattern;
  delete bundle.components.schemas.PhoneNumber?.['x-svc-error-code'];
  return loadContract(bundle);
}

export const MUTANTS: Mutant[] = [
  {
    name: 'drops a required field',
    caughtBy: 'response.schema',
    only: ['getThread'],
    mutation: {
      response: (r, q) =>
        q.method === 'GET' && r.status === 200 && isPath(q.path, '/v2/api/threads/')
          ? json(r, (b) => delete (b.data as Record<string, unknown>).comment_count)
          : r,
    },
  },
  {
    name: 'returns an undocumented error code',
    caughtBy: 'response.error-code',
    only: ['getThread'],
    mutation: {
      response: (r, q) =>
        r.status === 404 && isPath(q.path, '/v2/api/threads/')
          ? json(r, (b) => ((b.error as Record<string, unknown>).code = 'NOTE_NOT_FOUND'))
          : r,
    },
  },
  {
    name: 'answers with the wrong status',
    caughtBy: 'response.status-documented',
    only: ['listUsers'],
    mutation: { response: (r, q) => (r.status === 200 && isPath(q.path, '/v2/api/users') ? { ...r, status: 201 } : r) },
  },
  {
    name: 'gives the wrong error type',
    caughtBy: 'response.error-type',
    only: ['listTags'],
    mutation: {
      response: (r) =>
        r.status === 401 ? json(r, (b) => ((b.error as Record<string, unknown>).type = 'permission_error')) : r,
    },
  },
  {
    name: 'generates malformed request ids',
    caughtBy: 'response.request-id',
    only: ['listTags'],
    mutation: {
      response: (r, q) => {
        if (q.headers.has('x-request-id')) return r;
        const headers = new Headers(r.headers);
        headers.set('x-request-id', 'request-42');
        return json({ ...r, headers }, (b) => {
          if (b.error) (b.error as Record<string, unknown>).request_id = 'request-42';
        });
      },
    },
  },
  {
    name: 'sends no rate-limit headers',
    caughtBy: 'response.rate-limit-headers',
    only: ['listTags'],
    mutation: {
      response: (r) => {
        const headers = new Headers(r.headers);
        for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) headers.delete(name);
        return { ...r, headers };
      },
    },
  },
  {
    name: 'accepts an invalid phone number',
    caughtBy: 'negative.phone-format',
    only: ['listConversations'],
    sandbox: { contract: contractWithoutPhoneRule() },
  },
  {
    name: 'ignores idempotency keys',
    caughtBy: 'idempotency.replay',
    only: ['idempotency.replay'],
    allowWrites: true,
    mutation: {
      request: (q) => {
        const headers = new Headers(q.headers);
        headers.delete('idempotency-key');
        return { ...q, headers };
      },
    },
  },
  {
    name: 'ignores scopes',
    caughtBy: 'auth.insufficient-scope',
    only: ['listTags'],
    // Every key the server sees becomes the all-scopes key: scopes make no difference any more.
    mutation: undefined,
  },
  {
    name: 'fails with a 5xx',
    caughtBy: 'response.no-5xx',
    only: ['listTags'],
    mutation: {
      response: (r, q) =>
        r.status === 200 && isPath(q.path, '/v2/api/tags')
          ? json({ ...r, status: 500 }, (b) =>
              Object.assign(b, {
                error: {
                  type: 'server_error',
                  code: 'INTERNAL_SERVER_ERROR',
                  message: 'boom',
                  retryable: true,
                  request_id: r.headers.get('x-request-id'),
                },
              }),
            )
          : r,
    },
  },
  {
    name: 'does not echo X-Request-Id',
    caughtBy: 'request-id.echo',
    only: ['listTags'],
    mutation: {
      response: (r, q) => {
        if (!q.headers.has('x-request-id')) return r;
        const headers = new Headers(r.headers);
        headers.set('x-request-id', 'req_AAAAAAAAAAAA');
        return json({ ...r, headers }, (b) => {
          if (b.error) (b.error as Record<string, unknown>).request_id = 'req_AAAAAAAAAAAA';
        });
      },
    },
  },
  {
    name: 'sends JSON without a Content-Type',
    caughtBy: 'response.content-type',
    only: ['listTags'],
    mutation: {
      response: (r) => {
        const headers = new Headers(r.headers);
        headers.delete('content-type');
        return { ...r, headers };
      },
    },
  },
  {
    name: 'allows a second thread on an item',
    caughtBy: 'threads.duplicate',
    only: ['threads.duplicate'],
    allowWrites: true,
    mutation: {
      response: (r) =>
        r.status === 409 && r.body.includes('THREAD_ALREADY_EXISTS') ? { ...r, status: 201, body: '{"data":{}}' } : r,
    },
  },
  {
    // Looked up by id, the new thread reads back; only the lookup by its item (the state
    // threads.create-then-read now reaches) shows it missing.
    name: 'never finds a thread created after it started by its item (GET /v2/api/threads)',
    caughtBy: 'threads.create-then-read',
    only: ['threads.create-then-read'],
    allowWrites: true,
    mutation: () => findsNoNewThread(),
  },
  {
    // No request the suite sent had several failing fields before negative.several-fields (its
    // precondition): this server was caught by nothing.
    name: 'lists only the first failing field when several fail',
    caughtBy: 'negative.several-fields',
    only: ['negative.several-fields'],
    allowWrites: true,
    mutation: {
      response: (r) =>
        r.status === 400
          ? json(r, (b) => {
              const error = b.error as { errors?: unknown[] } | undefined;
              if (Array.isArray(error?.errors)) error.errors = error.errors.slice(0, 1);
            })
          : r,
    },
  },
  {
    name: 'refuses a new thread of exactly 4000 characters (its limit is 3999)',
    caughtBy: 'threads.create-content-limits',
    only: ['threads.create-content-limits'],
    allowWrites: true,
    mutation: threadContent((content) => (content.length === 4000 ? `${content}x` : content)),
  },
  {
    name: 'refuses a new thread of a single character (its minimum is 2)',
    caughtBy: 'threads.create-content-limits',
    only: ['threads.create-content-limits'],
    allowWrites: true,
    mutation: threadContent((content) => (content.length === 1 ? ' ' : content)),
  },
  {
    name: 'refuses size=100 (discovery fails)',
    caughtBy: 'fixtures.discovery',
    only: ['listConversations'],
    mutation: refusesSize100,
  },
  {
    name: 'refuses size=100 (the limit from inside)',
    caughtBy: 'boundary.inside',
    only: ['listCustomFields'],
    mutation: refusesSize100,
  },
  {
    name: 'refuses a label of exactly 255 characters',
    caughtBy: 'boundary.inside',
    only: ['updateCustomField'],
    allowWrites: true,
    mutation: {
      response: (r, q) =>
        q.method === 'PATCH' && [...String(bodyOf(q).label ?? '')].length === 255
          ? json({ ...r, status: 400 }, (b) =>
              Object.assign(b, {
                data: undefined,
                error: {
                  type: 'validation_error',
                  code: 'ATTRIBUTE_LABEL_INVALID',
                  message: 'label',
                  retryable: false,
                  request_id: r.headers.get('x-request-id'),
                },
              }),
            )
          : r,
    },
  },
  {
    name: 'refuses a batch of exactly 100 ids (its limit is 99)',
    caughtBy: 'boundary.inside',
    only: ['batchGetConversationItems'],
    mutation: {
      response: (r, q) =>
        q.method === 'POST' &&
        isPath(q.path, '/v2/api/conversations/items/batch') &&
        (JSON.parse(q.body ?? '{}') as { ids?: unknown[] }).ids?.length === 100
          ? json({ ...r, status: 400 }, (b) =>
              Object.assign(b, {
                data: undefined,
                error: {
                  type: 'validation_error',
                  code: 'BATCH_TOO_LARGE',
                  message: 'ids',
                  retryable: false,
                  request_id: r.headers.get('x-request-id'),
                },
              }),
            )
          : r,
    },
  },
  {
    name: 'says has_more on the last page',
    caughtBy: 'response.pagination',
    only: ['listCustomFields'],
    mutation: pagination((p) => (p.has_more = !p.has_more)),
  },
  {
    name: 'counts total_pages wrong',
    caughtBy: 'response.pagination',
    only: ['listConversations'],
    mutation: pagination((p) => (p.total_pages = Number(p.total_pages) + 1)),
  },
  {
    name: 'puts retry_after_seconds on a 404',
    caughtBy: 'response.error-fields',
    only: ['getThread'],
    mutation: {
      response: (r) =>
        r.status === 404 ? json(r, (b) => ((b.error as Record<string, unknown>).retry_after_seconds = 5)) : r,
    },
  },
  {
    name: 'reports more requests remaining than the limit',
    caughtBy: 'response.rate-limit-headers',
    only: ['listTags'],
    mutation: {
      response: (r) => {
        const headers = new Headers(r.headers);
        headers.set('x-ratelimit-remaining', String(Number(headers.get('x-ratelimit-limit') ?? 0) + 1));
        return { ...r, headers };
      },
    },
  },
  {
    name: 'reports a limit other than the documented one',
    caughtBy: 'response.rate-limit-window',
    only: ['listTags'],
    // Remaining stays under the limit, so only the documented value itself is broken.
    mutation: rateHeaders((h) => h.set('x-ratelimit-limit', String(Number(h.get('x-ratelimit-limit')) + 1))),
  },
  {
    name: 'lets Remaining climb back inside one window',
    caughtBy: 'response.rate-limit-window',
    only: ['listTags'],
    mutation: (() => {
      let n = 0;
      return rateHeaders((h) => {
        h.set('x-ratelimit-reset', '3600');
        h.set('x-ratelimit-remaining', String(Number(h.get('x-ratelimit-limit')) - (n++ % 2 === 0 ? 2 : 1)));
      });
    })(),
  },
  {
    name: 'demands a scope beyond the documented one',
    caughtBy: 'auth.sufficient-scope',
    only: ['listTags'],
    // A key holding exactly TAGS_READ is answered as if it held nothing useful.
    mutation: swapKey(
      (k) => k.kind === undefined && k.scopes.length === 1,
      (u) => u.config.keys.find((k) => k.scopes.length === 1 && k.scopes[0] === 'BILLING')?.key ?? '',
    ),
  },
  {
    name: 'accepts a revoked key',
    caughtBy: 'auth.revoked-key',
    only: ['listTags'],
    mutation: swapKey((k) => k.kind === 'revoked', mainKey),
  },
  {
    name: 'accepts a trial-plan key',
    caughtBy: 'auth.trial-plan',
    only: ['listTags'],
    mutation: swapKey((k) => k.kind === 'trial', mainKey),
  },
  {
    name: 'lets a line-limited key use every line',
    caughtBy: 'auth.line-forbidden',
    only: ['getReceptionist'],
    mutation: swapKey((k) => k.kind === 'line-limited', mainKey),
  },
  {
    name: 'refuses reads with 429 inside the documented budget',
    caughtBy: 'response.rate-limit-budget',
    only: ['users', 'tags'],
    paced: true,
    mutation: () => refusesReadsEarly(),
  },
  {
    name: 'answers 429 without retry_after_seconds',
    caughtBy: 'response.schema',
    only: ['listTags'],
    mutation: () => rateLimitWithoutWait(),
  },
  {
    name: 'says "Not found." without the id that names nothing',
    caughtBy: 'response.error-details',
    only: ['getThread'],
    mutation: errorsOf(404, (e) => {
      e.message = 'Not found.';
    }),
  },
  {
    name: 'names in param a parameter the operation does not have',
    caughtBy: 'response.error-details',
    only: ['getThread'],
    mutation: errorsOf(404, (e) => {
      e.param = 'thread_identifier';
    }),
  },
  {
    name: 'suggests an endpoint the contract does not have',
    caughtBy: 'response.error-details',
    only: ['listTags'],
    mutation: errorsOf(401, (e) => {
      e.suggestion = 'Check your key with GET /v2/api/keys/current.';
    }),
  },
  {
    name: "answers a legacy workspace's key as if it were on the new contact model",
    caughtBy: 'tenants.legacy-workspace',
    only: ['listCustomFields'],
    mutation: swapKey((k) => k.kind === 'legacy-workspace', mainKey),
  },
  {
    name: 'folds the case of enum values (action read taken as READ)',
    caughtBy: 'negative.enum',
    only: ['applyConversationAction'],
    allowWrites: true,
    mutation: {
      request: (q) => {
        if (q.method !== 'PUT' || !isPath(q.path, '/v2/api/conversations/') || q.body === undefined) return q;
        const body = JSON.parse(q.body) as Record<string, unknown>;
        if (typeof body.action !== 'string') return q;
        return { ...q, body: JSON.stringify({ ...body, action: body.action.toUpperCase() }) };
      },
    },
  },
  {
    name: 'clears the description when the label changes and no description is sent',
    caughtBy: 'custom-fields.partial-update',
    only: ['custom-fields.partial-update'],
    allowWrites: true,
    mutation: () => clearsOmittedDescription(),
  },
  {
    name: 'merges the transfer rules sent into the stored ones',
    caughtBy: 'receptionist.collections-replaced',
    only: ['receptionist.collections-replaced'],
    allowWrites: true,
    mutation: () => mergesTransferRules(),
  },
  {
    name: "lets another team's key read the team's threads by id",
    caughtBy: 'tenants.other-team',
    only: ['getThread'],
    mutation: swapKey((k) => k.kind === 'other-team', mainKey),
  },
  {
    name: "lists the team's users to another team's key",
    caughtBy: 'tenants.other-team',
    only: ['listUsers'],
    mutation: swapKey((k) => k.kind === 'other-team', mainKey),
  },
  {
    name: "lets another team's key change the team's custom fields",
    caughtBy: 'tenants.other-team',
    only: ['updateCustomField'],
    allowWrites: true,
    mutation: swapKey((k) => k.kind === 'other-team', mainKey),
  },
  {
    name: 'replays a key only once',
    caughtBy: 'idempotency.replay',
    only: ['idempotency.replay'],
    allowWrites: true,
    mutation: forgetsAfter(2),
  },
  {
    name: 'keeps idempotency for POSTs only (a keyed DELETE runs again)',
    caughtBy: 'idempotency.replay',
    only: ['removeConversationItemTag'],
    allowWrites: true,
    // The key still echoed, so only the replay itself is missing.
    mutation: forgetsKeys((q) => q.method === 'DELETE'),
  },
  {
    name: 'resets the other queue settings when only the name is sent',
    caughtBy: 'dialer-queues.partial-update',
    only: ['dialer-queues.partial-update'],
    allowWrites: true,
    mutation: {
      response: (r, q) =>
        q.method === 'PATCH' && q.body?.includes('"name"')
          ? json(r, (b) =>
              Object.assign(b.data as Record<string, unknown>, {
                voicemail_handling:
                  (b.data as Record<string, unknown>).voicemail_handling === 'SKIP' ? 'NO_SKIP' : 'SKIP',
              }),
            )
          : r,
    },
  },
  {
    // The sandbox's queue is seeded with do_not_disturb ENABLED: this reset shows only once the
    // check has moved the setting to DISABLED before sending the name alone (its precondition).
    name: 'writes do_not_disturb ENABLED whenever an update leaves it out',
    caughtBy: 'dialer-queues.partial-update',
    only: ['dialer-queues.partial-update'],
    allowWrites: true,
    mutation: { request: (q) => queueBodyWith(q, (body) => ({ do_not_disturb: 'ENABLED', ...body })) },
  },
  {
    name: 'accepts a key reused with another method',
    caughtBy: 'idempotency.key-reuse',
    only: ['idempotency.key-reuse'],
    allowWrites: true,
    mutation: {
      request: (q) =>
        q.method === 'PUT'
          ? { ...q, headers: new Headers([...q.headers].filter(([name]) => name !== 'idempotency-key')) }
          : q,
    },
  },
  {
    name: 'answers an undocumented method with 404',
    caughtBy: 'routing.wrong-method',
    only: ['routing.wrong-method'],
    mutation: {
      response: (r) =>
        r.status === 405
          ? json({ ...r, status: 404 }, (b) =>
              Object.assign(b.error as Record<string, unknown>, {
                code: 'ENDPOINT_NOT_FOUND',
                type: 'not_found_error',
              }),
            )
          : r,
    },
  },
];

/**
 * The mutants run at the documented rates spend most of their time waiting: they run in
 * mutants-limits.test.ts, one of the files started first (test/support/waiting-first.ts), and the
 * other mutants files share out the rest.
 */
export const PACED: Mutant[] = MUTANTS.filter((m) => m.paced === true);
export const UNPACED: Mutant[] = MUTANTS.filter((m) => m.paced !== true);

export async function runAgainst(target: Target, mutant: Mutant) {
  const output = mkdtempSync(join(tmpdir(), 'svc-contract-mutant-'));
  outputs.push(output);
  const options: ContractOptions = {
    baseUrl: target.url,
    apiKey: target.apiKey,
    config: target.config,
    only: mutant.only,
    allowWrites: mutant.allowWrites === true,
    ...(mutant.paced ? {} : { rate: 'off' as const }),
    quiet: true,
    print: false,
    reporters: ['json'],
    output,
  };
  const result = await runContract(options);
  const written = JSON.parse(readFileSync(join(output, 'report.json'), 'utf8')) as {
    failures: Array<{ check: string; message: string }>;
  };
  return { result, failed: [...new Set(written.failures.map((f) => f.check))], output };
}

/** The environment a user replaying the run would set: the run's key and each config key's variable. */
export function keysEnvironment(target: Target): Record<string, string> {
  return {
    SVC_API_KEY: target.apiKey,
    ...Object.fromEntries(target.config.keys.map((k) => [k.env ?? keyVariableOf(k.name), k.key])),
  };
}

/** The mutant's report replayed (its caught check only) against `url`: each failure's outcome. */
async function replayedOutcomes(output: string, url: string, target: Target, mutant: Mutant) {
  const { results, exitCode } = await runReplay({
    inputs: [join(output, 'report.json')],
    checks: [mutant.caughtBy],
    baseUrl: url,
    allowWrites: mutant.allowWrites === true,
    // The run's config, for a rule run again (its keys' values as the environment gives them).
    config: target.config,
    env: keysEnvironment(target),
    print: false,
  });
  return {
    exitCode,
    outcomes: results.map((r) => (r.outcome === 'not replayed' ? `${r.outcome}: ${r.reason}` : r.outcome)),
  };
}

/** A broken server: the sandbox with the mutant's hook, behind its mutating proxy when it has one. */
interface Broken {
  upstream: Target;
  target: Target;
  close(): Promise<void>;
}

async function startBroken(mutant: Mutant): Promise<Broken> {
  const upstream = await sandbox(mutant.sandbox ?? {});
  const ignoreScopes: Mutation = {
    request: (q) => {
      const headers = new Headers(q.headers);
      if (
        headers.has('authorization') &&
        upstream.config.keys.some((k) => headers.get('authorization')?.endsWith(k.key))
      )
        headers.set('authorization', `Api-Key ${upstream.apiKey}`);
      return { ...q, headers };
    },
  };
  const mutation =
    typeof mutant.mutation === 'function'
      ? mutant.mutation(upstream)
      : (mutant.mutation ?? (mutant.name === 'ignores scopes' ? ignoreScopes : undefined));
  const target = mutation ? await mutatingProxy(upstream, mutation) : upstream;
  return {
    upstream,
    target,
    close: async () => {
      if (target !== upstream) await target.close();
      await upstream.close();
    },
  };
}

/**
 * The mutant's report replayed: against the broken server its check fails again (against the same
 * server, or the same broken code started again when its fault lives in the run's leftover state),
 * against a sandbox it passes (a failure of the run's pace too: its traffic is sent again at the run's rate).
 */
async function expectReplayed(output: string, broken: Target, mutant: Mutant): Promise<void> {
  const restarted = mutant.replayRestarted === undefined ? undefined : await startBroken(mutant);
  try {
    const server = restarted?.target ?? broken;
    const again = await replayedOutcomes(output, server.url, server, mutant);
    expect(again.outcomes, `against the broken server: ${JSON.stringify(again.outcomes)}`).toContain('still fails');
    expect(again.exitCode).toBe(1);
  } finally {
    await restarted?.close();
  }
  const fixed = await sandbox();
  try {
    const now = await replayedOutcomes(output, fixed.url, fixed, mutant);
    expect(now.outcomes, 'against the sandbox').toContain('passes');
    expect(now.outcomes, 'against the sandbox').not.toContain('still fails');
  } finally {
    await fixed.close();
  }
}

/** One test per mutant: the sandbox with that rule broken fails the named check, and nothing crashes. */
export function itCatchesEachByName(mutants: readonly Mutant[]): void {
  for (const mutant of mutants) {
    it(`${mutant.name}: ${mutant.caughtBy}`, async () => {
      const broken = await startBroken(mutant);
      try {
        const { result, failed, output } = await runAgainst(broken.target, mutant);
        expect(failed).toContain(mutant.caughtBy);
        // A broken server is reported through checks, never by crashing the suite.
        expect(failed).not.toContain('suite.error');
        expect(result.exitCode).toBe(1);
        await expectReplayed(output, broken.target, mutant);
      } finally {
        await broken.close();
      }
    });
  }
}

/**
 * The mutants' subsets against the sandbox itself, a fresh one each (a subset with writes leaves
 * nothing for the next to find): nothing fails, and each mutant's check passes, never fails.
 */
export function itPassesEachAgainstTheSandbox(
  mutants: readonly Mutant[],
  options: { allowWrites?: boolean } = {},
): void {
  it('the same subsets pass against the sandbox itself, each check passing', async () => {
    for (const mutant of mutants) {
      const upstream = await sandbox();
      try {
        const { result, failed } = await runAgainst(
          upstream,
          options.allowWrites ? { ...mutant, allowWrites: true } : mutant,
        );
        expect(failed, mutant.only.join(',')).toEqual([]);
        const statuses = result.report.operations
          .flatMap((op) => op.checks)
          .filter((c) => c.id === mutant.caughtBy)
          .map((c) => c.status);
        expect(statuses, mutant.caughtBy).toContain('passed');
        expect(statuses).not.toContain('failed');
      } finally {
        await upstream.close();
      }
    }
  });
}
