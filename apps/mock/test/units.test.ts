// The small modules on their own: Prefer parsing, the keys file, the Authorization header, the
// rate-limit counter and the translation of Prism's violations (with Prism's own wording).
import { describe, expect, it } from 'vitest';
import { apiKeyOf, bundledContract, missingScope, parseKeys, parsePrefer, translateViolations } from '../src/index.js';
import { RateLimitCounter } from '../src/rate-limit-headers.js';
import { generateRequestId, requestIdFor } from '@svc/spec-runtime';

const contract = bundledContract();
const op = (id: string) => contract.operationsById.get(id)!;
const values = (over: Partial<Parameters<typeof translateViolations>[3]> = {}) => ({ params: {}, query: new URLSearchParams(), headers: {}, body: undefined, ...over });

describe('parsePrefer', () => {
  it('reads code, example, dynamic and seed, quoted or not, comma- or semicolon-separated', () => {
    expect(parsePrefer('code=404, example=THREAD_NOT_FOUND')).toEqual({ ok: true, value: { code: 404, example: 'THREAD_NOT_FOUND' } });
    expect(parsePrefer('dynamic=true; seed="abc"')).toEqual({ ok: true, value: { dynamic: true, seed: 'abc' } });
    expect(parsePrefer('respond-async, wait=5')).toEqual({ ok: true, value: {} });
    expect(parsePrefer(undefined)).toEqual({ ok: true, value: {} });
  });

  it('refuses values Prism would refuse', () => {
    expect(parsePrefer('code=20').ok).toBe(false);
    expect(parsePrefer('dynamic=yes').ok).toBe(false);
    expect(parsePrefer('example=').ok).toBe(false);
  });
});

describe('keys', () => {
  it('parses the keys file and checks scopes against the contract', () => {
    expect(parseKeys({ keys: [{ key: 'k', scopes: ['THREADS_READ'], revoked: false }] }, contract.scopes)).toEqual([{ key: 'k', scopes: ['THREADS_READ'] }]);
    expect(() => parseKeys({}, contract.scopes)).toThrow(/no "keys" array/);
    expect(() => parseKeys({ keys: [{ key: 'a b', scopes: [] }] }, contract.scopes)).toThrow(/without spaces/);
    expect(() => parseKeys({ keys: [{ key: 'k', scopes: [] }, { key: 'k', scopes: [] }] }, contract.scopes)).toThrow(/twice/);
    expect(() => parseKeys({ keys: [{ key: 'k', scopes: ['NOPE'] }] }, contract.scopes)).toThrow(/unknown scope NOPE/);
  });

  it('reads Api-Key <key>, case-insensitively, and nothing else', () => {
    expect(apiKeyOf('Api-Key abc')).toBe('abc');
    expect(apiKeyOf('api-key  abc ')).toBe('abc');
    expect(apiKeyOf('Bearer abc')).toBeUndefined();
    expect(apiKeyOf('Api-Key a b')).toBeUndefined();
    expect(apiKeyOf(undefined)).toBeUndefined();
  });

  it('names every alternative when no scope set is complete', () => {
    expect(missingScope(op('applyConversationAction'), [])?.message).toContain('CONVERSATIONS_WRITE or CONVERSATIONS_READ');
    expect(missingScope(op('applyConversationAction'), ['CONVERSATIONS_READ'])).toBeNull();
  });
});

describe('request ids and rate-limit headers', () => {
  it('generates or echoes request ids', () => {
    expect(generateRequestId()).toMatch(/^req_[A-Za-z0-9]{12}$/);
    expect(requestIdFor('mine')).toBe('mine');
    expect(requestIdFor('')).toMatch(/^req_/);
  });

  it('counts per key and class in one-second windows', () => {
    let now = 10_250;
    const counter = new RateLimitCounter({ read: 3, write: 1 }, () => now);
    expect(counter.count('k', 'read')).toEqual({ limit: 3, remaining: 2, reset: 1 });
    counter.count('k', 'read');
    expect(counter.count('k', 'read').remaining).toBe(0);
    expect(counter.count('k', 'read').remaining).toBe(0);
    expect(counter.count('other', 'read').remaining).toBe(2);
    expect(counter.count('k', 'write')).toEqual({ limit: 1, remaining: 0, reset: 1 });
    now = 11_000;
    expect(counter.count('k', 'read').remaining).toBe(2);
  });
});

describe('translateViolations (Prism wording -> the contract code)', () => {
  it('a query parameter keyword takes the code of its schema', () => {
    const [v] = translateViolations(contract, op('listConversations'), [{ path: ['query', 'size'], code: 'maximum', message: 'Request query parameter size must be <= 100' }], values({ query: new URLSearchParams('size=250') }));
    expect(v).toMatchObject({ location: 'query', field: 'size', code: 'INVALID_PAGE_SIZE', message: 'size must be <= 100; got 250', value: 250 });
  });

  it('a parameter-level code overrides the schema (not-found by id)', () => {
    const [v] = translateViolations(contract, op('getThread'), [{ path: ['path', 'id'], code: 'pattern', message: 'Request path parameter id must match pattern "^cth-.+$"' }], values({ params: { id: 'x' } }));
    expect(v?.code).toBe('THREAD_NOT_FOUND');
  });

  it('the anyOf branches of one field merge into one violation with the composite schema code and its message', () => {
    const diagnostics = [
      { path: ['body', 'ids', '0'], code: 'pattern', message: 'Request body property ids.0 must match pattern "^cll-.+$"' },
      { path: ['body', 'ids', '0'], code: 'pattern', message: 'Request body property ids.0 must match pattern "^msg-.+$"' },
      { path: ['body', 'ids', '0'], code: 'anyOf', message: 'Request body property ids.0 must match a schema in anyOf' },
      { path: ['body', 'ids', '0'], code: 'pattern', message: 'Request body property ids.0 must match pattern "^(cll|msg)-.+$"' },
    ];
    const found = translateViolations(contract, op('batchGetConversationItems'), diagnostics, values({ body: { ids: ['not-1'] } }));
    expect(found).toEqual([{ location: 'body', field: 'ids[0]', keyword: 'pattern', code: 'INVALID_ITEM_ID', message: 'ids[0] must match pattern "^(cll|msg)-.+$"; got "not-1"', value: 'not-1' }]);
  });

  it('required takes the code of a required map only (TAGS_REQUIRED), else none', () => {
    const [tags] = translateViolations(contract, op('addConversationItemTags'), [{ path: ['body'], code: 'required', message: "Request body must have required property 'tags'" }], values({ body: {} }));
    expect(tags).toMatchObject({ field: 'tags', code: 'TAGS_REQUIRED', message: 'tags is required' });
    const [action] = translateViolations(contract, op('applyConversationAction'), [{ path: ['body'], code: 'required', message: "Request body must have required property 'action'" }], values({ body: {} }));
    expect(action).toMatchObject({ field: 'action', code: null });
  });

  it('additionalProperties names the unknown field (UNKNOWN_FIELD where the schema says so)', () => {
    const [v] = translateViolations(contract, op('updateReceptionist'), [{ path: ['body', 'agent'], code: 'additionalProperties', message: "Request body property agent must NOT have additional properties; found 'is_default'" }], values({ body: { agent: { is_default: true } } }));
    expect(v).toMatchObject({ field: 'agent.is_default', code: 'UNKNOWN_FIELD' });
  });

  it('a missing query parameter is MISSING_PARAMETER; a missing body INVALID_REQUEST_BODY', () => {
    const [q] = translateViolations(contract, op('findThread'), [{ path: ['query'], code: 'required', message: "Request query must have required property 'entity_id'" }], values());
    expect(q).toMatchObject({ field: 'entity_id', code: 'MISSING_PARAMETER', message: 'Required query parameter entity_id is missing' });
    const [b] = translateViolations(contract, op('createThread'), [{ code: 'required', message: 'Body parameter is required' }], values());
    expect(b).toMatchObject({ field: 'body', code: 'INVALID_REQUEST_BODY' });
  });

  it('nested body fields are named as clients write them', () => {
    const [v] = translateViolations(contract, op('updateCustomField'), [{ path: ['body', 'options', '1', 'label'], code: 'maxLength', message: 'Request body property options.1.label must NOT have more than 255 characters' }], values({ body: { options: [{ label: 'a' }, { label: 'x'.repeat(256) }] } }));
    expect(v).toMatchObject({ field: 'options[1].label', code: 'ATTRIBUTE_OPTION_INVALID' });
  });
});
