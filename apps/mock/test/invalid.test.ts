// Invalid requests, derived from the contract for every operation, answered with the documented
// code: the code the description names for that rule where there is one (checked by name below),
// and in every case the same error spec-runtime chooses for the same request, i.e. what the
// sandbox answers. The harness also checks that none of these is a Prism problem+json, a 422 or
// a 5xx, and that each conforms to the contract.

import type { Operation } from '@svc/spec-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledContract } from '../src/index.js';
import { Harness } from './support/harness.js';
import { expectedError, sampleBody, sampleValue, urlFor } from './support/samples.js';
import { nodesAt } from './support/schema-nodes.js';

const contract = bundledContract();
let harness: Harness;

beforeAll(async () => {
  harness = await Harness.start();
});
afterAll(() => harness.close());

type Json = Record<string, any>;

interface Case {
  name: string;
  op: Operation;
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: Json;
}

/** The top-level properties of an operation's request body, each with its resolved nodes. */
function bodyProperties(op: Operation): Map<string, Json[]> {
  const properties = new Map<string, Json[]>();
  if (!op.requestBody) return properties;
  for (const node of nodesAt(contract, op.requestBody.schemaPointer)) {
    if (typeof node.properties !== 'object' || node.properties === null) continue;
    for (const name of Object.keys(node.properties))
      properties.set(name, nodesAt(contract, op.requestBody.schemaPointer, name));
  }
  return properties;
}

function requiredOf(op: Operation): string[] {
  if (!op.requestBody) return [];
  return [
    ...new Set(
      nodesAt(contract, op.requestBody.schemaPointer).flatMap((n) =>
        Array.isArray(n.required) ? (n.required as string[]) : [],
      ),
    ),
  ];
}

const has = (nodes: Json[], keyword: string) => nodes.find((n) => n[keyword] !== undefined)?.[keyword];

function casesFor(op: Operation): Case[] {
  const cases: Case[] = [];
  const body = sampleBody(contract, op);
  for (const param of op.parameters) {
    if (param.in === 'path') {
      const phone = sampleValue(contract, param).startsWith('+');
      cases.push({ name: `bad path ${param.name}`, op, params: { [param.name]: phone ? '415-555-0123' : 'x' } });
    }
    if (param.in === 'query') {
      if (param.name === 'page') cases.push({ name: 'page=0', op, query: { page: '0' } });
      if (param.name === 'size') {
        cases.push({ name: 'size=101', op, query: { size: '101' } }, { name: 'size=abc', op, query: { size: 'abc' } });
        if (op.parameters.some((p) => p.name === 'page'))
          cases.push({ name: 'page=0&size=101', op, query: { page: '0', size: '101' } });
      }
      const nodes = nodesAt(contract, param.schemaPointer);
      if (has(nodes, 'enum'))
        cases.push({ name: `${param.name} outside its enum`, op, query: { [param.name]: 'NOT_A_VALUE' } });
      if (has(nodes, 'pattern') && sampleValue(contract, param).startsWith('+'))
        cases.push({ name: `${param.name} not E.164`, op, query: { [param.name]: '555 0123' } });
    }
  }
  if (body) {
    for (const [name, nodes] of bodyProperties(op)) {
      if (has(nodes, 'enum'))
        cases.push({ name: `body ${name} outside its enum`, op, body: { ...body, [name]: 'NOT_A_VALUE' } });
      const maxLength = has(nodes, 'maxLength');
      if (typeof maxLength === 'number')
        cases.push({
          name: `body ${name} over ${maxLength} characters`,
          op,
          body: { ...body, [name]: 'x'.repeat(maxLength + 1) },
        });
      const minLength = has(nodes, 'minLength');
      if (typeof minLength === 'number' && minLength > 0)
        cases.push({ name: `body ${name} empty`, op, body: { ...body, [name]: '' } });
      const maxItems = has(nodes, 'maxItems');
      if (typeof maxItems === 'number' && Array.isArray(body[name])) {
        const item = body[name][0];
        cases.push({
          name: `body ${name} over ${maxItems} items`,
          op,
          body: { ...body, [name]: Array.from({ length: maxItems + 1 }, () => item) },
        });
      }
      const minItems = has(nodes, 'minItems');
      if (typeof minItems === 'number' && minItems > 0)
        cases.push({ name: `body ${name} with no items`, op, body: { ...body, [name]: [] } });
    }
    for (const name of bodyProperties(op).keys()) {
      cases.push({ name: `body ${name} of the wrong type (number)`, op, body: { ...body, [name]: 12345 } });
      cases.push({ name: `body ${name} of the wrong type (object)`, op, body: { ...body, [name]: { nested: true } } });
      cases.push({ name: `body ${name} null`, op, body: { ...body, [name]: null } });
    }
    cases.push({ name: 'body with an unknown field', op, body: { ...body, not_a_field: 1 } });
    for (const name of requiredOf(op)) {
      if (!(name in body)) continue;
      const { [name]: _, ...rest } = body;
      cases.push({ name: `body without required ${name}`, op, body: rest });
    }
  }
  return cases;
}

const allCases = contract.operations.flatMap(casesFor);

describe('invalid inputs derived from the contract', () => {
  it('derives cases for every kind the brief names, nearly all of them invalid', () => {
    const names = allCases.map((c) => c.name).join('\n');
    // Only mutations the contract accepts (a path parameter without a pattern, a nullable field)
    // are expected to succeed.
    const accepted = allCases
      .filter((c) => expectedError(contract, c.op, c) === null)
      .map((c) => `${c.op.operationId}: ${c.name}`);
    expect(accepted.length, accepted.join('\n')).toBeLessThan(allCases.length / 5);
    for (const kind of [
      'bad path',
      'page=0',
      'size=101',
      'outside its enum',
      'without required',
      'characters',
      'items',
      'not E.164',
    ])
      expect(names).toContain(kind);
  });

  it.each(allCases.map((c) => [`${c.op.operationId}: ${c.name}`, c] as const))('%s', async (_, c) => {
    const expected = expectedError(contract, c.op, c);
    // A mutation the contract accepts (a path parameter without a pattern) is simply served.
    const sent = await harness.send(
      c.op.method,
      urlFor(contract, c.op, { ...(c.params ? { params: c.params } : {}), ...(c.query ? { query: c.query } : {}) }),
      {
        ...(c.op.requestBody ? { body: c.body ?? sampleBody(contract, c.op) } : {}),
      },
    );
    if (expected === null) {
      expect(sent.status).toBeLessThan(300);
      return;
    }
    expect({ status: sent.status, code: sent.body.error.code }).toEqual(expected);
    expect(sent.body.error.message).not.toMatch(/^Request (body|query|path|header)/);
  });
});

describe('the rules the description names get their own code', () => {
  const op = (id: string) => contract.operationsById.get(id)!;
  const send = (
    id: string,
    options: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown } = {},
  ) =>
    harness.send(
      op(id).method,
      urlFor(contract, op(id), options),
      op(id).requestBody ? { body: options.body ?? sampleBody(contract, op(id)) } : {},
    );

  it.each([
    [
      'listConversationNotes',
      { params: { contact_number: '415-555-0123' } },
      400,
      'INVALID_PHONE_FORMAT',
      'contact_number',
    ],
    ['getReceptionist', { params: { number: '14155550123' } }, 400, 'INVALID_PHONE_FORMAT', 'number'],
    ['listConversations', { query: { svc_number: '+1 415 555 0100' } }, 400, 'INVALID_PHONE_FORMAT', 'svc_number'],
    ['listConversations', { query: { page: '0' } }, 400, 'INVALID_PAGE_SIZE', 'page'],
    ['listCustomFields', { query: { size: '101' } }, 400, 'INVALID_PAGE_SIZE', 'size'],
    ['applyConversationAction', { body: { action: 'DELETE' } }, 400, 'INVALID_ACTION', 'action'],
    ['getConversationItem', { query: { extend: 'summary' } }, 400, 'UNSUPPORTED_EXTEND_VALUE', 'extend'],
    ['getConversationItem', { params: { id: 'not-7Hq2xL9a' } }, 400, 'INVALID_ITEM_ID', 'id'],
    ['findThread', { query: { entity_type: 'EMAIL' } }, 400, 'INVALID_THREAD_ENTITY_TYPE', 'entity_type'],
    ['addThreadComment', { body: { content: '' } }, 400, 'EMPTY_NOTE_CONTENT', 'content'],
    ['addThreadComment', { body: { content: 'x'.repeat(4001) } }, 400, 'NOTE_CONTENT_TOO_LONG', 'content'],
    ['addConversationItemTags', { body: {} }, 400, 'TAGS_REQUIRED', 'tags'],
    ['addConversationItemTags', { body: { tags: [] } }, 400, 'TAGS_REQUIRED', 'tags'],
    [
      'batchGetConversationItems',
      { body: { ids: Array.from({ length: 101 }, (_, i) => `cll-${i}`) } },
      400,
      'BATCH_TOO_LARGE',
      'ids',
    ],
    ['batchGetConversationItems', { body: { ids: ['not-7Hq2xL9a'] } }, 400, 'INVALID_ITEM_ID', 'ids[0]'],
    ['updateReceptionist', { body: { status: 'ACTIVE' } }, 400, 'UNKNOWN_FIELD', 'status'],
    ['updateCustomField', { body: { label: 'x'.repeat(256) } }, 400, 'ATTRIBUTE_LABEL_INVALID', 'label'],
    ['getThread', { params: { id: 'thr-1' } }, 404, 'THREAD_NOT_FOUND', 'id'],
    ['getConversationNote', { params: { id: 'cll-1' } }, 404, 'NOTE_NOT_FOUND', 'id'],
    ['getUser', { params: { id: 'x' } }, 404, 'MEMBER_NOT_FOUND', 'id'],
    // Validated by spec-runtime, as in the sandbox: entity_type is missing and the empty entity_id
    // fails its pattern, two fields, so INVALID_REQUEST (Prism alone read '' as missing).
    ['findThread', { query: { entity_id: '' } }, 400, 'INVALID_REQUEST', undefined],
  ] as const)('%s %j -> %i %s', async (id, options, status, code, param) => {
    const sent = await send(id, options as never);
    expect(sent.status).toBe(status);
    expect(sent.body.error.code).toBe(code);
    if (param !== undefined) expect(sent.body.error.param).toBe(param);
  });

  it('several violations give INVALID_REQUEST with errors[] naming each field and its code', async () => {
    const sent = await send('listConversations', { query: { page: '0', size: '101', svc_number: '555' } });
    expect(sent.status).toBe(400);
    expect(sent.body.error).toMatchObject({ code: 'INVALID_REQUEST', message: 'Request validation failed' });
    expect(sent.body.error.errors.map((e: Json) => [e.field, e.code])).toEqual([
      ['page', 'INVALID_PAGE_SIZE'],
      ['size', 'INVALID_PAGE_SIZE'],
      ['svc_number', 'INVALID_PHONE_FORMAT'],
    ]);
    expect(sent.body.error.errors[1].message).toBe('size must be <= 100; got 101');
  });

  it('a missing required query parameter is MISSING_PARAMETER', async () => {
    const sent = await harness.send('GET', '/v2/api/threads?entity_type=CALL');
    expect(sent.body.error).toMatchObject({ code: 'MISSING_PARAMETER', param: 'entity_id' });
  });

  it('messages quote the failing value', async () => {
    const sent = await send('applyConversationAction', { body: { action: 'DELETE' } });
    expect(sent.body.error.message).toContain('"DELETE"');
  });
});

describe('bodies, routes and methods', () => {
  const withBody = contract.operations.filter((op) => op.requestBody);

  it.each(withBody.map((op) => [op.operationId, op] as const))(
    '%s: malformed JSON, other content types and non-object bodies',
    async (_, op) => {
      const url = urlFor(contract, op);
      const malformed = await harness.send(op.method, url, { rawBody: '{"a":' });
      expect([malformed.status, malformed.body.error.code]).toEqual([400, 'INVALID_REQUEST_BODY']);
      const text = await harness.send(op.method, url, { rawBody: 'hello', contentType: 'text/plain' });
      expect([text.status, text.body.error.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
      const form = await harness.send(op.method, url, {
        rawBody: 'a=1',
        contentType: 'application/x-www-form-urlencoded',
      });
      expect([form.status, form.body.error.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
      const array = await harness.send(op.method, url, { rawBody: '[1,2]' });
      expect([array.status, array.body.error.code]).toEqual([400, 'INVALID_REQUEST_BODY']);
      const empty = await harness.send(op.method, url, { rawBody: '' });
      expect([empty.status, empty.body.error.code]).toEqual([400, 'INVALID_REQUEST_BODY']);
      const charset = await harness.send(op.method, url, {
        rawBody: JSON.stringify(sampleBody(contract, op)),
        contentType: 'application/json; charset=utf-8',
      });
      expect(charset.status).toBeLessThan(300);
    },
  );

  it.each([
    '/v2/api/nope',
    '/v2/api/threads/cth-1/nope',
    '/v1/api/threads',
    '/',
    '/v2/api/conversations/%E0%A4%A/notes',
  ])('unknown path %s is 404 ENDPOINT_NOT_FOUND', async (path) => {
    const sent = await harness.send('GET', path);
    expect([sent.status, sent.body.error.code]).toEqual([404, 'ENDPOINT_NOT_FOUND']);
  });

  const paths = [...new Set(contract.operations.map((op) => op.path))];
  it.each(paths)('a method %s does not document is 405 METHOD_NOT_ALLOWED with Allow', async (path) => {
    const documented = contract.operations.filter((op) => op.path === path).map((op) => op.method);
    const method = ['DELETE', 'PATCH', 'PUT', 'POST', 'GET'].find((m) => !documented.includes(m))!;
    const op = contract.operations.find((o) => o.path === path)!;
    const sent = await harness.send(method, pathFromTemplate(op));
    expect([sent.status, sent.body.error.code]).toEqual([405, 'METHOD_NOT_ALLOWED']);
    // HEAD is served wherever GET is (RFC 9110 9.3.2), so Allow lists it there.
    const served = documented.includes('GET') ? [...documented, 'HEAD'] : documented;
    expect(sent.headers.get('allow')?.split(', ').sort()).toEqual(served.sort());
  });

  function pathFromTemplate(op: Operation): string {
    return urlFor(contract, op).split('?')[0] as string;
  }
});
