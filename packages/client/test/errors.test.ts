import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSvcClient, isErrorCode, MAX_ERROR_BODY_BYTES, SvcApiError, unwrap } from '../src/index.js';
import { errorBody, type FaultServer, startFaultServer } from './support/fault-server.js';

const apiKey = 'sk_test_errors_0123456789';
let server: FaultServer;

beforeAll(async () => {
  server = await startFaultServer({ apiKey, conversations: 2 });
});
afterAll(() => server.close());

const invalidRequest = () => ({
  kind: 'respond' as const,
  ...errorBody(400, 'validation_error', 'INVALID_REQUEST', 'Request validation failed', {
    param: 'svc_number',
    suggestion: 'Use E.164, e.g. +14155550123.',
    errors: [
      { field: 'svc_number', code: 'INVALID_PHONE_FORMAT', message: 'must be E.164' },
      { field: 'date_from', code: 'INVALID_DATE', message: 'must be a valid ISO 8601 date' },
    ],
  }),
});

describe('errors', () => {
  it('keeps openapi-fetch’s { data, error, response } result, with the error body', async () => {
    const svc = createSvcClient({ baseUrl: server.url, apiKey });
    const result = await svc.GET('/v2/api/threads/{id}', { params: { path: { id: 'cth-404' } } });
    expect(result.data).toBeUndefined();
    expect(result.response.status).toBe(404);
    expect(result.error?.error).toMatchObject({ type: 'not_found_error', code: 'THREAD_NOT_FOUND', retryable: false });
    expect(result.error?.error.request_id).toBe(result.requestId);
  });

  it('builds SvcApiError with every field of the body', async () => {
    const svc = createSvcClient({ baseUrl: server.url, apiKey });
    server.inject('GET', '/v2/api/conversations', invalidRequest());
    const result = await svc.GET('/v2/api/conversations', {
      params: { query: { svc_number: '0415' } },
      requestId: 'trace-err',
    });
    const error = SvcApiError.fromResponse(result.response, result.error);
    expect(error).toBeInstanceOf(SvcApiError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('SvcApiError');
    expect({ ...error, message: error.message }).toEqual({
      name: 'SvcApiError',
      status: 400,
      type: 'validation_error',
      code: 'INVALID_REQUEST',
      message: 'Request validation failed',
      retryable: false,
      requestId: 'trace-err',
      param: 'svc_number',
      suggestion: 'Use E.164, e.g. +14155550123.',
      docUrl: 'https://docs.example.com/errors/INVALID_REQUEST',
      errors: [
        { field: 'svc_number', code: 'INVALID_PHONE_FORMAT', message: 'must be E.164' },
        { field: 'date_from', code: 'INVALID_DATE', message: 'must be a valid ISO 8601 date' },
      ],
      retryAfterSeconds: undefined,
    });
  });

  it('reads retryAfterSeconds and retryable from a 429', async () => {
    const svc = createSvcClient({ baseUrl: server.url, apiKey, maxRetries: 0 });
    server.inject('GET', '/v2/api/conversations', {
      kind: 'respond',
      ...errorBody(429, 'rate_limit_error', 'RATE_LIMIT_EXCEEDED', 'Slow down.', { retry_after_seconds: 2 }),
    });
    const error = await svc
      .GET('/v2/api/conversations')
      .then(unwrap)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SvcApiError);
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMIT_EXCEEDED', retryable: true, retryAfterSeconds: 2 });
  });

  it('makes sense of a body that is not the API’s dialect', () => {
    const response = new Response('<h1>Bad gateway</h1>', {
      status: 502,
      headers: { 'X-Request-Id': 'req_gateway00001' },
    });
    const error = SvcApiError.fromResponse(response, '<h1>Bad gateway</h1>');
    expect(error).toMatchObject({
      status: 502,
      code: undefined,
      type: undefined,
      retryable: true,
      requestId: 'req_gateway00001',
      errors: [],
    });
    expect(error.message).toBe('<h1>Bad gateway</h1>');
  });

  it('falls back on the catalogue for retryable when the body is silent', () => {
    const response = new Response(null, { status: 409 });
    const body = { error: { type: 'conflict_error', code: 'OTHER_TRANSACTION_IN_PROGRESS', message: 'Busy.' } };
    expect(SvcApiError.fromResponse(response, body).retryable).toBe(true);
    const unknownCode = { error: { type: 'conflict_error', code: 'NOT_IN_THE_CATALOGUE', message: '?' } };
    expect(SvcApiError.fromResponse(response, unknownCode)).toMatchObject({ code: undefined, retryable: false });
    expect(isErrorCode('THREAD_NOT_FOUND')).toBe(true);
    expect(isErrorCode('toString')).toBe(false);
  });

  it('unwrap returns the data of a success and throws SvcApiError for an error', async () => {
    const svc = createSvcClient({ baseUrl: server.url, apiKey });
    const list = unwrap(await svc.GET('/v2/api/conversations'));
    expect(list.data).toHaveLength(2);
    const missing = await svc.GET('/v2/api/threads/{id}', { params: { path: { id: 'cth-none' } } });
    expect(() => unwrap(missing)).toThrow(SvcApiError);
    expect(() => unwrap(missing)).toThrow(/No thread with id cth-none/);
  });

  it('throws SvcApiError from every method of a throwOnError client, and returns data otherwise', async () => {
    const svc = createSvcClient({ baseUrl: server.url, apiKey, throwOnError: true });
    const { data, requestId } = await svc.POST('/v2/api/threads', {
      body: { content: 'x', entity_type: 'CALL', entity_id: 'cll-1' },
    });
    expect(data.data.entity_id).toBe('cll-1');
    expect(requestId).toMatch(/^req_/);
    const error = await svc
      .GET('/v2/api/threads/{id}', { params: { path: { id: 'cth-none' } } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SvcApiError);
    expect(error).toMatchObject({ status: 404, code: 'THREAD_NOT_FOUND', type: 'not_found_error' });
    expect((error as SvcApiError).requestId).toMatch(/^req_/);
  });
});

describe('error bodies of any depth and size', () => {
  it('returns the typed error for a body nested 5 000 deep that echoes the key', async () => {
    // Written as text: JSON.stringify itself overflows the stack on such a value, JSON.parse does not.
    let nested = JSON.stringify(`echoed ${apiKey}`);
    for (let i = 0; i < 5_000; i++) nested = i % 2 ? `{"inner":${nested}}` : `[${nested}]`;
    const text = `{"error":{"type":"validation_error","code":"INVALID_REQUEST","message":"Deep.","retryable":false,"errors":[${nested}]}}`;
    const svc = createSvcClient({
      baseUrl: server.url,
      apiKey,
      maxRetries: 0,
      fetch: async () => new Response(text, { status: 400, headers: { 'Content-Type': 'application/json' } }),
    });
    const result = await svc.GET('/v2/api/conversations');
    expect(result.response.status).toBe(400);
    expect(SvcApiError.fromResponse(result.response, result.error)).toMatchObject({ code: 'INVALID_REQUEST' });
    // The key is scrubbed all the way down.
    let innermost: unknown = result.error?.error.errors;
    for (let i = 0; i < 5_001; i++)
      innermost = Array.isArray(innermost) ? innermost[0] : (innermost as { inner: unknown }).inner;
    expect(innermost).toBe('echoed [REDACTED]');
  });

  it(`reads an error body within ${MAX_ERROR_BODY_BYTES} bytes, and drops one over it`, async () => {
    const svc = createSvcClient({ baseUrl: server.url, apiKey });
    const fits = errorBody(400, 'validation_error', 'INVALID_REQUEST', 'x'.repeat(MAX_ERROR_BODY_BYTES - 1000));
    server.inject('GET', '/v2/api/conversations', { kind: 'respond', ...fits });
    const kept = await svc.GET('/v2/api/conversations');
    expect(kept.error?.error.code).toBe('INVALID_REQUEST');
    const over = errorBody(400, 'validation_error', 'INVALID_REQUEST', 'x'.repeat(MAX_ERROR_BODY_BYTES));
    server.inject('GET', '/v2/api/conversations', { kind: 'respond', ...over });
    const dropped = await svc.GET('/v2/api/conversations');
    expect(dropped.response.status).toBe(400);
    expect(dropped.error).toBe('');
    expect(SvcApiError.fromResponse(dropped.response, dropped.error)).toMatchObject({
      status: 400,
      message: 'HTTP 400',
      requestId: dropped.requestId,
    });
  });
});
