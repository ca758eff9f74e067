// Authentication in the API's words, for every operation: a missing or malformed Authorization
// header is 401 UNAUTHORIZED (Prism alone only checks presence). With a keys file, unknown keys are
// 401 API_KEY_INVALID and a key without any of the operation's alternative scope sets is 403
// API_KEY_INSUFFICIENT_SCOPE naming what is missing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledContract, type MockKey } from '../src/index.js';
import { Harness } from './support/harness.js';
import { sampleBody, urlFor } from './support/samples.js';

const contract = bundledContract();
const ops = contract.operations.map((op) => [op.operationId, op] as const);
const bodyOf = (op: (typeof ops)[number][1]) => (op.requestBody ? { body: sampleBody(contract, op) } : {});

describe('without a keys file', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await Harness.start();
  });
  afterAll(() => harness.close());

  it.each(ops)(
    '%s: no, malformed or other-scheme Authorization is 401 UNAUTHORIZED; any Api-Key passes',
    async (_, op) => {
      const url = urlFor(contract, op);
      for (const authorization of [undefined, '', 'Bearer abc', 'Api-Key', 'Api-Key two words', 'abc']) {
        const sent = await harness.send(op.method, url, {
          ...bodyOf(op),
          ...(authorization === undefined ? { key: null } : { authorization }),
        });
        expect([sent.status, sent.body.error.code], String(authorization)).toEqual([401, 'UNAUTHORIZED']);
        expect(sent.body.error.type).toBe('authentication_error');
      }
      const ok = await harness.send(op.method, url, { ...bodyOf(op), authorization: 'api-key anything-at-all' });
      expect(ok.status).toBeLessThan(300);
    },
  );

  it('authentication comes before validation (a bad key with a bad body is still 401)', async () => {
    const sent = await harness.send('PUT', '/v2/api/conversations/%2B14155550123/action', { key: null, rawBody: '{' });
    expect(sent.body.error.code).toBe('UNAUTHORIZED');
  });

  it('routing comes before authentication (unknown path without a key is 404)', async () => {
    const sent = await harness.send('GET', '/v2/api/nothing', { key: null });
    expect(sent.body.error.code).toBe('ENDPOINT_NOT_FOUND');
  });
});

describe('with a keys file', () => {
  const keys: MockKey[] = [
    { key: 'all', scopes: Object.keys(contract.scopes) },
    { key: 'threads_read', scopes: ['THREADS_READ'] },
    { key: 'conversations_read', scopes: ['CONVERSATIONS_READ'] },
    { key: 'nothing', scopes: [] },
    { key: 'revoked', scopes: Object.keys(contract.scopes), revoked: true },
    { key: 'trial', scopes: Object.keys(contract.scopes), trial: true },
  ];
  let harness: Harness;
  beforeAll(async () => {
    harness = await Harness.start({ keys });
  });
  afterAll(() => harness.close());

  it.each(ops)(
    '%s: unknown, revoked, trial and scope-less keys are refused; a key with the scope passes',
    async (_, op) => {
      const url = urlFor(contract, op);
      const expectations: Array<[string, number, string]> = [
        ['unknown', 401, 'API_KEY_INVALID'],
        ['revoked', 401, 'API_KEY_REVOKED'],
        ['trial', 403, 'API_KEY_TRIAL_NOT_ALLOWED'],
        ['nothing', 403, 'API_KEY_INSUFFICIENT_SCOPE'],
      ];
      for (const [key, status, code] of expectations) {
        const sent = await harness.send(op.method, url, { ...bodyOf(op), key });
        expect([sent.status, sent.body.error.code], key).toEqual([status, code]);
      }
      const refused = await harness.send(op.method, url, { ...bodyOf(op), key: 'nothing' });
      for (const scopes of op.security) for (const scope of scopes) expect(refused.body.error.message).toContain(scope);
      const ok = await harness.send(op.method, url, { ...bodyOf(op), key: 'all' });
      expect(ok.status).toBeLessThan(300);
    },
  );

  it('names the missing scope', async () => {
    const sent = await harness.send('GET', '/v2/api/users', { key: 'threads_read' });
    expect(sent.status).toBe(403);
    expect(sent.body.error.message).toContain('USERS_READ');
  });

  it('any one of the alternative scope sets suffices', async () => {
    // applyConversationAction accepts CONVERSATIONS_WRITE or CONVERSATIONS_READ.
    const action = contract.operationsById.get('applyConversationAction')!;
    expect(action.security.length).toBeGreaterThan(1);
    const sent = await harness.send('PUT', urlFor(contract, action), {
      key: 'conversations_read',
      body: sampleBody(contract, action),
    });
    expect(sent.status).toBe(200);
    const refused = await harness.send('PUT', urlFor(contract, action), {
      key: 'threads_read',
      body: sampleBody(contract, action),
    });
    expect(refused.body.error.message).toMatch(/CONVERSATIONS_WRITE or CONVERSATIONS_READ/);
  });

  it('a key with the scope is then validated like any other request', async () => {
    const sent = await harness.send('GET', '/v2/api/threads/x', { key: 'threads_read' });
    expect(sent.body.error.code).toBe('THREAD_NOT_FOUND');
  });
});
