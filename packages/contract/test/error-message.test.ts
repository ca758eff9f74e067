// response.error-message on made-up exchanges: "message | string | Human-readable, includes the
// failing value", on every error. Its teeth (a blank message; a message that does not quote the
// one value its param names, on writes and conflicts too) and the variations the description
// allows (the value quoted in other words, URL-encoded; no value required where the cause is not
// one value). The mutation tests (mutants-gaps.test.ts) run it against servers.
import { describe, expect, it } from 'vitest';
import { errorMessageProblems } from '../src/exchange-checks/error-message.js';
import type { Exchange } from '../src/http/exchange.js';
import { loadSpec } from '../src/spec.js';

const spec = loadSpec();

function answer(operationId: string, path: string, status: number, error: unknown, body?: unknown): Exchange {
  const op = spec.contract.operationsById.get(operationId) ?? null;
  const payload = { error };
  return {
    seq: 1,
    request: { method: op?.method ?? 'GET', path, ...(body !== undefined ? { body } : {}) },
    url: `http://h${path}`,
    operation: op,
    status,
    headers: new Headers(),
    text: JSON.stringify(payload),
    body: payload,
    durationMs: 1,
  };
}

const builtIn = (message: unknown, param: unknown = 'key') =>
  errorMessageProblems(
    answer('updateCustomField', '/v2/api/crm/attributes/company', 400, { code: 'ATTRIBUTE_BUILT_IN', message, param }),
    false,
    spec.contract,
    spec,
  );
const conflict = (message: unknown) =>
  errorMessageProblems(
    answer(
      'createThread',
      '/v2/api/threads',
      409,
      { code: 'THREAD_ALREADY_EXISTS', message, param: 'entity_id' },
      { entity_type: 'CALL', entity_id: 'cll-42', content: 'hi' },
    ),
    false,
    spec.contract,
    spec,
  );

describe('response.error-message', () => {
  it('fails a blank or missing message on any error, a mock included', () => {
    expect(builtIn('')).toHaveLength(1);
    expect(builtIn('   ')).toHaveLength(1);
    expect(builtIn(undefined)).toHaveLength(1);
    expect(conflict('')?.[0]).toMatch(/error\.message of THREAD_ALREADY_EXISTS is "": blank/);
    const mock = answer('getThread', '/v2/api/threads/cth-1', 404, { code: 'THREAD_NOT_FOUND', message: '' });
    expect(errorMessageProblems(mock, true, spec.contract, spec)).toHaveLength(1);
  });

  it('fails a message that does not quote the path parameter or body string its param names, writes and conflicts included', () => {
    expect(builtIn('This field is built in.')?.[0]).toMatch(/does not quote "company", the value of param key/);
    expect(conflict('The item already has a thread.')?.[0]).toMatch(/does not quote "cll-42"/);
  });

  it('passes the value quoted in other words, or URL-encoded', () => {
    expect(builtIn('«company» is one of the built-in fields')).toEqual([]);
    expect(conflict('Item cll-42: a thread exists; add a comment to it.')).toEqual([]);
    const phone = answer(
      'applyConversationAction',
      '/v2/api/conversations/%2B1415%20555/action',
      400,
      { code: 'INVALID_PHONE_FORMAT', message: 'Not E.164: %2B1415%20555', param: 'contact_number' },
      { action: 'READ' },
    );
    expect(errorMessageProblems(phone, false, spec.contract, spec)).toEqual([]);
  });

  it('wants no value where the cause is not one value a message can quote', () => {
    expect(builtIn('Refused.', null)).toEqual([]);
    expect(builtIn('Refused.', 'authorization')).toEqual([]);
    const several = answer(
      'updateCustomField',
      '/v2/api/crm/attributes/plan',
      400,
      { code: 'INVALID_REQUEST', message: 'Request validation failed', param: 'label', errors: [{ field: 'label' }] },
      { label: '!!' },
    );
    expect(errorMessageProblems(several, false, spec.contract, spec)).toEqual([]);
    const long = answer(
      'updateCustomField',
      '/v2/api/crm/attributes/plan',
      400,
      { code: 'ATTRIBUTE_LABEL_INVALID', message: 'The label is too long.', param: 'label' },
      { label: 'x'.repeat(65) },
    );
    expect(errorMessageProblems(long, false, spec.contract, spec)).toEqual([]);
    // A mock answers its examples: it cannot quote what was sent.
    const mock = answer('updateCustomField', '/v2/api/crm/attributes/company', 400, {
      code: 'ATTRIBUTE_BUILT_IN',
      message: 'Example.',
      param: 'key',
    });
    expect(errorMessageProblems(mock, true, spec.contract, spec)).toEqual([]);
  });

  it('an unknown path: ENDPOINT_NOT_FOUND must quote the path ("No endpoint at this URL"); a method a path lacks need not', () => {
    const unrouted = (method: string, path: string, code: string, message: string) =>
      errorMessageProblems(
        {
          ...answer('', path, code === 'ENDPOINT_NOT_FOUND' ? 404 : 405, { code, message }),
          request: { method, path },
        },
        false,
        spec.contract,
        spec,
      );
    expect(unrouted('GET', '/v2/api/nowhere', 'ENDPOINT_NOT_FOUND', 'No endpoint at this URL.')?.[0]).toMatch(
      /does not quote "\/v2\/api\/nowhere", the path no endpoint is at/,
    );
    expect(unrouted('POST', '/v2/api/nowhere', 'ENDPOINT_NOT_FOUND', 'No endpoint at GET undefined.')).toHaveLength(1);
    // The path quoted alone, within the whole URL, or without its query; the query is not the path.
    expect(unrouted('GET', '/v2/api/nowhere', 'ENDPOINT_NOT_FOUND', 'Nothing at /v2/api/nowhere')).toEqual([]);
    expect(unrouted('GET', '/v2/api/nowhere?x=1', 'ENDPOINT_NOT_FOUND', 'See https://h/v2/api/nowhere')).toEqual([]);
    expect(unrouted('GET', '/v2/api/no%20where', 'ENDPOINT_NOT_FOUND', 'No endpoint at /v2/api/no%20where')).toEqual(
      [],
    );
    expect(unrouted('GET', '/v2/api/no%20where', 'ENDPOINT_NOT_FOUND', 'No endpoint at /v2/api/no where')).toEqual([]);
    // 405 fails on the method, whatever the message says of the path; a long path need not be quoted whole.
    expect(unrouted('GET', '/v2/api/threads', 'METHOD_NOT_ALLOWED', 'Not supported.')).toEqual([]);
    expect(unrouted('GET', `/v2/api/${'x'.repeat(80)}`, 'ENDPOINT_NOT_FOUND', 'No endpoint here.')).toEqual([]);
    // The wrong code for an unknown path is routing.unknown-path's to fail, not this check's.
    expect(unrouted('GET', '/v2/api/nowhere', 'THREAD_NOT_FOUND', 'No such thread.')).toEqual([]);
  });

  it('a header the request sent and the param names (the Idempotency-Key of a reuse) is quoted; Authorization never read', () => {
    const sent = (param: string, message: string, auth?: string) =>
      errorMessageProblems(
        {
          ...answer('addConversationItemTags', '/v2/api/conversations/items/cll-1/tags', 409, {
            code: 'IDEMPOTENCY_KEY_REUSE',
            message,
            param,
          }),
          request: {
            method: 'POST',
            path: '/v2/api/conversations/items/cll-1/tags',
            body: { tags: ['VIP'] },
            idempotencyKey: 'key-7',
            ...(auth ? { auth: { kind: 'key' as const, key: auth } } : {}),
          },
        },
        false,
        spec.contract,
        spec,
      );
    expect(sent('Idempotency-Key', 'This key was already used elsewhere.')?.[0]).toMatch(
      /does not quote "key-7", the value of param Idempotency-Key/,
    );
    expect(sent('idempotency-key', 'Idempotency-Key "key-7" was already used.')).toEqual([]);
    // A header not sent (MISSING_HEADER) has no value; the key in Authorization is never looked for.
    expect(sent('X-Request-Id', 'Something failed.')).toEqual([]);
    expect(sent('Authorization', 'Bad key.', 'sbx_secret')).toEqual([]);
  });

  it('does not apply to a success', () => {
    const ok = { ...answer('getThread', '/v2/api/threads/cth-1', 200, undefined), body: { data: {} } };
    expect(errorMessageProblems(ok, false, spec.contract, spec)).toBeUndefined();
  });
});
