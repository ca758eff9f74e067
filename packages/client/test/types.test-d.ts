import type { ConversationListEntry, CustomField, ErrorCode, OperationErrorCode, Thread } from '@svc/api-types';
import { describe, expectTypeOf, it } from 'vitest';
import { createSvcClient, type SvcApiError, type SvcClient, type SvcListPath, unwrap } from '../src/index.js';

const svc = createSvcClient({ baseUrl: 'http://localhost', apiKey: 'k' });
const strict = createSvcClient({ baseUrl: 'http://localhost', apiKey: 'k', throwOnError: true });

describe('client types', () => {
  it('type paths, parameters and bodies from the contract', () => {
    // @ts-expect-error not a path of the contract
    void svc.GET('/v2/api/nope');
    // @ts-expect-error the thread id is a required path parameter
    void svc.GET('/v2/api/threads/{id}');
    // @ts-expect-error a thread needs content, entity_type and entity_id
    void svc.POST('/v2/api/threads', { body: { content: 'x' } });
    // @ts-expect-error size is a number
    void svc.GET('/v2/api/conversations', { params: { query: { size: 'ten' } } });
    void svc.POST('/v2/api/threads', {
      body: { content: 'x', entity_type: 'CALL', entity_id: 'cll-1' },
      idempotencyKey: 'k-1',
      maxRetries: 0,
    });
  });

  it('type data and errors per operation', async () => {
    const result = await svc.GET('/v2/api/threads/{id}', {
      params: { path: { id: 'cth-1' } },
      timeoutMs: 1000,
      requestId: 'r',
    });
    expectTypeOf(result.requestId).toEqualTypeOf<string | undefined>();
    expectTypeOf(result.replayed).toEqualTypeOf<boolean>();
    if (result.error) {
      expectTypeOf(result.error.error.code).toEqualTypeOf<OperationErrorCode<'getThread'>>();
      expectTypeOf<'THREAD_NOT_FOUND'>().toExtend<typeof result.error.error.code>();
      expectTypeOf<'THREAD_ALREADY_EXISTS'>().not.toExtend<typeof result.error.error.code>();
    } else {
      expectTypeOf(result.data.data).toEqualTypeOf<Thread>();
    }
  });

  it('return only the success branch with throwOnError, and from unwrap', async () => {
    const result = await strict.GET('/v2/api/threads/{id}', { params: { path: { id: 'cth-1' } } });
    expectTypeOf(result.data.data).toEqualTypeOf<Thread>();
    expectTypeOf(result.error).toEqualTypeOf<undefined>();
    const data = unwrap(await svc.GET('/v2/api/threads/{id}', { params: { path: { id: 'cth-1' } } }));
    expectTypeOf(data.data).toEqualTypeOf<Thread>();
  });

  it('paginate exactly the list operations, typing their items', () => {
    expectTypeOf<'/v2/api/conversations'>().toExtend<SvcListPath>();
    expectTypeOf<'/v2/api/crm/attributes'>().toExtend<SvcListPath>();
    expectTypeOf<'/v2/api/threads/{id}'>().not.toExtend<SvcListPath>();
    expectTypeOf(svc.paginate('/v2/api/conversations')).toEqualTypeOf<
      AsyncGenerator<ConversationListEntry, void, undefined>
    >();
    expectTypeOf(svc.paginate('/v2/api/crm/attributes', { maxItems: 10 })).toEqualTypeOf<
      AsyncGenerator<CustomField, void, undefined>
    >();
    // @ts-expect-error a single resource is not a list
    void svc.paginate('/v2/api/threads/{id}', { params: { path: { id: 'cth-1' } } });
  });

  it('accept undefined for every optional option (exactOptionalPropertyTypes is on here)', async () => {
    const fromEnvironment: string | undefined = process.env.SVC_API_KEY;
    const maybeNumber: number | undefined = undefined;
    const client = createSvcClient({
      baseUrl: 'http://localhost',
      apiKey: fromEnvironment,
      timeoutMs: maybeNumber,
      rateLimit: undefined,
      logger: undefined,
    });
    expectTypeOf(client).toEqualTypeOf<SvcClient<false>>();
    const result = await client.GET('/v2/api/threads/{id}', {
      params: { path: { id: 'cth-1' } },
      requestId: fromEnvironment,
      maxRetries: maybeNumber,
    });
    // Not `never`: the error branch is still there to narrow on.
    if (result.error) expectTypeOf(result.error.error.code).toEqualTypeOf<OperationErrorCode<'getThread'>>();
    void client.paginate('/v2/api/conversations', { maxItems: maybeNumber, maxPages: maybeNumber });
    // @ts-expect-error the base URL is required and has no default
    createSvcClient({ baseUrl: fromEnvironment });
  });

  it('type SvcApiError.code as the catalogue', () => {
    expectTypeOf<SvcApiError['code']>().toEqualTypeOf<ErrorCode | undefined>();
    expectTypeOf<SvcApiError['retryAfterSeconds']>().toEqualTypeOf<number | undefined>();
  });
});
