// The facts and schema walks the contract tests read through spec-runtime instead of walking the
// bundle themselves.
import { describe, expect, it } from 'vitest';
import {
  ambiguityOf,
  apiWideCode,
  componentSchema,
  everyResponseHeaders,
  isReplayPromised,
  isSafe,
  isScopeInferred,
  resourceOf,
  scanMentions,
  scopeStanding,
  sharedResponseCodes,
} from '../src/facts.js';
import { idPrefixes, itemsOf, loadContract, propertiesOf, requiredOf, typesOf } from '../src/index.js';
import { responseKeyFor } from '../src/walk.js';
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

  it('replay is promised on POST, PUT and DELETE, not on PATCH (x-svc-inferred.replay) nor on reads', () => {
    const promised = (id: string) => isReplayPromised(contract(), op(id));
    expect(['addThreadComment', 'applyConversationAction', 'removeConversationItemTag'].map(promised)).toEqual([
      true,
      true,
      true,
    ]);
    expect(['upsertCurrentDialingQueue', 'updateCustomField', 'updateReceptionist', 'getThread'].map(promised)).toEqual(
      [false, false, false, false],
    );
  });

  it('an ambiguity by aspect: only where the marker is a map holding that aspect', () => {
    expect(ambiguityOf(op('getReceptionist'), 'line-access')).toMatch(
      /404 PHONE_NUMBER_NOT_FOUND.*403 SVC_NUMBER_FORBIDDEN/,
    );
    expect(ambiguityOf(op('updateReceptionist'), 'line-access')).toMatch(/SVC_NUMBER_FORBIDDEN/);
    expect(ambiguityOf(op('getReceptionist'), 'scope')).toBeUndefined();
    expect(ambiguityOf(op('applyConversationAction'), 'line-access')).toBeUndefined(); // a plain string marker
  });

  it('scope standing: every reading, none, or readings that disagree', () => {
    const action = op('applyConversationAction'); // CONVERSATIONS_WRITE or CONVERSATIONS_READ (x-svc-ambiguity)
    expect(scopeStanding(action, ['CONVERSATIONS_READ', 'CONVERSATIONS_WRITE'])).toBe('sufficient');
    expect(scopeStanding(action, ['CONVERSATIONS_READ'])).toBe('depends');
    expect(scopeStanding(action, ['CONVERSATIONS_WRITE', 'TAGS_READ'])).toBe('depends');
    expect(scopeStanding(action, ['TAGS_READ'])).toBe('insufficient');
    expect(scopeStanding(op('listTags'), ['TAGS_READ'])).toBe('sufficient');
    expect(scopeStanding(op('listTags'), [])).toBe('insufficient');
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

describe('scanMentions', () => {
  it('reads each user once, in order, with the display name as written; a broken mention is none', () => {
    expect(scanMentions('Hi @[Ana](usr-1) and @[](usr-2), @[Ana again](usr-1), @[x](usr-) @[y](usr-3', 'usr-')).toEqual(
      [
        { userId: 'usr-1', displayName: 'Ana' },
        { userId: 'usr-2', displayName: '' },
      ],
    );
  });
});
