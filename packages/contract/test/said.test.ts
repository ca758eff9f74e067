// What a response says, read against the sentences the spec encodes for machines: the error
// fields of x-svc-detail-rules (response.error-details) and the mentions of every note and comment
// (x-svc-mentions, x-svc-inline-syntax: response.mentions). Each rule's teeth and its harmless
// variations, on made-up exchanges; the mutation tests run them against servers.
import { describe, expect, it } from 'vitest';
import { errorDetailProblems } from '../src/exchange-checks/error-details.js';
import { mentionProblems } from '../src/exchange-checks/mentions.js';
import type { Exchange } from '../src/http/exchange.js';
import { loadSpec } from '../src/spec.js';

const spec = loadSpec();

function exchange(operationId: string, status: number, body: unknown): Exchange {
  const op = spec.contract.operationsById.get(operationId) ?? null;
  return {
    seq: 1,
    request: { method: op?.method ?? 'GET', path: op?.path ?? '/' },
    url: 'http://h/',
    operation: op,
    status,
    headers: new Headers(),
    text: JSON.stringify(body),
    body,
    durationMs: 1,
  };
}

const refusal = (operationId: string, code: string, fields: Record<string, unknown>) =>
  errorDetailProblems(
    spec,
    exchange(operationId, code === 'INVALID_PHONE_FORMAT' ? 400 : 403, { error: { code, ...fields } }),
  );

describe('response.error-details (x-svc-detail-rules)', () => {
  it('wants the message of API_KEY_INSUFFICIENT_SCOPE to name the scope the operation requires', () => {
    expect(refusal('listTags', 'API_KEY_INSUFFICIENT_SCOPE', { message: 'This key lacks TAGS_READ.' })).toEqual([]);
    expect(
      refusal('listTags', 'API_KEY_INSUFFICIENT_SCOPE', { message: 'Missing scope: tags_read? no: TAGS_READ' }),
    ).toEqual([]);
    const [problem] = refusal('listTags', 'API_KEY_INSUFFICIENT_SCOPE', { message: 'Forbidden.' }) ?? [];
    expect(problem).toMatch(
      /does not name the scope listTags requires, TAGS_READ \(the description says: "The message names the missing scope\."\)/,
    );
    // A whole token: a longer scope that contains the name is another scope.
    expect(refusal('listTags', 'API_KEY_INSUFFICIENT_SCOPE', { message: 'needs TAGS_READ_ALL' })).toHaveLength(1);
    expect(refusal('listTags', 'API_KEY_INSUFFICIENT_SCOPE', {})).toHaveLength(1);
  });

  it('accepts any reading of an ambiguous scope, and any scope of the contract where it is only inferred', () => {
    const action = (message: string) => refusal('applyConversationAction', 'API_KEY_INSUFFICIENT_SCOPE', { message });
    expect(action('lacks CONVERSATIONS_WRITE')).toEqual([]);
    expect(action('lacks CONVERSATIONS_READ')).toEqual([]);
    expect(action('lacks TAGS_READ')).toHaveLength(1);
    const queue = (message: string) => refusal('upsertCurrentDialingQueue', 'API_KEY_INSUFFICIENT_SCOPE', { message });
    expect(queue('lacks DIALING_QUEUE_READ_WRITE')).toEqual([]);
    expect(queue('lacks BILLING')).toEqual([]);
    expect(queue('no')).toEqual([
      'error.message "no" does not name the scope upsertCurrentDialingQueue requires, any scope (its own is only inferred) (the description says: "The message names the missing scope.")',
    ]);
  });

  it('wants the suggestion of INVALID_PHONE_FORMAT to name E.164, in any case', () => {
    expect(refusal('listConversations', 'INVALID_PHONE_FORMAT', { suggestion: 'Use E.164.' })).toEqual([]);
    expect(refusal('listConversations', 'INVALID_PHONE_FORMAT', { suggestion: 'send e.164 numbers' })).toEqual([]);
    expect(refusal('listConversations', 'INVALID_PHONE_FORMAT', { message: 'E.164 please' })).toEqual([
      'error.suggestion null does not name E.164 (the description says: "Returns 400 INVALID_PHONE_FORMAT with a suggestion to use E.164.")',
    ]);
    expect(
      refusal('listConversations', 'INVALID_PHONE_FORMAT', { suggestion: 'Use the international format.' }),
    ).toHaveLength(1);
  });

  it('does not apply where the description states nothing about a field', () => {
    expect(refusal('listCustomFields', 'TEAM_NOT_FOUND', { message: 'm' })).toBeUndefined();
    expect(errorDetailProblems(spec, exchange('listTags', 200, { data: [] }))).toBeUndefined();
  });

  const notFound = (path: string, fields: Record<string, unknown>, body?: unknown) => {
    const sent = exchange('getThread', 404, { error: { code: 'THREAD_NOT_FOUND', ...fields } });
    return errorDetailProblems(spec, { ...sent, request: { ...sent.request, path, ...(body ? { body } : {}) } });
  };

  it('wants a not-found message to quote the value that names nothing (the one param names, else any sent)', () => {
    expect(notFound('/v2/api/threads/cth-nope', { message: 'No thread with id cth-nope.' })).toEqual([]);
    expect(notFound('/v2/api/threads/cth-nope', { message: 'No thread cth-nope.', param: 'id' })).toEqual([]);
    // As it travelled in the URL, or decoded.
    expect(notFound('/v2/api/threads/cth%2Dnope', { message: 'No thread cth-nope.' })).toEqual([]);
    expect(notFound('/v2/api/threads/cth-nope', { message: 'Not found.' })).toEqual([
      'error.message "Not found." does not quote the failing value "cth-nope" (the description says: "Error body: message, human-readable, includes the failing value (here, what names no resource).")',
    ]);
    const created = (message: string, param?: string) =>
      errorDetailProblems(spec, {
        ...exchange('createThread', 404, { error: { code: 'CONVERSATION_ITEM_NOT_FOUND', message, param } }),
        request: {
          method: 'POST',
          path: '/v2/api/threads',
          body: { entity_type: 'CALL', entity_id: 'cll-nope', content: 'x' },
        },
      });
    expect(created('No item cll-nope.', 'entity_id')).toEqual([]);
    expect(created('No item CALL.', 'entity_id')).toHaveLength(1);
  });

  it('wants the param of a not-found to name the parameter the request sent, not another of the operation', () => {
    const byEmail = (param: string) =>
      errorDetailProblems(spec, {
        ...exchange('upsertCurrentDialingQueue', 404, {
          error: { code: 'ASSIGNEE_NOT_FOUND', message: 'No teammate with email x@example.invalid.', param },
        }),
        request: { method: 'PATCH', path: '/v2/api/dialing-queues/current', body: { email: 'x@example.invalid' } },
      });
    expect(byEmail('email')).toEqual([]);
    expect(byEmail('user_id')).toEqual([
      'error.param "user_id" names a parameter the request did not send, while the failing value of ASSIGNEE_NOT_FOUND is one it sent (the description says: "Error body: message, human-readable, includes the failing value (here, what names no resource)."; "param: offending parameter")',
    ]);
  });

  it('wants the message of UNKNOWN_FIELD to name a field the body sent, by its path or its own name', () => {
    const unknown = (message: string) =>
      errorDetailProblems(spec, {
        ...exchange('updateReceptionist', 400, { error: { code: 'UNKNOWN_FIELD', message } }),
        request: {
          method: 'PATCH',
          path: '/v2/api/numbers/%2B14155550100/agent',
          body: { agent: { svc_contract_unknown: true } },
        },
      });
    expect(unknown('agent.svc_contract_unknown is not a known field.')).toEqual([]);
    expect(unknown('Unknown field: svc_contract_unknown')).toEqual([]);
    // Which field is refused may depend on a reading of the body's form: any field sent may be it.
    expect(unknown('agent is not a field of this body')).toEqual([]);
    expect(unknown('The request body contains a field that is not supported.')).toEqual([
      'error.message "The request body contains a field that is not supported." names no field the request sent ("agent", "agent.svc_contract_unknown", "svc_contract_unknown") (the description says: "Error body: message, human-readable, includes the failing value (here, the unknown field\'s name).")',
    ]);
  });

  it('wants param, where given, to name a parameter or body field of the operation or of the request', () => {
    expect(notFound('/v2/api/threads/cth-1', { message: 'cth-1', param: 'thread_identifier' })).toEqual([
      'error.param "thread_identifier" names no parameter or body field of getThread (the description says: "param: offending parameter, when applicable")',
    ]);
    expect(notFound('/v2/api/threads/cth-1', { message: 'cth-1', param: 'X-Request-Id' })).toEqual([]);
    const comment = (param: string) =>
      errorDetailProblems(spec, {
        ...exchange('addThreadComment', 400, { error: { code: 'NOTE_CONTENT_TOO_LONG', message: 'x', param } }),
        request: { method: 'POST', path: '/v2/api/threads/cth-1/comments', body: { content: 'x' } },
      });
    expect(comment('content')).toEqual([]);
    expect(comment('body.text')).toHaveLength(1);
  });

  it('wants the endpoints a suggestion names to be operations of the contract', () => {
    const suggesting = (suggestion: string) =>
      refusal('listTags', 'API_KEY_INSUFFICIENT_SCOPE', { message: 'TAGS_READ', suggestion });
    expect(suggesting('Find it with GET /v2/api/threads and add a comment.')).toEqual([]);
    expect(suggesting('See /v2/api/threads/{id}/comments, or PATCH /v2/api/crm/attributes/seats.')).toEqual([]);
    expect(suggesting('Ask an admin.')).toEqual([]);
    expect(suggesting('List your keys with GET /v2/api/keys.')).toEqual([
      'error.suggestion names GET /v2/api/keys, which is no operation of the contract (the description says: "suggestion: next step; may name endpoints")',
    ]);
    expect(suggesting('Use POST /v2/api/users.')).toHaveLength(1);
    expect(suggesting('The old /v1/api/threads is gone.')).toHaveLength(1);
  });
});

describe('response.mentions (x-svc-mentions, x-svc-inline-syntax)', () => {
  const comment = (content: string, ids: string[]) => ({
    id: 'thc-1',
    content,
    mentions: ids.map((user_id) => ({ user_id, name: null, deleted: false })),
  });
  const thread = (...comments: unknown[]) => exchange('getThread', 200, { data: { id: 'cth-1', comments } });

  it('passes a note or comment whose listed mentions are the users mentioned inline, in any order', () => {
    expect(
      mentionProblems(spec, thread(comment('@[A](usr-1) and @[B](usr-2), @[A again](usr-1)', ['usr-2', 'usr-1']))),
    ).toEqual([]);
    expect(mentionProblems(spec, thread(comment('no mention; @[not closed(usr-3)', [])))).toEqual([]);
    const note = {
      id: 'not-1',
      content: 'Ask @[Dana](usr-4)',
      mentions: [{ user_id: 'usr-4', name: 'Dana', deleted: true }],
    };
    expect(mentionProblems(spec, exchange('getConversationNote', 200, { data: note }))).toEqual([]);
  });

  it('names a mention inline but not listed, and one listed but not inline', () => {
    expect(mentionProblems(spec, thread(comment('Hi @[A](usr-1)', [])))).toEqual([
      'thc-1 mentions usr-1 inline, but mentions does not list it',
    ]);
    expect(mentionProblems(spec, thread(comment('Hi', ['usr-9'])))).toEqual([
      'thc-1 lists usr-9 in mentions, but content does not mention it',
    ]);
  });

  it('does not apply to answers holding no note or comment, nor to errors', () => {
    expect(mentionProblems(spec, exchange('listTags', 200, { data: [] }))).toBeUndefined();
    expect(mentionProblems(spec, exchange('getThread', 404, { error: { code: 'THREAD_NOT_FOUND' } }))).toBeUndefined();
  });

  it('scans no content longer than the documented maximum (its cost stays bounded by bytes)', () => {
    const long = `@[A](usr-1)${'@['.repeat(2500)}`;
    expect(mentionProblems(spec, thread(comment(long, [])))).toEqual([]);
    const many = Array.from({ length: 40 }, () => comment(`@[A](usr-1)${'x'.repeat(3900)}`, []));
    // 64 KiB of content is scanned per answer: the first 16 of these, not the rest.
    expect(mentionProblems(spec, thread(...many))).toHaveLength(16);
  });
});
