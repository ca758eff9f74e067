import { beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../src/index.js';
import { bundle, contract, op } from './support/contract.js';

const headers = (requestId: string) => ({
  'X-Request-Id': requestId,
  'X-RateLimit-Limit': '20',
  'X-RateLimit-Remaining': '19',
  'X-RateLimit-Reset': '1',
  'Content-Type': 'application/json',
});

describe('buildError', () => {
  it('takes status, type, retryable and suggestion from the catalogue', () => {
    const { status, body } = contract().buildError('THREAD_ALREADY_EXISTS', {
      requestId: 'req_abcdefABCDEF',
      message: 'Item cll-1 already has a thread.',
      param: 'entity_id',
    });
    expect(status).toBe(409);
    expect(body.error).toEqual({
      type: 'conflict_error',
      code: 'THREAD_ALREADY_EXISTS',
      message: 'Item cll-1 already has a thread.',
      retryable: false,
      request_id: 'req_abcdefABCDEF',
      doc_url: 'https://docs.example.com/errors/THREAD_ALREADY_EXISTS',
      param: 'entity_id',
      suggestion: contract().catalogue.get('THREAD_ALREADY_EXISTS')!.suggestion,
    });
  });

  it('makes rate limits and 5xx retryable and carries retry_after_seconds', () => {
    expect(
      contract().buildError('RATE_LIMIT_EXCEEDED', { requestId: 'r', retryAfterSeconds: 1 }).body.error,
    ).toMatchObject({ retryable: true, retry_after_seconds: 1 });
    expect(contract().buildError('INTERNAL_SERVER_ERROR', { requestId: 'r' }).body.error.retryable).toBe(true);
    expect(contract().buildError('OTHER_TRANSACTION_IN_PROGRESS', { requestId: 'r' }).body.error.retryable).toBe(true);
    expect(contract().buildError('API_KEY_INVALID', { requestId: 'r' }).body.error.retryable).toBe(false);
  });

  it('lets the caller replace or drop the suggestion, and set doc_url base', () => {
    expect(
      contract().buildError('UNAUTHORIZED', { requestId: 'r', suggestion: null }).body.error.suggestion,
    ).toBeUndefined();
    expect(
      contract().buildError('UNAUTHORIZED', { requestId: 'r', suggestion: 'Do this.' }).body.error.suggestion,
    ).toBe('Do this.');
    expect(
      loadContract(bundle, { docUrlBase: 'http://localhost:4010/docs/errors#' }).buildError('UNAUTHORIZED', {
        requestId: 'r',
      }).body.error.doc_url,
    ).toBe('http://localhost:4010/docs/errors#UNAUTHORIZED');
  });

  it('refuses a code that is not in the catalogue', () => {
    expect(() => contract().buildError('NOPE', { requestId: 'r' })).toThrow(/not in the contract/);
  });

  // Every (operation, status, code) with the body built for it and the problems found in it.
  // Validating compiles a validator per error response: done once, under the generous hook limit.
  let built: Array<{ name: string; expectedStatus: number; status: number; problems: string[] }> = [];
  beforeAll(() => {
    built = [];
    for (const operation of contract().operations) {
      for (const [status, codes] of operation.codesByStatus) {
        for (const code of codes) {
          const extra =
            code === 'INVALID_REQUEST'
              ? { errors: [{ field: 'x', code: 'INVALID_REQUEST', message: 'x is wrong' }] }
              : code === 'RATE_LIMIT_EXCEEDED'
                ? { retryAfterSeconds: 1 }
                : {};
          const error = contract().buildError(code, { requestId: 'req_abcdefABCDEF', ...extra });
          const problems = contract().validateResponse(operation, status, headers('req_abcdefABCDEF'), error.body);
          built.push({
            name: `${operation.operationId} ${status} ${code}`,
            expectedStatus: status,
            status: error.status,
            problems,
          });
        }
      }
    }
  });

  it('builds bodies that validate against the operations that list them', () => {
    for (const { name, expectedStatus, status, problems } of built) {
      expect(status, name).toBe(expectedStatus);
      expect(problems, name).toEqual([]);
    }
    expect(built.length).toBeGreaterThan(100);
    expect(op('createThread')).toMatchObject({ method: 'POST', path: '/v2/api/threads' });
  });
});
