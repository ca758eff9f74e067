import { describe, expect, it } from 'vitest';
import { contract, op } from './support/contract.js';

const validate = (id: string, parts: Parameters<ReturnType<typeof contract>['validateRequest']>[1]) =>
  contract().validateRequest(op(id), parts);

describe('validateRequest: parameters', () => {
  it('accepts a valid request', () => {
    expect(
      validate('listConversations', {
        query: new URLSearchParams('page=2&size=50&svc_number=%2B14155550100&search=north'),
      }),
    ).toEqual([]);
  });

  it('coerces integer query parameters and maps their violations to INVALID_PAGE_SIZE', () => {
    for (const query of ['size=0', 'size=101', 'size=abc', 'size=', 'size=1.5', 'page=0']) {
      const [v, ...rest] = validate('listCustomFields', { query: new URLSearchParams(query) });
      expect(rest).toEqual([]);
      expect(v).toMatchObject({ location: 'query', code: 'INVALID_PAGE_SIZE' });
    }
  });

  it('names the failing value in the message', () => {
    const [v] = validate('listCustomFields', { query: { size: '250' } });
    expect(v?.message).toBe('size must be <= 100; got 250');
  });

  it('says the form a pattern expects in the words of its schema, never the raw pattern', () => {
    const [v] = validate('createThread', {
      body: { entity_type: 'CALL', entity_id: 'xyz', content: 'hello' },
    });
    expect(v?.field).toBe('entity_id');
    expect(v?.message).toMatch(/^entity_id must be the id of the item a thread belongs to, .*; got "xyz"$/);
    expect(v?.message).not.toMatch(/\^|\$|must match/);
  });

  it('reports a missing required query parameter as MISSING_PARAMETER', () => {
    const violations = validate('findThread', { query: new URLSearchParams('entity_type=CALL') });
    expect(violations).toEqual([
      {
        location: 'query',
        field: 'entity_id',
        keyword: 'required',
        message: 'Required query parameter entity_id is missing',
        code: 'MISSING_PARAMETER',
      },
    ]);
  });

  it('uses the schema code of a query parameter (INVALID_SEARCH_QUERY, INVALID_PHONE_FORMAT)', () => {
    const violations = validate('listConversations', {
      query: new URLSearchParams('search=%23%21%3F&svc_number=415-555-0188'),
    });
    expect(violations.map((v) => [v.field, v.code])).toEqual([
      ['svc_number', 'INVALID_PHONE_FORMAT'],
      ['search', 'INVALID_SEARCH_QUERY'],
    ]);
  });

  it('lets a parameter-level x-svc-error-code override the schema (wrong prefix -> NOTE_NOT_FOUND)', () => {
    const [v] = validate('getConversationNote', { params: { id: 'cll-123' } });
    expect(v).toMatchObject({ location: 'path', field: 'id', code: 'NOTE_NOT_FOUND', value: 'cll-123' });
  });

  it('maps an item id with another prefix to INVALID_ITEM_ID through its anyOf', () => {
    const violations = validate('getConversationItem', { params: { id: 'not-1' }, query: { extend: 'recording' } });
    expect(violations.map((v) => [v.field, v.code])).toEqual([
      ['id', 'INVALID_ITEM_ID'],
      ['extend', 'UNSUPPORTED_EXTEND_VALUE'],
    ]);
  });

  it('validates documented headers', () => {
    const [v] = validate('createThread', {
      headers: { 'Idempotency-Key': '' },
      body: { entity_type: 'CALL', entity_id: 'cll-1', content: 'x' },
    });
    expect(v).toMatchObject({ location: 'header', field: 'Idempotency-Key', code: null });
  });
});

describe('validateRequest: body', () => {
  const thread = { entity_type: 'CALL', entity_id: 'cll-1', content: 'Hello @[Dana Reyes](usr-4TgB81cd)' };

  it('accepts a valid body', () => {
    expect(validate('createThread', { body: thread })).toEqual([]);
  });

  it('maps each NoteContent keyword to its code (missing, blank, too long)', () => {
    const code = (content: unknown) => validate('createThread', { body: { ...thread, content } })[0]?.code;
    expect(validate('createThread', { body: { entity_type: 'CALL', entity_id: 'cll-1' } })[0]).toMatchObject({
      field: 'content',
      keyword: 'required',
      code: 'EMPTY_NOTE_CONTENT',
    });
    expect(code('')).toBe('EMPTY_NOTE_CONTENT');
    expect(code('   \n')).toBe('EMPTY_NOTE_CONTENT');
    expect(code(42)).toBe('EMPTY_NOTE_CONTENT');
    expect(code('x'.repeat(4001))).toBe('NOTE_CONTENT_TOO_LONG');
    expect(validate('createThread', { body: { ...thread, content: 'x'.repeat(4001) } })[0]?.message).toBe(
      'content is 4001 characters long; the maximum is 4000',
    );
  });

  it('gives a missing field without a `required` code no code (a plain code describes bad values only)', () => {
    const [v] = validate('createThread', { body: { entity_id: 'cll-1', content: 'x' } });
    expect(v).toMatchObject({
      field: 'entity_type',
      keyword: 'required',
      code: null,
      message: 'entity_type is required',
    });
    expect(validate('createThread', { body: { ...thread, entity_type: 'VOICEMAIL' } })[0]?.code).toBe(
      'INVALID_THREAD_ENTITY_TYPE',
    );
  });

  it('maps tags required/minItems to TAGS_REQUIRED and batch maxItems to BATCH_TOO_LARGE', () => {
    expect(validate('addConversationItemTags', { params: { id: 'cll-1' }, body: {} })[0]?.code).toBe('TAGS_REQUIRED');
    expect(validate('addConversationItemTags', { params: { id: 'cll-1' }, body: { tags: [] } })[0]?.code).toBe(
      'TAGS_REQUIRED',
    );
    const ids = Array.from({ length: 101 }, (_, i) => `cll-${i}`);
    expect(validate('batchGetConversationItems', { body: { ids } })).toMatchObject([
      { field: 'ids', code: 'BATCH_TOO_LARGE' },
    ]);
    expect(validate('batchGetConversationItems', { body: { ids: ['cll-1', 'not-2'] } })).toMatchObject([
      { field: 'ids[1]', code: 'INVALID_ITEM_ID' },
    ]);
  });

  it('reports unknown fields as UNKNOWN_FIELD at any depth of the receptionist update', () => {
    const violations = validate('updateReceptionist', {
      params: { number: '+14155550100' },
      body: { status: 'OFF', agent: { is_default: true }, knowledge: { files: [] } },
    });
    expect(violations.map((v) => [v.field, v.code])).toEqual([
      ['status', 'UNKNOWN_FIELD'],
      ['agent.is_default', 'UNKNOWN_FIELD'],
      ['knowledge.files', 'UNKNOWN_FIELD'],
    ]);
  });

  it('finds INVALID_PHONE_FORMAT through a oneOf (nullable phone number in a transfer rule)', () => {
    const rule = {
      description: 'd',
      type: 'EXTERNAL_NUMBER',
      transfer_message: 'm',
      target_number: '(415) 555-0199',
      target_member_id: null,
      target_line_number: null,
    };
    const violations = validate('updateReceptionist', {
      params: { number: '+14155550100' },
      body: { transfer_rules: [rule] },
    });
    expect(violations).toMatchObject([{ field: 'transfer_rules[0].target_number', code: 'INVALID_PHONE_FORMAT' }]);
  });

  it('maps custom field label and option rules', () => {
    const violations = validate('updateCustomField', {
      params: { key: 'tier' },
      body: { label: '---', options: [{ label: 'ok' }, { label: ' ' }] },
    });
    expect(violations.map((v) => [v.field, v.code])).toEqual([
      ['label', 'ATTRIBUTE_LABEL_INVALID'],
      ['options[1].label', 'ATTRIBUTE_OPTION_INVALID'],
    ]);
  });

  it('reports a missing required body as INVALID_REQUEST_BODY and a non-object body at field body', () => {
    expect(validate('createThread', {})).toMatchObject([{ field: 'body', code: 'INVALID_REQUEST_BODY' }]);
    expect(validate('createThread', { body: [1, 2] })).toMatchObject([{ field: 'body', keyword: 'type', code: null }]);
  });
});
