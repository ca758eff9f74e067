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
    expect(refusal('getThread', 'THREAD_NOT_FOUND', { message: 'm' })).toBeUndefined();
    expect(errorDetailProblems(spec, exchange('listTags', 200, { data: [] }))).toBeUndefined();
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
