// The small modules on their own: Prefer parsing, the keys file, the Authorization header and
// scopes (read by the kernel), request ids.

import { authorize } from '@svc/server-kernel';
import { apiKeyOf, generateRequestId, requestIdFor } from '@svc/spec-runtime';
import { describe, expect, it } from 'vitest';
import { bundledContract, parseKeys, parsePrefer } from '../src/index.js';

const contract = bundledContract();
const op = (id: string) => contract.operationsById.get(id)!;

describe('parsePrefer', () => {
  it('reads code, example, dynamic and seed, quoted or not, comma- or semicolon-separated', () => {
    expect(parsePrefer('code=404, example=THREAD_NOT_FOUND')).toEqual({
      ok: true,
      value: { code: 404, example: 'THREAD_NOT_FOUND' },
    });
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
    expect(parseKeys({ keys: [{ key: 'k', scopes: ['THREADS_READ'], revoked: false }] }, contract.scopes)).toEqual([
      { key: 'k', scopes: ['THREADS_READ'] },
    ]);
    expect(() => parseKeys({}, contract.scopes)).toThrow(/no "keys" array/);
    expect(() => parseKeys({ keys: [{ key: 'a b', scopes: [] }] }, contract.scopes)).toThrow(/without spaces/);
    expect(() =>
      parseKeys(
        {
          keys: [
            { key: 'k', scopes: [] },
            { key: 'k', scopes: [] },
          ],
        },
        contract.scopes,
      ),
    ).toThrow(/twice/);
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
    expect(authorize(op('applyConversationAction'), { key: 'k', scopes: [] })?.message).toContain(
      'CONVERSATIONS_WRITE or CONVERSATIONS_READ',
    );
    expect(authorize(op('applyConversationAction'), { key: 'k', scopes: ['CONVERSATIONS_READ'] })).toBeNull();
  });
});

describe('request ids', () => {
  it('generates or echoes request ids', () => {
    expect(generateRequestId()).toMatch(/^req_[A-Za-z0-9]{12}$/);
    expect(requestIdFor('mine')).toBe('mine');
    expect(requestIdFor('')).toMatch(/^req_/);
  });
});
