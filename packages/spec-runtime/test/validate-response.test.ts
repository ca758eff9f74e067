import { beforeAll, describe, expect, it } from 'vitest';
import { contract, op } from './support/contract.js';

type Example = { value: unknown };
type Media = { examples?: Record<string, Example> };

const rateHeaders = {
  'X-RateLimit-Limit': '20',
  'X-RateLimit-Remaining': '3',
  'X-RateLimit-Reset': '1',
  'Content-Type': 'application/json',
};

function followRef<T>(node: unknown): T {
  let current = node as { $ref?: string };
  while (current && typeof current.$ref === 'string') {
    current = current.$ref
      .slice(2)
      .split('/')
      .reduce<unknown>(
        (n, k) => (n as Record<string, unknown>)[k.replace(/~1/g, '/').replace(/~0/g, '~')],
        contract().bundle,
      ) as { $ref?: string };
  }
  return current as T;
}

/** Every response example of the contract with the problems found in it (none expected). */
function checkEveryExample(): Array<{ name: string; problems: string[] }> {
  const results: Array<{ name: string; problems: string[] }> = [];
  for (const operation of contract().operations) {
    for (const key of operation.statuses) {
      const response = followRef<{ content?: Record<string, Media> }>(
        (operation.raw.responses as Record<string, unknown>)[key],
      );
      const examples = response.content?.['application/json']?.examples ?? {};
      const status = /^\d+$/.test(key) ? Number(key) : Number(key[0]) * 100;
      for (const [name, example] of Object.entries(examples)) {
        const value = followRef<Example>(example).value as { error?: { request_id?: string } };
        const requestId = value?.error?.request_id ?? 'req_abcdefABCDEF';
        const problems = contract().validateResponse(
          operation,
          status,
          { ...rateHeaders, 'X-Request-Id': requestId },
          value,
        );
        results.push({ name: `${operation.operationId} ${key} ${name}`, problems });
      }
    }
  }
  return results;
}

describe('validateResponse', () => {
  // The first pass compiles a validator for every response of the contract: the heavy part,
  // done once here under the generous hook limit rather than inside a test's own limit.
  let examples: Array<{ name: string; problems: string[] }> = [];
  beforeAll(() => {
    examples = checkEveryExample();
  });

  it('accepts every response example of the contract, with the headers it documents', () => {
    for (const { name, problems } of examples) expect(problems, name).toEqual([]);
    expect(examples.length).toBeGreaterThan(100);
  });

  it('flags an undocumented status, a missing required header and a wrong body', () => {
    const headers = { ...rateHeaders, 'X-Request-Id': 'req_abcdefABCDEF' };
    expect(contract().validateResponse(op('listTags'), 404, headers, { error: { code: 'NOTE_NOT_FOUND' } })[0]).toMatch(
      /not documented/,
    );
    expect(
      contract().validateResponse(op('listTags'), 200, { 'X-Request-Id': 'req_abcdefABCDEF' }, { data: [] }),
    ).toEqual([
      'listTags 200: required header X-RateLimit-Limit is missing',
      'listTags 200: required header X-RateLimit-Remaining is missing',
      'listTags 200: required header X-RateLimit-Reset is missing',
    ]);
    expect(contract().validateResponse(op('getThread'), 200, headers, { data: { id: 'x' } })[0]).toMatch(
      /does not match the documented schema/,
    );
    expect(contract().validateResponse(op('deleteSummaryTemplate'), 204, headers, { data: 1 })[0]).toMatch(
      /documents no body/,
    );
    expect(contract().validateResponse(op('deleteSummaryTemplate'), 204, headers, undefined)).toEqual([]);
  });

  it('flags an error code the operation does not list, a wrong type and a request id mismatch', () => {
    const headers = { ...rateHeaders, 'X-Request-Id': 'req_abcdefABCDEF' };
    const error = (code: string, type: string, requestId = 'req_abcdefABCDEF') => ({
      error: { type, code, message: 'm', retryable: false, request_id: requestId },
    });
    expect(
      contract().validateResponse(op('getThread'), 404, headers, error('NOTE_NOT_FOUND', 'not_found_error')).join('\n'),
    ).toMatch(/NOTE_NOT_FOUND is not listed by getThread/);
    expect(
      contract()
        .validateResponse(op('getThread'), 404, headers, error('THREAD_NOT_FOUND', 'conflict_error'))
        .join('\n'),
    ).toMatch(/has type not_found_error/);
    expect(
      contract()
        .validateResponse(
          op('getThread'),
          404,
          headers,
          error('THREAD_NOT_FOUND', 'not_found_error', 'req_other0000000'),
        )
        .join('\n'),
    ).toMatch(/differs from X-Request-Id/);
  });

  it('accepts the API-wide codes where no operation matched, and nothing else', () => {
    const headers = { ...rateHeaders, 'X-Request-Id': 'req_abcdefABCDEF' };
    const body = contract().buildError('ENDPOINT_NOT_FOUND', { requestId: 'req_abcdefABCDEF' }).body;
    expect(contract().validateResponse(null, 404, headers, body)).toEqual([]);
    const notAllowed = contract().buildError('METHOD_NOT_ALLOWED', { requestId: 'req_abcdefABCDEF' }).body;
    expect(contract().validateResponse(null, 405, headers, notAllowed)).toEqual([]);
    expect(
      contract().validateResponse(
        null,
        404,
        headers,
        contract().buildError('NOTE_NOT_FOUND', { requestId: 'req_abcdefABCDEF' }).body,
      )[0],
    ).toMatch(/not an API-wide error/);
  });

  it('gives an operation no API-wide exception: it lists every status it answers', () => {
    const headers = { ...rateHeaders, 'X-Request-Id': 'req_abcdefABCDEF' };
    const body = contract().buildError('ENDPOINT_NOT_FOUND', { requestId: 'req_abcdefABCDEF' }).body;
    // getDeal lists 404 ENDPOINT_NOT_FOUND (an unknown deal has no code of its own); listTags has no 404.
    expect(contract().validateResponse(op('getDeal'), 404, headers, body)).toEqual([]);
    expect(contract().validateResponse(op('listTags'), 404, headers, body)).toEqual([
      'listTags 404: status 404 is not documented for listTags',
    ]);
    const notAllowed = contract().buildError('METHOD_NOT_ALLOWED', { requestId: 'req_abcdefABCDEF' }).body;
    expect(contract().validateResponse(op('listTags'), 405, headers, notAllowed)).toEqual([]);
  });
});

describe('checkResponse', () => {
  const headers = {
    'X-Request-Id': 'req_abcdefABCDEF',
    'X-RateLimit-Limit': '20',
    'X-RateLimit-Remaining': '19',
    'X-RateLimit-Reset': '1',
  };
  const op = (id: string) => contract().operationsById.get(id)!;
  it('gives each problem of validateResponse a kind', () => {
    const kinds = (status: number, h: Record<string, string>, body: unknown, id = 'getThread') =>
      contract()
        .checkResponse(op(id), status, h, body)
        .map((p) => p.kind);
    expect(kinds(200, { 'X-Request-Id': 'req_abcdefABCDEF' }, { data: [] }, 'listTags')).toEqual([
      'header',
      'header',
      'header',
    ]);
    expect(
      contract().checkResponse(op('listTags'), 200, { 'X-Request-Id': 'req_abcdefABCDEF' }, { data: [] })[0]?.header,
    ).toBe('X-RateLimit-Limit');
    expect(kinds(200, headers, { data: { id: 'x' } })).toEqual(['body']);
    expect(kinds(418, headers, { error: { code: 'NOTE_NOT_FOUND' } })).toEqual(['status']);
    expect(
      kinds(404, headers, {
        error: {
          type: 'not_found_error',
          code: 'NOTE_NOT_FOUND',
          message: 'm',
          retryable: false,
          request_id: 'req_abcdefABCDEF',
        },
      }),
    ).toContain('error-code');
    expect(
      kinds(404, headers, {
        error: {
          type: 'conflict_error',
          code: 'THREAD_NOT_FOUND',
          message: 'm',
          retryable: false,
          request_id: 'req_abcdefABCDEF',
        },
      }),
    ).toContain('error-type');
    expect(
      kinds(404, headers, {
        error: {
          type: 'not_found_error',
          code: 'THREAD_NOT_FOUND',
          message: 'm',
          retryable: false,
          request_id: 'req_000000000000',
        },
      }),
    ).toContain('request-id');
    for (const id of ['getThread', 'listTags']) {
      const o = op(id);
      const body = { data: [] };
      expect(
        contract()
          .checkResponse(o, 200, headers, body)
          .map((p) => p.message),
      ).toEqual(contract().validateResponse(o, 200, headers, body));
    }
  });
});
