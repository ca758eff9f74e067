// The controls of the mutation tests: harmless variations, each the sandbox taking another reading
// of a point the contract marks open (x-svc-ambiguity, x-svc-unspecified, x-svc-inferred). A
// correct server may do what each control does, so the suite must pass every one of them; the
// mutants (mutants.ts) are the opposite, rules broken that it must catch. marker-controls.ts maps
// every marker of the contract to a control here or to the reason none is needed.
import { expect, it } from 'vitest';
import { runAgainst } from './mutants.js';
import { isAgent, isFieldUpdate } from './requests.js';
import {
  forgetsKeys,
  json,
  type Mutation,
  mutatingProxy,
  type ProxiedRequest,
  type ProxiedResponse,
  sandbox,
  type Target,
} from './servers.js';

export interface Control {
  name: string;
  only: string[];
  allowWrites?: boolean;
  /** The variation, or one made from the upstream (its keys). */
  mutation: Mutation | ((upstream: Target) => Mutation);
  /** A check that must have passed with the variation in place (so the variation was exercised). */
  exercises: string;
}

const pathOf = (q: ProxiedRequest) => q.path.split('?')[0] ?? '';

/** The response replaced by another documented error (status, type and code), its request id kept. */
/** A not-found message quoting what the request named (the description: a message includes the failing value). */
const quoting = (q: ProxiedRequest) => `Not found (a harmless variation): ${decodeURIComponent(pathOf(q))}`;

function answerError(
  r: ProxiedResponse,
  status: number,
  type: string,
  code: string,
  message = `${code} (a harmless variation)`,
): ProxiedResponse {
  const headers = new Headers(r.headers);
  headers.set('content-type', 'application/json');
  headers.delete('idempotency-replayed');
  const error = {
    type,
    code,
    message,
    retryable: false,
    request_id: r.headers.get('x-request-id'),
  };
  return { status, headers, body: JSON.stringify({ error }) };
}

/** A field left out of the data (an object, or each entry of a list) of the 200s `picks` picks. */
function leavesOut(picks: (q: ProxiedRequest) => boolean, field: string): Mutation {
  return {
    response: (r, q) =>
      picks(q) && r.status === 200
        ? json(r, (b) => {
            for (const entry of Array.isArray(b.data) ? b.data : [b.data])
              if (entry && typeof entry === 'object') delete (entry as Record<string, unknown>)[field];
          })
        : r,
  };
}

/** The error code of a JSON error response, if it is one. */
function codeOf(r: ProxiedResponse): string | undefined {
  try {
    const code = (JSON.parse(r.body) as { error?: { code?: unknown } }).error?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/** The scopes a config key holds, by the Authorization header of a request (undefined: the run's own key). */
function scopesOf(upstream: Target, q: ProxiedRequest): readonly string[] | undefined {
  const sent = q.headers.get('authorization');
  return upstream.config.keys.find((k) => sent === `Api-Key ${k.key}`)?.scopes;
}

/** A success status changed to the other one the contract documents (a 204 carries no body). */
function successStatus(change: (q: ProxiedRequest, status: number) => number | undefined): Mutation {
  return {
    response: (r, q) => {
      const status = r.status >= 200 && r.status < 300 ? change(q, r.status) : undefined;
      if (status === undefined || status === r.status) return r;
      if (status !== 204) return { ...r, status };
      const headers = new Headers(r.headers);
      headers.delete('content-type');
      return { status, headers, body: '' };
    },
  };
}

/** The single values of a receptionist update, as the description lists them (flat). */
const RECEPTIONIST_SINGLE_VALUES = [
  'name',
  'business_name',
  'business_address',
  'business_phone',
  'business_email',
  'business_website',
  'business_industry',
  'language',
  'voice_id',
  'greeting_message',
  'closing_message',
  'tone_of_voice',
  'answer_type',
];

/**
 * A receptionist update in the body form the server does not take refused: 400 UNKNOWN_FIELD, its
 * message naming the field it refuses (the message "includes the failing value").
 */
function refusesBodyForm(refused: (body: Record<string, unknown>) => string | undefined): Mutation {
  return {
    response: (r, q) => {
      if (q.method !== 'PATCH' || !isAgent(q)) return r;
      let body: unknown;
      try {
        body = JSON.parse(q.body ?? '');
      } catch {
        return r;
      }
      const field =
        body !== null && typeof body === 'object' && !Array.isArray(body)
          ? refused(body as Record<string, unknown>)
          : undefined;
      return field === undefined
        ? r
        : answerError(
            r,
            400,
            'validation_error',
            'UNKNOWN_FIELD',
            `${field} is not a field of this body (a harmless variation)`,
          );
    },
  };
}

/** A custom field (or each of a list) with an empty description left out and options [] where it has none. */
function customFieldReadings(b: Record<string, unknown>): void {
  for (const field of Array.isArray(b.data) ? b.data : [b.data]) {
    if (field === null || typeof field !== 'object') continue;
    const f = field as Record<string, unknown>;
    // Omitted rather than null: the contract types description as a string (see the report).
    if (f.description === '') delete f.description;
    if (f.type !== 'DROPDOWN' && f.options === undefined) f.options = [];
  }
}

/** Values beyond the examples in the fields whose allowed values the description does not list. */
function openValues(b: Record<string, unknown>): void {
  const set = (node: unknown, values: Record<string, string>) => {
    if (node === null || typeof node !== 'object') return;
    for (const [field, value] of Object.entries(values))
      if (typeof (node as Record<string, unknown>)[field] === 'string')
        (node as Record<string, unknown>)[field] = value;
  };
  const data = b.data as Record<string, unknown> | Array<Record<string, unknown>> | undefined;
  for (const entry of Array.isArray(data) ? data : [])
    set(entry.last_item, { type: 'VOICEMAIL', direction: 'OUTBOUND', result: 'MISSED' });
  if (data === undefined || Array.isArray(data)) return;
  set(data, { status: 'WON' }); // a deal
  set(data.agent, {
    status: 'PAUSED',
    tone_of_voice: 'FORMAL',
    answer_type: 'DETAILED',
    language: 'fr-CA',
    voice_id: 'voice-other',
  });
  const scheduling = data.scheduling as { calendars?: unknown[] } | undefined;
  for (const calendar of scheduling?.calendars ?? []) set(calendar, { provider: 'OUTLOOK', status: 'DISCONNECTED' });
  for (const rule of Array.isArray(data.transfer_rules) ? data.transfer_rules : []) set(rule, { type: 'TEAM_MEMBER' });
  const knowledge = data.knowledge as { websites?: unknown[]; files?: unknown[] } | undefined;
  for (const entry of [...(knowledge?.websites ?? []), ...(knowledge?.files ?? [])]) set(entry, { status: 'DISABLED' });
}

/** The error body of a response changed (its JSON parsed), when it is one. */
function changeError(r: ProxiedResponse, change: (error: Record<string, unknown>) => void): ProxiedResponse {
  if (codeOf(r) === undefined) return r;
  return json(r, (b) => change(b.error as Record<string, unknown>));
}

/** The scopes a message names (the sandbox's refusal names those the operation requires). */
const scopesNamed = (text: unknown) => (typeof text === 'string' ? (text.match(/\b[A-Z]+(?:_[A-Z]+)+\b/g) ?? []) : []);

/** Every list of objects within a value sorted longest entry first (so that a set sent with one entry more, last, comes back otherwise). */
/** Reorders, in place, every list of objects within a value (at any depth). */
function reorderListsWithin(value: unknown, reorder: (list: object[]) => void): void {
  if (Array.isArray(value)) {
    for (const entry of value) reorderListsWithin(entry, reorder);
    if (value.every((e) => typeof e === 'object' && e !== null)) reorder(value);
  } else if (typeof value === 'object' && value !== null)
    for (const v of Object.values(value)) reorderListsWithin(v, reorder);
}

const longestFirst = (list: object[]) => list.sort((a, b) => JSON.stringify(b).length - JSON.stringify(a).length);

export const CONTROLS: Control[] = [
  {
    // "Each entry is { field, code, message }": neither their order nor the messages' wording is stated.
    name: 'lists the failing fields of a validation error last first, each message worded otherwise',
    only: ['negative.several-fields'],
    allowWrites: true,
    mutation: {
      response: (r) =>
        r.status === 400
          ? json(r, (b) => {
              const error = b.error as { errors?: Array<Record<string, unknown>> } | undefined;
              if (Array.isArray(error?.errors))
                error.errors = error.errors.toReversed().map((e) => ({ ...e, message: `invalid: ${String(e.field)}` }));
            })
          : r,
    },
    exercises: 'negative.several-fields',
  },
  {
    // "GET /v2/api/threads finds the thread of an item …; its response shape is not shown."
    name: 'answers the lookup of a thread by its item as a list (its shape is not shown)',
    only: ['threads.create-then-read'],
    allowWrites: true,
    mutation: {
      response: (r, q) =>
        q.method === 'GET' && pathOf(q) === '/v2/api/threads' && r.status === 200
          ? json(r, (b) => Object.assign(b, { data: b.data === null ? [] : [b.data] }))
          : r,
    },
    exercises: 'threads.create-then-read',
  },
  {
    // The 200 of the update is documented with key, label, type, options and source: description need not show.
    name: 'never shows a custom field description in its answers',
    only: ['custom-fields.partial-update'],
    allowWrites: true,
    mutation: leavesOut((q) => q.path.startsWith('/v2/api/crm/attributes'), 'description'),
    exercises: 'custom-fields.partial-update',
  },
  {
    name: 'executes a repeated PATCH again instead of replaying it (replay is not promised on PATCH)',
    only: ['upsertCurrentDialingQueue'],
    allowWrites: true,
    exercises: 'idempotency.replay',
    mutation: forgetsKeys((q) => q.method === 'PATCH'),
  },
  {
    name: 'follows the action page: a CONVERSATIONS_READ key without CONVERSATIONS_WRITE is refused',
    only: ['applyConversationAction'],
    allowWrites: true,
    exercises: 'auth.sufficient-scope',
    mutation: (upstream) => ({
      response: (r, q) => {
        // Past authentication only: a revoked or unknown key is still a 401.
        const scopes = r.status === 401 ? undefined : scopesOf(upstream, q);
        return q.method === 'PUT' && /\/action$/.test(pathOf(q)) && scopes && !scopes.includes('CONVERSATIONS_WRITE')
          ? answerError(r, 403, 'permission_error', 'API_KEY_INSUFFICIENT_SCOPE', 'The key lacks CONVERSATIONS_WRITE.')
          : r;
      },
    }),
  },
  {
    name: 'answers a line the key may not access with 404 PHONE_NUMBER_NOT_FOUND (the receptionist page)',
    only: ['getReceptionist'],
    exercises: 'auth.line-forbidden',
    mutation: {
      response: (r, q) =>
        isAgent(q) && codeOf(r) === 'SVC_NUMBER_FORBIDDEN'
          ? answerError(r, 404, 'not_found_error', 'PHONE_NUMBER_NOT_FOUND', quoting(q))
          : r,
    },
  },
  {
    name: 'answers a number that is no line of the team with 403 SVC_NUMBER_FORBIDDEN (the Authentication section)',
    only: ['getReceptionist'],
    exercises: 'negative.unknown-id',
    mutation: {
      response: (r, q) =>
        isAgent(q) && codeOf(r) === 'PHONE_NUMBER_NOT_FOUND'
          ? answerError(r, 403, 'permission_error', 'SVC_NUMBER_FORBIDDEN')
          : r,
    },
  },
  {
    name: 'answers each write with the other documented success status (200 for 201, 201 for 200, 204 for 200)',
    only: ['threads', 'conversation-items', 'updateReceptionist'],
    allowWrites: true,
    exercises: 'tags.add-remove',
    mutation: successStatus((q, status) => {
      const path = pathOf(q);
      if (q.method === 'POST' && (path === '/v2/api/threads' || /\/comments$/.test(path))) return 200;
      if (q.method === 'POST' && /\/tags$/.test(path)) return status === 200 ? 201 : 200;
      if ((q.method === 'DELETE' && /\/tags\//.test(path)) || (q.method === 'PATCH' && isAgent(q))) return 204;
      return undefined;
    }),
  },
  {
    // "Each list item shows key, label and type": options, source and description need not be listed.
    name: 'lists each custom field with its key, label and type only',
    only: ['updateCustomField'],
    allowWrites: true,
    exercises: 'custom-fields.managed-by-integration',
    mutation: {
      response: (r, q) =>
        q.method === 'GET' && pathOf(q) === '/v2/api/crm/attributes' && r.status === 200
          ? json(r, (b) => {
              if (Array.isArray(b.data))
                b.data = b.data.map((f: Record<string, unknown>) => ({ key: f.key, label: f.label, type: f.type }));
            })
          : r,
    },
  },
  {
    // The update's 200 shows "key, label, type, options, source": the description may show in the list alone.
    name: "shows a custom field's description in the list only, never in an update's answer",
    only: ['custom-fields.description'],
    allowWrites: true,
    exercises: 'custom-fields.description',
    mutation: leavesOut(isFieldUpdate, 'description'),
  },
  {
    // "Each list item shows key, label and type": a dropdown's options may show in an update's answer alone.
    name: 'lists each custom field without its options, its source listed',
    only: ['custom-fields.option-rules'],
    allowWrites: true,
    exercises: 'custom-fields.option-rules',
    mutation: leavesOut((q) => q.method === 'GET' && pathOf(q) === '/v2/api/crm/attributes', 'options'),
  },
  {
    // "Request and response shapes for … users …: not shown": the list may leave emails to the user read by id.
    name: 'lists the users without their emails (each read by id shows one)',
    only: ['dialer-queues.by-email'],
    allowWrites: true,
    exercises: 'dialer-queues.by-email',
    mutation: leavesOut((q) => q.method === 'GET' && pathOf(q) === '/v2/api/users', 'email'),
  },
  {
    name: 'expects the single values of a receptionist update inside an agent block, refusing them flat',
    only: ['updateReceptionist'],
    allowWrites: true,
    exercises: 'receptionist.merge-rules',
    mutation: refusesBodyForm((body) => Object.keys(body).find((k) => RECEPTIONIST_SINGLE_VALUES.includes(k))),
  },
  {
    name: "names a deal's fields as the field table does (value, close_date, person)",
    only: ['getDeal'],
    exercises: 'conformance.success',
    mutation: {
      response: (r, q) =>
        r.status === 200 && /^\/v2\/api\/crm\/deals\//.test(pathOf(q))
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
    name: 'answers an unknown call or message id with CONVERSATION_ITEM_NOT_FOUND (not CALL_ or TEXT_MESSAGE_NOT_FOUND)',
    only: ['getConversationItem'],
    exercises: 'negative.unknown-id',
    mutation: {
      response: (r, q) =>
        /^\/v2\/api\/conversations\/items\/[^/]+$/.test(pathOf(q)) &&
        ['CALL_NOT_FOUND', 'TEXT_MESSAGE_NOT_FOUND'].includes(codeOf(r) ?? '')
          ? answerError(r, 404, 'not_found_error', 'CONVERSATION_ITEM_NOT_FOUND', quoting(q))
          : r,
    },
  },
  {
    name: 'uses values beyond the examples where the allowed values are not shown',
    only: ['listConversations', 'getReceptionist', 'getDeal'],
    exercises: 'response.schema',
    mutation: { response: (r) => (r.status === 200 ? json(r, openValues) : r) },
  },
  {
    name: 'leaves total_pages out of the conversation list, as its example does',
    only: ['listConversations'],
    exercises: 'response.pagination',
    mutation: {
      response: (r, q) =>
        r.status === 200 && pathOf(q) === '/v2/api/conversations'
          ? json(r, (b) => delete (b.pagination as Record<string, unknown>).total_pages)
          : r,
    },
  },
  {
    name: 'leaves a cleared custom field description out and gives options [] on fields that are not DROPDOWN',
    only: ['custom-fields'],
    allowWrites: true,
    exercises: 'custom-fields.partial-update',
    mutation: {
      response: (r, q) =>
        r.status === 200 && pathOf(q).startsWith('/v2/api/crm/attributes') ? json(r, customFieldReadings) : r,
    },
  },
  {
    name: 'lists users, tags and numbers without pagination, and a note without its line',
    only: ['listUsers', 'listTags', 'listNumbers', 'getConversationNote', 'threads'],
    allowWrites: true,
    exercises: 'fixtures.discovery',
    mutation: {
      response: (r, q) => {
        if (r.status !== 200) return r;
        if (['/v2/api/users', '/v2/api/tags', '/v2/api/numbers'].includes(pathOf(q)))
          return json(r, (b) => delete b.pagination);
        return /^\/v2\/api\/conversations\/notes\//.test(pathOf(q))
          ? json(r, (b) => ((b.data as Record<string, unknown>).svc_number = null))
          : r;
      },
    },
  },
  {
    // "The message names the missing scope": in any wording, any reading of an ambiguous scope.
    name: 'names the missing scope in another wording (the last reading it names), with no suggestion',
    only: ['applyConversationAction', 'listTags', 'auth.insufficient-scope'],
    allowWrites: true,
    exercises: 'response.error-details',
    mutation: {
      response: (r) =>
        codeOf(r) === 'API_KEY_INSUFFICIENT_SCOPE'
          ? changeError(r, (e) => {
              e.message = `Forbidden: grant ${scopesNamed(e.message).at(-1)} to this key first.`;
              delete e.suggestion;
            })
          : r,
    },
  },
  {
    name: 'suggests E.164 in another wording and case for a phone number refused',
    only: ['listConversations', 'negative.phone-format'],
    exercises: 'response.error-details',
    mutation: {
      response: (r) =>
        codeOf(r) === 'INVALID_PHONE_FORMAT'
          ? changeError(r, (e) => {
              e.suggestion = 'Write phone numbers in e.164 form, such as +14155550123.';
            })
          : r,
    },
  },
  {
    // The order of mentions, their display names and `deleted` are not what the rule is about.
    name: 'lists the mentions of every note and comment in reverse order, with no display names',
    only: ['getConversationNote', 'listConversationNotes', 'getThread'],
    exercises: 'response.mentions',
    mutation: {
      response: (r) =>
        r.status === 200 && r.body.includes('"mentions"')
          ? json(r, (b) => {
              const flip = (node: unknown): void => {
                if (Array.isArray(node)) node.forEach(flip);
                else if (node !== null && typeof node === 'object') {
                  const o = node as Record<string, unknown>;
                  if (Array.isArray(o.mentions))
                    o.mentions = [...o.mentions].reverse().map((m) => ({ ...(m as object), name: null }));
                  Object.values(o).forEach(flip);
                }
              };
              flip(b.data);
            })
          : r,
    },
  },
  {
    name: 'gives X-RateLimit-Reset as a Unix time (its unit is not shown)',
    only: ['listTags'],
    exercises: 'response.rate-limit-headers',
    mutation: {
      response: (r) => {
        const headers = new Headers(r.headers);
        headers.set('x-ratelimit-reset', '2000000000');
        return { ...r, headers };
      },
    },
  },
  // --- Harmless variations beside the audit's rules (x-svc-response-rules, the omitted scraped text).
  {
    name: "answers a thread's comments with their fields in another order, still oldest first",
    only: ['getThread', 'described.order'],
    exercises: 'described.order',
    mutation: {
      response: (r, q) =>
        r.status === 200 && q.method === 'GET' && /^\/v2\/api\/threads\/[^/]+$/.test(pathOf(q))
          ? json(r, (b) => {
              const thread = b.data as { comments: Array<Record<string, unknown>> };
              thread.comments = thread.comments.map((c) => Object.fromEntries(Object.entries(c).reverse()));
            })
          : r,
    },
  },
  {
    // "Collections are replaced as complete sets": the order a set is given back in is not stated.
    name: "gives a receptionist's lists sorted, not in the order sent (transfer rules, calendars, days and their openings)",
    only: ['getReceptionist', 'updateReceptionist'],
    allowWrites: true,
    exercises: 'receptionist.collections-replaced',
    mutation: {
      response: (r, q) =>
        r.status === 200 && isAgent(q) ? json(r, (b) => reorderListsWithin(b.data, longestFirst)) : r,
    },
  },
  {
    // The same, in an order that depends on the order stored: a configuration read, written back
    // and read again comes back in the order first given (reversed twice).
    name: "gives a receptionist's lists in the reverse of the order it holds them in (days, openings, rules)",
    only: ['getReceptionist', 'updateReceptionist'],
    allowWrites: true,
    exercises: 'receptionist.write-back',
    mutation: {
      response: (r, q) =>
        r.status === 200 && isAgent(q) ? json(r, (b) => reorderListsWithin(b.data, (list) => list.reverse())) : r,
    },
  },
  {
    // The description shows no field of a conversation's state: a list entry without `read` and
    // `archived` conforms, and the rules about that state cannot be judged (skipped, not counted).
    name: 'lists conversations without their read and archived state',
    only: ['applyConversationAction'],
    allowWrites: true,
    exercises: 'conversations.archive',
    mutation: {
      response: (r, q) =>
        r.status === 200 && q.method === 'GET' && pathOf(q) === '/v2/api/conversations'
          ? json(r, (b) => {
              for (const entry of Array.isArray(b.data) ? (b.data as Array<Record<string, unknown>>) : []) {
                delete entry.read;
                delete entry.archived;
              }
            })
          : r,
    },
  },
  {
    // POST /v2/api/threads/{id}/comments: "its body and response are not shown".
    name: "answers a comment's add with the comment's id alone",
    only: ['threads'],
    allowWrites: true,
    exercises: 'threads.comment-author',
    mutation: {
      response: (r, q) =>
        r.status < 300 && q.method === 'POST' && /^\/v2\/api\/threads\/[^/]+\/comments$/.test(pathOf(q))
          ? json(r, (b) => {
              const id = (b.data as Record<string, unknown> | undefined)?.id;
              b.data = { id };
            })
          : r,
    },
  },
  {
    // GET /v2/api/threads: "its response shape is not shown".
    name: 'answers the thread lookup in the list envelope (the thread as its one entry, none where the item has none)',
    only: ['threads'],
    allowWrites: true,
    exercises: 'threads.lookup-by-kind',
    mutation: {
      response: (r, q) =>
        r.status === 200 && q.method === 'GET' && pathOf(q) === '/v2/api/threads'
          ? json(r, (b) => {
              const list = b.data === null || b.data === undefined ? [] : [b.data];
              b.data = list;
              b.pagination = { page: 1, size: 20, total_count: list.length, total_pages: list.length, has_more: false };
            })
          : r,
    },
  },
  {
    name: 'lists the custom fields in another order',
    only: ['listCustomFields', 'described.excludes'],
    exercises: 'described.excludes',
    mutation: {
      response: (r, q) =>
        r.status === 200 && pathOf(q) === '/v2/api/crm/attributes'
          ? json(r, (b) => {
              b.data = [...(b.data as unknown[])].reverse();
            })
          : r,
    },
  },
  {
    name: 'words the INVALID_PHONE_FORMAT suggestion otherwise, naming E164',
    only: ['getReceptionist', 'negative.phone-format'],
    exercises: 'response.error-details',
    mutation: {
      response: (r) =>
        r.status === 400 && codeOf(r) === 'INVALID_PHONE_FORMAT'
          ? json(r, (b) => {
              (b.error as Record<string, unknown>).suggestion = 'Write the number in E164 form: +14155550123.';
            })
          : r,
    },
  },
  {
    name: 'words validation errors otherwise, quoting the values sent',
    only: ['listCustomFields', 'findThread', 'described.error-mentions'],
    exercises: 'described.error-mentions',
    mutation: {
      response: (r, q) => {
        if (r.status !== 400 || !r.body.includes('"validation_error"')) return r;
        const url = new URL(q.path, 'http://host');
        const sent = [...url.searchParams.values(), decodeURIComponent(url.pathname.split('/').pop() ?? '')];
        return json(r, (b) => {
          (b.error as Record<string, unknown>).message = `Not accepted: ${sent.join(', ')}.`;
        });
      },
    },
  },
  {
    // "param: Offending parameter, when applicable": stated for MISSING_PARAMETER and MISSING_HEADER
    // only ("named in param"), so a server may leave it out of every other error (ApiErrorFields
    // x-svc-inferred: param "when applicable").
    name: 'leaves param out of every error but MISSING_PARAMETER and MISSING_HEADER',
    only: [
      'upsertCurrentDialingQueue',
      'dialer-queues.unknown-assignee',
      'getConversationNote',
      'deleteSummaryTemplate',
      'getUser',
      'updateCustomField',
    ],
    allowWrites: true,
    exercises: 'dialer-queues.unknown-assignee',
    mutation: {
      response: (r) => {
        const code = codeOf(r);
        return code === undefined || code === 'MISSING_PARAMETER' || code === 'MISSING_HEADER'
          ? r
          : changeError(r, (e) => delete e.param);
      },
    },
  },
  {
    name: 'gives each website entry of the knowledge a field the description does not show',
    only: ['getReceptionist'],
    exercises: 'response.schema',
    mutation: {
      response: (r, q) =>
        r.status === 200 && isAgent(q) && q.method === 'GET'
          ? json(r, (b) => {
              const knowledge = (b.data as { knowledge: { websites: Array<Record<string, unknown>> } }).knowledge;
              knowledge.websites = knowledge.websites.map((w) => ({ ...w, page_count: 3 }));
            })
          : r,
    },
  },
  {
    // "resolved_by: null or user reference (shape when set: not shown)", and the shapes of tags are
    // not shown while every request names a tag by a string: an id and a name alone are references too.
    name: "gives a resolved thread's resolved_by as the user's id and lists the tags by name alone",
    only: ['getThread', 'listTags'],
    exercises: 'response.schema',
    mutation: {
      response: (r, q) => {
        if (r.status !== 200 || q.method !== 'GET') return r;
        if (pathOf(q) === '/v2/api/tags')
          return json(r, (b) => {
            b.data = (b.data as Array<{ name: string }>).map((tag) => tag.name);
          });
        return pathOf(q).startsWith('/v2/api/threads/')
          ? json(r, (b) => {
              const thread = b.data as { resolved_by: { id: string } | null };
              if (thread.resolved_by) thread.resolved_by = thread.resolved_by.id as never;
            })
          : r;
      },
    },
  },
];

/** The mutation with a count of the exchanges it changed, so a control proves its variation happened. */
function counted(mutation: Mutation): { mutation: Mutation; changed: () => number } {
  let n = 0;
  const note = <T>(before: T, after: T): T => {
    if (after !== before) n++;
    return after;
  };
  return {
    changed: () => n,
    mutation: {
      ...(mutation.request ? { request: (q: ProxiedRequest) => note(q, mutation.request?.(q) ?? q) } : {}),
      ...(mutation.response
        ? { response: (r: ProxiedResponse, q: ProxiedRequest) => note(r, mutation.response?.(r, q) ?? r) }
        : {}),
    },
  };
}

/** One test per control: the sandbox with that variation passes its subset, the variation seen at work. */
export function itPassesEach(controls: readonly Control[]): void {
  for (const control of controls) {
    it(`${control.name}: passes`, async () => {
      const upstream = await sandbox();
      const { mutation, changed } = counted(
        typeof control.mutation === 'function' ? control.mutation(upstream) : control.mutation,
      );
      const target = await mutatingProxy(upstream, mutation);
      try {
        const { result, failed } = await runAgainst(target, { ...control, caughtBy: '' });
        expect(failed).toEqual([]);
        expect(result.exitCode).toBe(0);
        expect(changed()).toBeGreaterThan(0);
        const checks = result.report.operations.flatMap((op) => op.checks);
        expect(checks.some((c) => c.id === control.exercises && c.status === 'passed')).toBe(true);
      } finally {
        await target.close();
        await upstream.close();
      }
    });
  }
}
