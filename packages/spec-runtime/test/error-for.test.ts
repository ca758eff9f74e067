import { describe, expect, it } from 'vitest';
import type { Violation } from '../src/index.js';
import { contract, op } from './support/contract.js';

const errorFor = (id: string, violations: Violation[]) => contract().errorFor(violations, op(id));
const v = (
  field: string,
  code: string | null,
  location: Violation['location'] = 'body',
  extra: Partial<Violation> = {},
): Violation => ({ location, field, keyword: 'x', message: `${field} is wrong`, code, ...extra });

describe('errorFor', () => {
  it('answers one violation with its own code when the operation lists it', () => {
    expect(errorFor('createThread', [v('content', 'EMPTY_NOTE_CONTENT')])).toEqual({
      code: 'EMPTY_NOTE_CONTENT',
      status: 400,
      message: 'content is wrong.',
      param: 'content',
    });
  });

  it('answers several violations with INVALID_REQUEST and one entry per field', () => {
    expect(errorFor('createThread', [v('entity_id', null), v('content', 'EMPTY_NOTE_CONTENT')])).toEqual({
      code: 'INVALID_REQUEST',
      status: 400,
      message: 'Request validation failed',
      errors: [
        { field: 'entity_id', code: 'INVALID_REQUEST', message: 'entity_id is wrong' },
        { field: 'content', code: 'EMPTY_NOTE_CONTENT', message: 'content is wrong' },
      ],
    });
  });

  it('answers a single uncoded violation with INVALID_REQUEST', () => {
    expect(errorFor('upsertCurrentDialingQueue', [v('name', null)])).toMatchObject({
      code: 'INVALID_REQUEST',
      errors: [{ field: 'name', code: 'INVALID_REQUEST' }],
    });
  });

  it('does not use a code the operation does not list', () => {
    // INVALID_PHONE_FORMAT is not listed by updatePerson: it can only appear as a field code.
    expect(errorFor('updatePerson', [v('phone', 'INVALID_PHONE_FORMAT')])).toMatchObject({
      code: 'INVALID_REQUEST',
      errors: [{ field: 'phone', code: 'INVALID_PHONE_FORMAT' }],
    });
  });

  it('lets a not-found path parameter win over body violations', () => {
    const chosen = errorFor('addThreadComment', [
      v('id', 'THREAD_NOT_FOUND', 'path', { value: 'abc' }),
      v('content', 'EMPTY_NOTE_CONTENT'),
    ]);
    expect(chosen).toEqual({
      code: 'THREAD_NOT_FOUND',
      status: 404,
      message: 'No thread with this id: id "abc".',
      param: 'id',
    });
  });

  it('falls back to the first listed code when the operation has no INVALID_REQUEST', () => {
    expect(
      errorFor('removeConversationItemTag', [v('Idempotency-Key', null, 'header'), v('id', 'INVALID_ITEM_ID', 'path')]),
    ).toMatchObject({ code: 'INVALID_ITEM_ID', param: 'id' });
  });

  it('answers a path violation that nothing documents with the API-wide ENDPOINT_NOT_FOUND', () => {
    expect(errorFor('getDeal', [v('id', null, 'path')])).toMatchObject({ code: 'ENDPOINT_NOT_FOUND', status: 404 });
  });

  it('works end to end with validateRequest', () => {
    const operation = op('listCustomFields');
    const violations = contract().validateRequest(operation, { query: { page: '0', size: '500' } });
    expect(contract().errorFor(violations, operation)).toMatchObject({
      code: 'INVALID_REQUEST',
      errors: [
        { field: 'page', code: 'INVALID_PAGE_SIZE' },
        { field: 'size', code: 'INVALID_PAGE_SIZE' },
      ],
    });
  });
});
