import { describe, expect, it } from 'vitest';
import {
  bundle,
  errorNarrowing,
  type Json,
  operations,
  resolve,
  schemaPointer,
  validatorAt,
  WRITE_METHODS,
  webhookOperations,
} from './support/spec.js';

const label = (o: { method: string; path: string }) => `${o.method.toUpperCase()} ${o.path}`;
const accepts = (schema: string, value: unknown) => validatorAt(schemaPointer(schema))(value);
const acceptsError = (error: unknown) => accepts('ApiError', error);

// The oracle: every operation whose method and path the API description gives, and nothing else.
const DOCUMENTED_OPERATIONS = [
  'GET /v2/api/conversations/notes/{id}',
  'POST /v2/api/threads',
  'GET /v2/api/threads/{id}',
  'GET /v2/api/threads',
  'POST /v2/api/threads/{id}/comments',
  'GET /v2/api/crm/attributes',
  'PATCH /v2/api/crm/attributes/{key}',
  'PUT /v2/api/conversations/{contact_number}/action',
  'PATCH /v2/api/dialing-queues/current',
  'GET /v2/api/crm/deals/{id}',
  'DELETE /v2/api/summary_templates/{id}',
  'GET /v2/api/numbers/{number}/agent',
  'PATCH /v2/api/numbers/{number}/agent',
  'GET /v2/api/conversations',
  'POST /v2/api/conversations/items/search',
  'GET /v2/api/conversations/items/{id}',
  'POST /v2/api/conversations/items/batch',
  'POST /v2/api/conversations/items/{id}/tags',
  'DELETE /v2/api/conversations/items/{id}/tags/{tag}',
  'GET /v2/api/users',
  'GET /v2/api/users/{id}',
  'GET /v2/api/tags',
  'GET /v2/api/numbers',
  'GET /v2/api/conversations/{contact_number}/notes',
  'POST /v2/api/crm/people/search',
  'PUT /v2/api/crm/people/{id}',
];

describe('operations', () => {
  it('are exactly the 26 the description gives a method and path for', () => {
    expect(operations.map(label).sort()).toEqual([...DOCUMENTED_OPERATIONS].sort());
  });

  it('have unique camelCase operationIds', () => {
    const ids = operations.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-zA-Z0-9]*$/);
  });

  it.each(operations.map((o) => [label(o), o] as const))('%s names a declared scope', (_name, { op }) => {
    const scopes = Object.keys(bundle.components.securitySchemes.ApiKey['x-svc-scopes']);
    expect(op.security.length).toBeGreaterThan(0);
    for (const requirement of op.security) {
      expect(requirement.ApiKey.length).toBeGreaterThan(0);
      for (const scope of requirement.ApiKey) expect(scopes).toContain(scope);
    }
  });

  it.each(operations.map((o) => [label(o), o] as const))(
    '%s sends X-Request-Id and the rate-limit headers on every response',
    (_name, { op }) => {
      const params = (op.parameters ?? []).map(resolve).map((p: Json) => `${p.in}:${p.name}`);
      expect(params).toContain('header:X-Request-Id');
      for (const [status, response] of Object.entries<Json>(op.responses)) {
        const headers = Object.keys(resolve(response).headers ?? {});
        for (const name of ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']) {
          expect(headers, `${status} ${name}`).toContain(name);
        }
      }
    },
  );

  const writes = operations.filter((o) => WRITE_METHODS.has(o.method));
  it.each(writes.map((o) => [label(o), o] as const))(
    '%s takes an Idempotency-Key, echoes it, flags replays and documents key reuse',
    (_name, { op }) => {
      const params = (op.parameters ?? []).map(resolve).map((p: Json) => `${p.in}:${p.name}`);
      expect(params).toContain('header:Idempotency-Key');
      for (const [status, response] of Object.entries<Json>(op.responses)) {
        const headers = Object.keys(resolve(response).headers ?? {});
        expect(headers, status).toContain('Idempotency-Key');
        if (status.startsWith('2')) expect(headers, status).toContain('Idempotency-Replayed');
      }
      const conflict = resolve(op.responses['409']);
      const codes = errorNarrowing(conflict.content['application/json'].schema.properties.error).code.enum;
      expect(codes).toEqual(expect.arrayContaining(['IDEMPOTENCY_KEY_REUSE', 'OTHER_TRANSACTION_IN_PROGRESS']));
    },
  );

  // "Write endpoints (POST, PUT, DELETE) accept an optional Idempotency-Key": storing and replaying
  // are promised there; PATCH counts as a write for the rate limits only.
  it.each(writes.map((o) => [label(o), o] as const))(
    '%s says whether replay is promised exactly as the description does',
    (_name, { method, op }) => {
      const key = (op.parameters ?? []).map(resolve).find((p: Json) => p.name === 'Idempotency-Key');
      const unpromised = key?.['x-svc-inferred']?.replay;
      if (method === 'patch') expect(unpromised).toMatch(/not promised/);
      else expect(unpromised).toBeUndefined();
    },
  );

  it('all live under /v2/api', () => {
    for (const path of Object.keys(bundle.paths)) expect(path.startsWith('/v2/api/')).toBe(true);
  });
});

describe('conventions as schemas', () => {
  it('timestamps accept both zone forms and reject other shapes', () => {
    for (const ok of ['2026-03-01T10:15:00Z', '2026-03-01T10:15:00', '2026-03-01T10:15:00.250+02:00']) {
      expect(accepts('Timestamp', ok), ok).toBe(true);
    }
    for (const bad of ['2026-03-01', '2026-13-01T10:15:00Z', '01/03/2026 10:15', '2026-03-01 10:15:00']) {
      expect(accepts('Timestamp', bad), bad).toBe(false);
    }
  });

  it('phone numbers are E.164', () => {
    expect(accepts('PhoneNumber', '+14155550123')).toBe(true);
    for (const bad of ['4155550123', '+1 415 555 0123', '+1-415-555-0123', '+04155550123', '+1415555012345678']) {
      expect(accepts('PhoneNumber', bad), bad).toBe(false);
    }
  });

  it('request ids are req_ + 12 alphanumerics when generated, the client value otherwise', () => {
    expect(accepts('GeneratedRequestId', 'req_8fK2mQ9xZ4aB')).toBe(true);
    for (const bad of ['req_8fK2mQ9xZ4a', 'req_8fK2mQ9xZ4aBc', 'req-8fK2mQ9xZ4aB', 'req_8fK2mQ9x_4aB']) {
      expect(accepts('GeneratedRequestId', bad), bad).toBe(false);
    }
    expect(accepts('RequestId', 'my-trace-0042')).toBe(true);
    expect(accepts('RequestId', '')).toBe(false);
  });

  it('ids carry their prefixes', () => {
    expect(accepts('NoteId', 'not-7Hq2xL9a')).toBe(true);
    expect(accepts('NoteId', 'usr-7Hq2xL9a')).toBe(false);
    expect(accepts('ConversationItemId', 'msg-2Rf8nQ5v')).toBe(true);
    expect(accepts('ConversationItemId', 'not-2Rf8nQ5v')).toBe(false);
    expect(accepts('ThreadEntityId', 'not-2Rf8nQ5v')).toBe(true);
  });

  it('note, thread and comment content is 1 to 4,000 characters and not blank', () => {
    expect(accepts('NoteContent', 'x')).toBe(true);
    expect(accepts('NoteContent', 'x'.repeat(4000))).toBe(true);
    for (const bad of ['', '   \n\t', 'x'.repeat(4001)]) expect(accepts('NoteContent', bad)).toBe(false);
  });

  it('a thread is opened only on the three kinds of item', () => {
    const body = { entity_type: 'CALL', entity_id: 'cll-9Jd3kW2p', content: 'Call back tomorrow' };
    expect(accepts('CreateThreadRequest', body)).toBe(true);
    expect(accepts('CreateThreadRequest', { ...body, entity_type: 'VOICEMAIL' })).toBe(false);
    expect(accepts('CreateThreadRequest', { entity_type: 'CALL', entity_id: 'cll-9Jd3kW2p' })).toBe(false);
  });

  it('the error body enforces errors[] for INVALID_REQUEST and retry data for rate limits', () => {
    const base = {
      type: 'validation_error',
      code: 'INVALID_REQUEST',
      message: 'Request validation failed',
      retryable: false,
      request_id: 'req_8fK2mQ9xZ4aB',
    };
    expect(acceptsError(base)).toBe(false);
    expect(
      acceptsError({
        ...base,
        errors: [{ field: 'size', code: 'INVALID_PAGE_SIZE', message: 'size must be 1 to 100' }],
      }),
    ).toBe(true);
    const limited = {
      type: 'rate_limit_error',
      code: 'RATE_LIMIT_EXCEEDED',
      message: 'Slow down',
      retryable: true,
      request_id: 'req_8fK2mQ9xZ4aB',
    };
    expect(acceptsError(limited)).toBe(false);
    expect(acceptsError({ ...limited, retry_after_seconds: 1 })).toBe(true);
    expect(acceptsError({ ...limited, retry_after_seconds: 1, retryable: false })).toBe(false);
    expect(acceptsError({ ...base, code: 'NOT_A_REAL_CODE', errors: [] })).toBe(false);
  });

  it('page is at least 1 and size is 1 to 100', () => {
    const page = resolve(bundle.components.parameters.PageParameter).schema;
    const size = resolve(bundle.components.parameters.SizeParameter).schema;
    expect([page.minimum, size.minimum, size.maximum]).toEqual([1, 1, 100]);
  });
});

describe('honesty markers', () => {
  const text = JSON.stringify(bundle);

  it('mark every contradiction the description contains', () => {
    // Each marker names both sides of its contradiction.
    expect(bundle.components.schemas.Deal['x-svc-ambiguity']).toMatch(/amount[\s\S]*value/);
    expect(bundle.components.schemas.ConversationListPagination['x-svc-ambiguity']).toContain('total_pages');
    const action = operations.find((o) => o.path.endsWith('/action'))!.op;
    expect(action['x-svc-ambiguity']).toMatch(/CONVERSATIONS_WRITE[\s\S]*CONVERSATIONS_READ/);
    expect(action.security.flatMap((r: Json) => r.ApiKey).sort()).toEqual([
      'CONVERSATIONS_READ',
      'CONVERSATIONS_WRITE',
    ]);
  });

  it('list the operations named without a method and path in one place', () => {
    const unspecified: Json[] = bundle.info['x-svc-unspecified-operations'];
    const names = unspecified.map((entry) => entry.name);
    for (const name of [
      'Send SMS',
      'Send bulk SMS',
      'Webhook management',
      'Set the receptionist prompt',
      'List voices',
    ]) {
      expect(names).toContain(name);
    }
    for (const entry of unspecified) expect(entry.unspecified.length, entry.name).toBeGreaterThan(0);
  });

  it('are used wherever the description leaves things open', () => {
    expect(text.match(/"x-svc-unspecified"/g)!.length).toBeGreaterThan(30);
    expect(text.match(/"x-svc-inferred"/g)!.length).toBeGreaterThan(5);
  });

  it('the deal accepts either field naming but not a mix missing both', () => {
    const common = {
      id: 'dea-5Ys3bM8k',
      name: 'Annual plan',
      status: 'NEGOTIATION',
      currency: 'USD',
      company: null,
      created_at: '2026-03-01T10:15:00Z',
      updated_at: '2026-03-01T10:15:00Z',
    };
    expect(accepts('Deal', { ...common, amount: 1200, closed_at: null })).toBe(true);
    expect(accepts('Deal', { ...common, value: 1200, close_date: null, person: null })).toBe(true);
    expect(accepts('Deal', common)).toBe(false);
  });
});

describe('webhooks', () => {
  it('describe CALL_RECEIVED as a { topic, body } POST', () => {
    expect(webhookOperations.map(label)).toEqual(['POST CALL_RECEIVED']);
    const body = resolve(webhookOperations[0]!.op.requestBody).content['application/json'].schema;
    const event = resolve(body);
    expect(resolve(event.properties.topic).const).toBe('CALL_RECEIVED');
    expect(event.required).toEqual(expect.arrayContaining(['topic', 'body']));
  });
});
