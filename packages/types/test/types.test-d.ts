import createClient from 'openapi-fetch';
import { describe, expectTypeOf, it } from 'vitest';
import type {
  ApiError,
  CallReceived,
  CreateThreadRequest,
  Deal,
  ErrorCode,
  OperationErrorCode,
  OperationErrorCodeFor,
  paths,
  Scope,
  Thread,
} from '../src/index.js';

describe('generated types', () => {
  it("pin a thread's entity_type to exactly the three kinds", () => {
    expectTypeOf<Thread['entity_type']>().toEqualTypeOf<'CALL' | 'TEXT_MESSAGE' | 'CONVERSATION_NOTE'>();
  });

  it('require content, entity_type and entity_id to create a thread', () => {
    expectTypeOf<CreateThreadRequest>().toHaveProperty('content');
    // @ts-expect-error content is required
    const missingContent: CreateThreadRequest = { entity_type: 'CALL', entity_id: 'cll-1' };
    void missingContent;
  });

  it('give a deal both field namings, each optional', () => {
    expectTypeOf<Deal>().toHaveProperty('amount');
    expectTypeOf<Deal>().toHaveProperty('value');
    expectTypeOf<Deal>().toHaveProperty('closed_at');
    expectTypeOf<Deal>().toHaveProperty('close_date');
  });

  it('make ErrorCode the catalogue, and nothing else', () => {
    expectTypeOf<'THREAD_ALREADY_EXISTS'>().toExtend<ErrorCode>();
    expectTypeOf<'INVALID_PHONE_FORMAT'>().toExtend<ErrorCode>();
    expectTypeOf<'NOT_A_REAL_CODE'>().not.toExtend<ErrorCode>();
    expectTypeOf<ApiError['code']>().toEqualTypeOf<ErrorCode>();
  });

  it('give each operation exactly its documented codes', () => {
    expectTypeOf<OperationErrorCodeFor<'createThread', 409>>().toEqualTypeOf<
      'THREAD_ALREADY_EXISTS' | 'IDEMPOTENCY_KEY_REUSE' | 'OTHER_TRANSACTION_IN_PROGRESS'
    >();
    expectTypeOf<'THREAD_NOT_FOUND'>().toExtend<OperationErrorCode<'getThread'>>();
    expectTypeOf<'THREAD_ALREADY_EXISTS'>().not.toExtend<OperationErrorCode<'getThread'>>();
  });

  it('know every scope and no other', () => {
    expectTypeOf<'THREADS_WRITE'>().toExtend<Scope>();
    expectTypeOf<'THREADS_DELETE'>().not.toExtend<Scope>();
  });

  it('type the CALL_RECEIVED payload', () => {
    expectTypeOf<CallReceived>().toHaveProperty('transcriptions');
    expectTypeOf<NonNullable<CallReceived['transcriptions']>[number]['source']>().toEqualTypeOf<'USER' | 'AGENT'>();
  });

  it('plug into openapi-fetch with typed paths, bodies and errors', () => {
    const client = createClient<paths>({ baseUrl: 'http://127.0.0.1' });
    expectTypeOf(client.GET).parameter(0).toExtend<keyof paths>();
    // @ts-expect-error not a documented path
    void (() => client.GET('/v2/api/nothing-here'));
    void (() =>
      // @ts-expect-error entity_type outside the enum
      client.POST('/v2/api/threads', { body: { entity_type: 'VOICEMAIL', entity_id: 'cll-1', content: 'x' } }));
  });
});
