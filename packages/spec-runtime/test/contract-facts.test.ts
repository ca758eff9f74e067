// The facts and schema walks the contract tests read through spec-runtime instead of walking the
// bundle themselves.
import { describe, expect, it } from 'vitest';
import {
  apiWideCode,
  componentSchema,
  everyResponseHeaders,
  idPrefixes,
  isSafe,
  isScopeInferred,
  itemsOf,
  loadContract,
  propertiesOf,
  requiredOf,
  resourceOf,
  responseKeyFor,
  sharedResponseCodes,
  typesOf,
} from '../src/index.js';
import { bundle, contract, op } from './support/contract.js';

describe('contract facts', () => {
  it('the headers every documented response carries, numeric where their schema says so', () => {
    expect(everyResponseHeaders(contract())).toEqual([
      { name: 'X-Request-Id', numeric: false },
      { name: 'X-RateLimit-Limit', numeric: true },
      { name: 'X-RateLimit-Remaining', numeric: true },
      { name: 'X-RateLimit-Reset', numeric: true },
    ]);
  });

  it('a header one response does not require is not among them', () => {
    const copy = structuredClone(bundle) as { components: { headers: Record<string, { required?: boolean }> } };
    delete copy.components.headers.RateLimitResetHeader?.required;
    expect(everyResponseHeaders(loadContract(copy)).map((h) => h.name)).not.toContain('X-RateLimit-Reset');
  });

  it('resources, side effects, inferred scopes and API-wide codes', () => {
    expect(resourceOf(op('updateCustomField'))).toBe('custom-fields');
    expect([
      isSafe(contract(), op('listTags')),
      isSafe(contract(), op('searchConversationItems')),
      isSafe(contract(), op('createThread')),
    ]).toEqual([true, true, false]);
    expect(isScopeInferred(op('findThread'))).toBe(true);
    expect(isScopeInferred(op('listTags'))).toBe(false);
    expect([apiWideCode(contract(), 404), apiWideCode(contract(), 405), apiWideCode(contract(), 400)]).toEqual([
      'ENDPOINT_NOT_FOUND',
      'METHOD_NOT_ALLOWED',
      undefined,
    ]);
    expect([responseKeyFor(op('getThread'), 404), responseKeyFor(op('getThread'), 418)]).toEqual(['404', undefined]);
  });

  it('the codes of a shared error response, from the named error’s code enum inside its allOf (beside ApiErrorFields)', () => {
    expect(sharedResponseCodes(contract(), 'IdempotencyConflict')).toEqual([
      'IDEMPOTENCY_KEY_REUSE',
      'OTHER_TRANSACTION_IN_PROGRESS',
    ]);
    expect(sharedResponseCodes(contract(), 'Unauthorized')).toEqual([
      'UNAUTHORIZED',
      'API_KEY_INVALID',
      'API_KEY_REVOKED',
    ]);
    expect(sharedResponseCodes(contract(), 'NoSuchResponse')).toEqual([]);
  });
});

describe('schema walks', () => {
  it('properties and required names through $ref and allOf, item schemas, types and id prefixes', () => {
    const create = contract().resolve(op('createThread').requestBody!.schemaPointer);
    expect(Object.keys(propertiesOf(contract(), create))).toEqual(['entity_type', 'entity_id', 'content']);
    expect(requiredOf(contract(), create)).toEqual(['entity_type', 'entity_id', 'content']);
    expect(typesOf(propertiesOf(contract(), create).content!)).toEqual(['string']);
    const batch = contract().resolve(op('batchGetConversationItems').requestBody!.schemaPointer);
    expect(itemsOf(contract(), propertiesOf(contract(), batch).ids)?.title).toBe('ConversationItemId');
    expect(idPrefixes(componentSchema(contract(), 'ConversationItemId')!)).toEqual(['cll-', 'msg-']);
    expect(typesOf({ type: ['string', 'null'] })).toEqual(['string', 'null']);
  });
});
