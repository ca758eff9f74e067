import { describe, expect, it } from 'vitest';
import { loadContract } from '../src/index.js';
import { bundle, contract, op } from './support/contract.js';

describe('loadContract', () => {
  it('reads one operation per documented path and method', () => {
    const paths = bundle.paths as Record<string, Record<string, unknown>>;
    const expected = Object.values(paths).flatMap((item) => Object.keys(item).filter((k) => k !== 'parameters'));
    expect(contract().operations).toHaveLength(expected.length);
    for (const operation of contract().operations) expect(operation.operationId).toMatch(/^[a-z][A-Za-z]+$/);
  });

  it('merges path-level parameters into each operation', () => {
    expect(op('getConversationItem').parameters.map((p) => p.name)).toEqual([
      'id',
      'extend',
      'template_key',
      'X-Request-Id',
    ]);
    const id = op('getUser').parameters.find((p) => p.name === 'id');
    expect(id?.errorCode).toBe('MEMBER_NOT_FOUND');
  });

  it('keeps security alternatives: any one requirement suffices', () => {
    expect(op('applyConversationAction').security).toEqual([['CONVERSATIONS_WRITE'], ['CONVERSATIONS_READ']]);
    expect(op('getThread').security).toEqual([['THREADS_READ']]);
  });

  it('classes operations as reads or writes by method, from x-svc-limits', () => {
    expect(op('listConversations').class).toBe('read');
    expect(op('batchGetConversationItems').class).toBe('write');
    expect(op('deleteSummaryTemplate').class).toBe('write');
  });

  it('lists, per status, exactly the codes each operation documents', () => {
    expect([...op('createThread').codesByStatus.get(409)!]).toEqual([
      'THREAD_ALREADY_EXISTS',
      'IDEMPOTENCY_KEY_REUSE',
      'OTHER_TRANSACTION_IN_PROGRESS',
    ]);
    expect([...op('getThread').codesByStatus.get(404)!]).toEqual(['THREAD_NOT_FOUND']);
    expect([...op('getDeal').codesByStatus.get(404)!]).toEqual(['ENDPOINT_NOT_FOUND']);
    expect(op('listTags').codesByStatus.has(404)).toBe(false);
    expect(op('createThread').statuses).toEqual(expect.arrayContaining(['200', '201']));
  });

  it('reads the catalogue with status, type, suggestion and retryable', () => {
    const { catalogue } = contract();
    expect(catalogue.get('THREAD_ALREADY_EXISTS')).toMatchObject({
      status: 409,
      type: 'conflict_error',
      apiWide: false,
    });
    expect(catalogue.get('THREAD_ALREADY_EXISTS')?.suggestion).toMatch(/GET \/v2\/api\/threads/);
    expect(catalogue.get('RATE_LIMIT_EXCEEDED')).toMatchObject({ status: 429, retryable: true });
    expect(catalogue.get('ENDPOINT_NOT_FOUND')?.apiWide).toBe(true);
    expect(catalogue.get('METHOD_NOT_ALLOWED')).toMatchObject({ status: 405, apiWide: true });
    expect(contract().statusesOfType.get('validation_error')).toEqual([400, 405, 415]);
  });

  it('reads what an error field must say (x-svc-detail-rules), and refuses a malformed rule', () => {
    const { catalogue } = contract();
    expect(catalogue.get('API_KEY_INSUFFICIENT_SCOPE')?.detailRules).toEqual([
      { field: 'message', names: 'required-scope', says: 'The message names the missing scope.' },
    ]);
    expect(catalogue.get('INVALID_PHONE_FORMAT')?.detailRules).toMatchObject([
      { field: 'suggestion', contains: 'E.164' },
    ]);
    expect(catalogue.get('THREAD_NOT_FOUND')?.detailRules).toMatchObject([
      { field: 'message', names: 'failing-value' },
    ]);
    expect(catalogue.get('TEAM_NOT_FOUND')?.detailRules).toEqual([]);
    const broken = structuredClone(bundle) as {
      components: { schemas: { ErrorCode: { 'x-svc-codes': Record<string, Record<string, unknown>> } } };
    };
    const codes = broken.components.schemas.ErrorCode['x-svc-codes'];
    (codes.THREAD_NOT_FOUND as Record<string, unknown>)['x-svc-detail-rules'] = [
      { field: 'message', names: 'required-scope', contains: 'both', says: 'two kinds at once' },
    ];
    expect(() => loadContract(broken)).toThrow(/THREAD_NOT_FOUND: x-svc-detail-rules\[0\] needs field/);
  });

  it('reads limits and scopes', () => {
    expect(contract().limits).toMatchObject({
      readRequestsPerSecond: 20,
      writeRequestsPerSecond: 5,
      idempotencyTtlSeconds: 3600,
    });
    expect(contract().limits.writeMethods).toEqual(['POST', 'PUT', 'PATCH', 'DELETE']);
    expect(Object.keys(contract().scopes)).toHaveLength(20);
    expect(contract().scopes.THREADS_WRITE).toBe('Create threads');
  });

  it('refuses something that is not a bundle', () => {
    expect(() => loadContract({})).toThrow(/OpenAPI bundle/);
  });

  it('precompiles every request validator without error', () => {
    expect(() => contract().precompile()).not.toThrow();
  });
});

describe('resolve', () => {
  it('follows $refs to reach a schema and its extensions', () => {
    const body = op('updateReceptionist').requestBody!;
    const schema = contract().resolve(body.schemaPointer) as { 'x-svc-merge-rules': { replaced: string[] } };
    expect(schema['x-svc-merge-rules'].replaced).toEqual([
      'capabilities',
      'business_hours',
      'transfer_rules',
      'scheduling.calendars',
    ]);
    expect(contract().resolve('#/nope')).toBeUndefined();
  });
});
