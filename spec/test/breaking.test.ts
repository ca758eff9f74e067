// The breaking-change gate (scripts/breaking/, scripts/check-breaking.mjs): for each rule, a tiny
// base contract and a mutated head that must give exactly that rule's finding at one location;
// additions and identical contracts that must give none; the major-version escape; the CLI's exit
// codes; and the real bundle against the committed baseline.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareContracts, RULES } from '../scripts/breaking/index.mjs';
import { distDir, type Json, specDir } from './support/spec.js';

const json = 'application/json';
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const body = (schema: Json) => ({ content: { [json]: { schema } } });
const errorBody = (type: string, codes: string[]) =>
  body({
    allOf: [
      ref('ErrorResponse'),
      {
        type: 'object',
        properties: { error: { type: 'object', properties: { type: { const: type }, code: { enum: codes } } } },
      },
    ],
  });

/** The base: two paths, four operations, a webhook, a catalogue, shared and recursive schemas. */
const BASE: Json = {
  openapi: '3.1.0',
  info: { title: 'Tiny', version: '1.2.0' },
  security: [{ ApiKey: ['ITEMS_READ'] }],
  paths: {
    '/v2/api/items': {
      get: {
        parameters: [
          { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1 } },
          { name: 'status', in: 'query', schema: { type: 'string', enum: ['OPEN', 'CLOSED'] } },
          { $ref: '#/components/parameters/RequestId' },
        ],
        responses: {
          '200': {
            description: 'A page',
            headers: { 'X-Request-Id': { schema: { type: 'string' } } },
            ...body(ref('ItemList')),
          },
          '401': { $ref: '#/components/responses/Unauthorized' },
        },
      },
      post: {
        security: [{ ApiKey: ['ITEMS_WRITE'] }],
        requestBody: { required: true, ...body(ref('CreateItem')) },
        responses: {
          '201': {
            description: 'Created',
            ...body({
              type: 'object',
              required: ['data'],
              properties: { data: { type: 'object', properties: { id: { type: 'string' } } } },
            }),
          },
          '400': { description: 'Invalid', ...errorBody('validation_error', ['INVALID_REQUEST', 'ITEM_NAME_INVALID']) },
          '401': { $ref: '#/components/responses/Unauthorized' },
        },
      },
    },
    '/v2/api/items/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: {
        responses: {
          '200': {
            description: 'The item',
            ...body({ type: 'object', required: ['data'], properties: { data: ref('Item') } }),
          },
          '404': { description: 'Not found', ...errorBody('not_found_error', ['ITEM_NOT_FOUND']) },
        },
      },
      patch: {
        parameters: [{ name: 'If-Match', in: 'header', schema: { type: 'string' } }],
        requestBody: body({ type: 'object', properties: { name: { type: 'string' } } }),
        responses: { '200': { description: 'Updated', ...body({ type: 'object' }) } },
      },
    },
  },
  webhooks: {
    ITEM_CREATED: {
      post: {
        requestBody: body({
          type: 'object',
          required: ['topic', 'item_id'],
          properties: { topic: { const: 'ITEM_CREATED' }, item_id: { type: 'string' } },
        }),
        responses: { '200': { description: 'Received' } },
      },
    },
  },
  components: {
    securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'Authorization' } },
    parameters: { RequestId: { name: 'X-Request-Id', in: 'header', schema: { type: 'string', maxLength: 64 } } },
    responses: { Unauthorized: { description: 'Bad key', ...errorBody('authentication_error', ['API_KEY_INVALID']) } },
    schemas: {
      ErrorCode: {
        type: 'string',
        oneOf: [
          { const: 'API_KEY_INVALID', 'x-svc-status': 401, 'x-svc-error-type': 'authentication_error' },
          { const: 'INVALID_REQUEST', 'x-svc-status': 400, 'x-svc-error-type': 'validation_error' },
          { const: 'ITEM_NAME_INVALID', 'x-svc-status': 400, 'x-svc-error-type': 'validation_error' },
          { const: 'ITEM_NOT_FOUND', 'x-svc-status': 404, 'x-svc-error-type': 'not_found_error' },
          { const: 'ITEM_LOCKED', 'x-svc-status': 409, 'x-svc-error-type': 'conflict_error' },
        ],
      },
      ApiError: {
        type: 'object',
        required: ['type', 'code', 'message'],
        properties: {
          type: { type: 'string' },
          code: ref('ErrorCode'),
          message: { type: 'string' },
          request_id: { type: 'string' },
        },
      },
      ErrorResponse: { type: 'object', required: ['error'], properties: { error: ref('ApiError') } },
      Kind: { type: 'string', enum: ['BOOK', 'GAME', 'TOOL'] },
      Email: { type: 'string', format: 'email' },
      PersonBase: {
        type: 'object',
        required: ['id'],
        properties: { id: { type: 'string' }, display_name: { type: 'string' } },
      },
      Owner: { allOf: [ref('PersonBase'), { type: 'object', properties: { email: ref('Email') } }] },
      // Used by GET /v2/api/items/{id} only, and by itself (children): the walk must stop there.
      Item: {
        type: 'object',
        required: ['id', 'name', 'kind'],
        properties: {
          id: { type: 'string', readOnly: true },
          name: { type: 'string' },
          kind: ref('Kind'),
          count: { type: 'integer' },
          note: { type: ['string', 'null'] },
          owner: ref('Owner'),
          children: { type: 'array', items: ref('Item') },
        },
      },
      ItemSummary: {
        type: 'object',
        required: ['id'],
        properties: { id: { type: 'string' }, name: { type: 'string' } },
      },
      ItemList: {
        type: 'object',
        required: ['data'],
        properties: { data: { type: 'array', items: ref('ItemSummary') } },
      },
      CreateItem: {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 100 },
          kind: ref('Kind'),
          price: { type: 'number', minimum: 0 },
          tags: { type: 'array', items: { type: 'string' }, maxItems: 10 },
          due: { type: 'string' },
          contact: { oneOf: [ref('Email'), { type: 'null' }] },
          address: { type: 'object', properties: { city: { type: 'string' }, zip: { type: 'string' } } },
        },
      },
    },
  },
};

const s = (doc: Json) => doc.components.schemas;
const mutate = (change: (doc: Json) => void): Json => {
  const doc = structuredClone(BASE);
  change(doc);
  return doc;
};
const compare = (head: Json, base: Json = BASE) => compareContracts(base, head);
const pairs = (head: Json) => compare(head).findings.map((f: Json) => [f.rule, f.location]);

const ITEMS = 'GET /v2/api/items';
const CREATE = 'POST /v2/api/items';
const ITEM = 'GET /v2/api/items/{id}';
const UPDATE = 'PATCH /v2/api/items/{id}';
const CATALOGUE = 'components › schemas › ErrorCode';

// [rule, location, mutation]: each mutation must give exactly this one finding.
const CASES: [string, string, (doc: Json) => void][] = [
  ['path-removed', '/v2/api/items/{id}', (d) => delete d.paths['/v2/api/items/{id}']],
  ['path-removed', 'webhook ITEM_CREATED', (d) => delete d.webhooks.ITEM_CREATED],
  ['operation-removed', UPDATE, (d) => delete d.paths['/v2/api/items/{id}'].patch],
  [
    'security-tightened',
    `${CREATE} › security`,
    (d) => (d.paths['/v2/api/items'].post.security = [{ ApiKey: ['ITEMS_WRITE', 'ITEMS_ADMIN'] }]),
  ],
  [
    'security-tightened',
    `${ITEMS} › security`,
    (d) => (d.paths['/v2/api/items'].get.security = [{ ApiKey: ['ITEMS_READ', 'ITEMS_LIST'] }]),
  ],

  ['parameter-removed', `${ITEMS} › query › status`, (d) => d.paths['/v2/api/items'].get.parameters.splice(1, 1)],
  ['parameter-removed', `${UPDATE} › header › If-Match`, (d) => delete d.paths['/v2/api/items/{id}'].patch.parameters],
  [
    'parameter-required-added',
    `${ITEMS} › query › sort`,
    (d) =>
      d.paths['/v2/api/items'].get.parameters.push({
        name: 'sort',
        in: 'query',
        required: true,
        schema: { type: 'string' },
      }),
  ],
  [
    'parameter-became-required',
    `${ITEMS} › query › page`,
    (d) => (d.paths['/v2/api/items'].get.parameters[0].required = true),
  ],

  [
    'request-body-became-required',
    `${UPDATE} › requestBody`,
    (d) => (d.paths['/v2/api/items/{id}'].patch.requestBody.required = true),
  ],
  [
    'request-media-type-removed',
    `${UPDATE} › requestBody`,
    (d) =>
      (d.paths['/v2/api/items/{id}'].patch.requestBody = {
        content: { 'application/merge-patch+json': { schema: {} } },
      }),
  ],
  ['request-property-removed', `${CREATE} › requestBody › tags`, (d) => delete s(d).CreateItem.properties.tags],
  [
    'request-required-property-added',
    `${CREATE} › requestBody › sku`,
    (d) => {
      s(d).CreateItem.properties.sku = { type: 'string' };
      s(d).CreateItem.required.push('sku');
    },
  ],
  [
    'request-property-became-required',
    `${CREATE} › requestBody › address › city`,
    (d) => (s(d).CreateItem.properties.address.required = ['city']),
  ],
  [
    'request-property-became-required',
    `${UPDATE} › requestBody › name`,
    (d) => (d.paths['/v2/api/items/{id}'].patch.requestBody.content[json].schema.required = ['name']),
  ],
  [
    'request-type-narrowed',
    `${CREATE} › requestBody › price`,
    (d) => (s(d).CreateItem.properties.price.type = 'integer'),
  ],
  [
    'request-type-narrowed',
    `${CREATE} › requestBody › contact`,
    (d) => (s(d).CreateItem.properties.contact = ref('Email')),
  ],
  [
    'request-type-narrowed',
    `${ITEMS} › query › page`,
    (d) => (d.paths['/v2/api/items'].get.parameters[0].schema.type = 'string'),
  ],
  ['request-enum-narrowed', `${CREATE} › requestBody › kind`, (d) => s(d).Kind.enum.pop()],
  [
    'request-enum-narrowed',
    `${ITEMS} › query › status`,
    (d) => (d.paths['/v2/api/items'].get.parameters[1].schema = { const: 'OPEN' }),
  ],
  [
    'request-enum-narrowed',
    `${CREATE} › requestBody › due`,
    (d) => (s(d).CreateItem.properties.due.enum = ['today', 'tomorrow']),
  ],
  [
    'request-bound-tightened',
    `${CREATE} › requestBody › name`,
    (d) => (s(d).CreateItem.properties.name.maxLength = 50),
  ],
  ['request-bound-tightened', `${CREATE} › requestBody › name`, (d) => (s(d).CreateItem.properties.name.minLength = 2)],
  [
    'request-bound-tightened',
    `${CREATE} › requestBody › price`,
    (d) => (s(d).CreateItem.properties.price = { type: 'number', exclusiveMinimum: 0 }),
  ],
  [
    'request-bound-tightened',
    `${CREATE} › requestBody › price`,
    (d) => (s(d).CreateItem.properties.price.maximum = 1000),
  ],
  ['request-bound-tightened', `${CREATE} › requestBody › tags`, (d) => (s(d).CreateItem.properties.tags.maxItems = 5)],
  ['request-bound-tightened', `${CREATE} › requestBody › tags`, (d) => (s(d).CreateItem.properties.tags.minItems = 1)],
  [
    'request-bound-tightened',
    `${CREATE} › requestBody › tags › []`,
    (d) => (s(d).CreateItem.properties.tags.items.maxLength = 20),
  ],
  [
    'request-bound-tightened',
    `${ITEMS} › query › page`,
    (d) => (d.paths['/v2/api/items'].get.parameters[0].schema.minimum = 2),
  ],
  [
    'request-bound-tightened',
    `${ITEMS} › header › X-Request-Id`,
    (d) => (d.components.parameters.RequestId.schema.maxLength = 32),
  ],
  [
    'request-pattern-changed',
    `${CREATE} › requestBody › address › zip`,
    (d) => (s(d).CreateItem.properties.address.properties.zip.pattern = '^[0-9]{5}$'),
  ],
  ['request-format-changed', `${CREATE} › requestBody › due`, (d) => (s(d).CreateItem.properties.due.format = 'date')],
  ['request-format-changed', `${CREATE} › requestBody › contact`, (d) => (s(d).Email.format = 'idn-email')],
  [
    'request-additional-properties-closed',
    `${CREATE} › requestBody`,
    (d) => (s(d).CreateItem.additionalProperties = false),
  ],
  [
    'request-additional-properties-closed',
    `${CREATE} › requestBody › address`,
    (d) => (s(d).CreateItem.properties.address.unevaluatedProperties = false),
  ],

  [
    'response-status-removed',
    `${UPDATE} › response 200`,
    (d) => {
      const { responses } = d.paths['/v2/api/items/{id}'].patch;
      responses['204'] = { description: 'Updated' };
      delete responses['200'];
    },
  ],
  [
    'response-media-type-removed',
    `${ITEMS} › response 200`,
    (d) => {
      const response = d.paths['/v2/api/items'].get.responses['200'];
      response.content = { 'application/vnd.items+json': response.content[json] };
    },
  ],
  [
    'response-header-removed',
    `${ITEMS} › response 200 › header X-Request-Id`,
    (d) => delete d.paths['/v2/api/items'].get.responses['200'].headers,
  ],
  ['response-property-removed', `${ITEM} › response 200 › data › note`, (d) => delete s(d).Item.properties.note],
  [
    'response-property-removed',
    `${ITEM} › response 200 › data › owner › display_name`,
    (d) => delete s(d).PersonBase.properties.display_name,
  ],
  [
    'response-property-removed',
    `${ITEM} › response 200 › data › owner › email`,
    (d) => (s(d).Owner = ref('PersonBase')),
  ],
  [
    'response-property-removed',
    `${ITEMS} › response 200 › data › [] › name`,
    (d) => delete s(d).ItemSummary.properties.name,
  ],
  [
    'response-property-removed',
    'webhook ITEM_CREATED POST › requestBody › item_id',
    (d) => {
      const payload = d.webhooks.ITEM_CREATED.post.requestBody.content[json].schema;
      delete payload.properties.item_id;
      payload.required = ['topic'];
    },
  ],
  [
    'response-property-became-optional',
    `${ITEM} › response 200 › data › name`,
    (d) => (s(d).Item.required = ['id', 'kind']),
  ],
  [
    'response-type-widened',
    `${ITEM} › response 200 › data › name`,
    (d) => (s(d).Item.properties.name.type = ['string', 'null']),
  ],
  [
    'response-type-widened',
    `${ITEM} › response 200 › data › count`,
    (d) => (s(d).Item.properties.count.type = 'number'),
  ],
  [
    'response-type-widened',
    `${ITEM} › response 200 › data › owner › email`,
    (d) => (s(d).Email = { oneOf: [{ type: 'string', format: 'email' }, { type: 'null' }] }),
  ],
  ['response-enum-widened', `${ITEM} › response 200 › data › kind`, (d) => s(d).Kind.enum.push('FOOD')],
  [
    'response-enum-widened',
    'webhook ITEM_CREATED POST › requestBody › topic',
    (d) =>
      (d.webhooks.ITEM_CREATED.post.requestBody.content[json].schema.properties.topic = {
        enum: ['ITEM_CREATED', 'ITEM_UPDATED'],
      }),
  ],

  ['error-code-removed', `${CATALOGUE} › ITEM_LOCKED`, (d) => s(d).ErrorCode.oneOf.pop()],
  ['error-code-removed', `${CATALOGUE} › ITEM_LOCKED`, (d) => (s(d).ErrorCode.oneOf[4].const = 'ITEM_IS_LOCKED')],
  ['error-code-status-changed', `${CATALOGUE} › ITEM_LOCKED`, (d) => (s(d).ErrorCode.oneOf[4]['x-svc-status'] = 423)],
  [
    'error-code-status-changed',
    `${CATALOGUE} › ITEM_LOCKED`,
    (d) => (s(d).ErrorCode.oneOf[4]['x-svc-error-type'] = 'validation_error'),
  ],
  [
    'operation-error-code-removed',
    `${CREATE} › response 400 › ITEM_NAME_INVALID`,
    (d) => {
      d.paths['/v2/api/items'].post.responses['400'] = {
        description: 'Invalid',
        ...errorBody('validation_error', ['INVALID_REQUEST']),
      };
    },
  ],
  [
    'operation-error-code-removed',
    `${ITEM} › response 404 › ITEM_NOT_FOUND`,
    (d) => delete d.paths['/v2/api/items/{id}'].get.responses['404'],
  ],
  [
    'operation-error-code-status-changed',
    `${CREATE} › response 400 › ITEM_NAME_INVALID`,
    (d) => {
      const { responses } = d.paths['/v2/api/items'].post;
      responses['400'] = { description: 'Invalid', ...errorBody('validation_error', ['INVALID_REQUEST']) };
      responses['422'] = { description: 'Unprocessable', ...errorBody('validation_error', ['ITEM_NAME_INVALID']) };
    },
  ],
];

describe('breaking-change rules', () => {
  it('the base contract against itself (and a copy of itself) gives no finding', () => {
    expect(compare(BASE).findings).toEqual([]);
    expect(compare(structuredClone(BASE)).findings).toEqual([]);
  });

  it.each(
    CASES.map(([rule, location, change], i) => [`${rule} at ${location} (#${i})`, rule, location, change] as const),
  )('%s', (_name, rule, location, change) => {
    expect(Object.keys(RULES), `${rule} is not a registered rule`).toContain(rule);
    expect(pairs(mutate(change))).toEqual([[rule, location]]);
  });

  it('has a case for every registered rule', () => {
    expect(new Set(CASES.map(([rule]) => rule))).toEqual(new Set(Object.keys(RULES)));
  });

  it('reports a removed field of the shared error body at every error response', () => {
    const findings = compare(mutate((d) => delete s(d).ApiError.properties.request_id)).findings;
    expect(findings.map((f: Json) => f.rule)).toEqual(Array(4).fill('response-property-removed'));
    expect(findings.map((f: Json) => f.location).sort()).toEqual(
      [`${ITEMS} › response 401`, `${CREATE} › response 400`, `${CREATE} › response 401`, `${ITEM} › response 404`]
        .map((l) => `${l} › error › request_id`)
        .sort(),
    );
  });

  it('names the likely new name of a renamed code', () => {
    const [finding] = compare(mutate((d) => (s(d).ErrorCode.oneOf[4].const = 'ITEM_IS_LOCKED'))).findings;
    expect(finding.message).toContain('renamed to ITEM_IS_LOCKED');
  });

  it('gives no finding for additions and for changes that only loosen requests or narrow responses', () => {
    const head = mutate((d) => {
      d.paths['/v2/api/items/{id}'].delete = { responses: { '204': { description: 'Deleted' } } };
      d.paths['/v2/api/tags'] = { get: { responses: { '200': { description: 'Tags', ...body({ type: 'array' }) } } } };
      d.webhooks.ITEM_DELETED = structuredClone(d.webhooks.ITEM_CREATED);
      d.paths['/v2/api/items'].get.parameters.push({ name: 'sort', in: 'query', schema: { type: 'string' } });
      d.paths['/v2/api/items'].get.responses['200'].headers['X-Total'] = { schema: { type: 'integer' } };
      d.paths['/v2/api/items'].post.responses['409'] = {
        description: 'Locked',
        ...errorBody('conflict_error', ['ITEM_LOCKED']),
      };
      // a new optional request field; loosened request bounds, enum, type, required
      s(d).CreateItem.properties.color = { type: 'string' };
      s(d).CreateItem.properties.name.maxLength = 200;
      s(d).CreateItem.properties.price.type = ['number', 'null'];
      s(d).CreateItem.required = [];
      delete s(d).CreateItem.properties.tags.maxItems;
      d.paths['/v2/api/items'].get.parameters[1].schema.enum.push('ARCHIVED');
      // new response fields (even required ones); a response narrowed
      s(d).Item.properties.updated_at = { type: 'string', format: 'date-time' };
      s(d).Item.required.push('updated_at', 'count');
      s(d).Item.properties.note.type = 'string';
      s(d).Item.properties.count.minimum = 0;
      // a new code in the catalogue and on an existing operation's response
      s(d).ErrorCode.oneOf.push({
        const: 'ITEM_NAME_TOO_LONG',
        'x-svc-status': 400,
        'x-svc-error-type': 'validation_error',
      });
      d.paths['/v2/api/items'].post.responses['400'] = {
        description: 'Invalid',
        ...errorBody('validation_error', ['INVALID_REQUEST', 'ITEM_NAME_INVALID', 'ITEM_NAME_TOO_LONG']),
      };
      // webhook payload: a new required field is an addition for the integrator reading it
      const payload = d.webhooks.ITEM_CREATED.post.requestBody.content[json].schema;
      payload.properties.at = { type: 'string' };
      payload.required.push('at');
    });
    expect(compare(head).findings).toEqual([]);
  });

  it('proves a changed single-class pattern a widening over all of Unicode, and still flags a narrowing', () => {
    const zip = (pattern: string) =>
      mutate((d) => (s(d).CreateItem.properties.address.properties.zip.pattern = pattern));
    const base = zip('[\\p{L}\\p{N}]');
    const widened = compareContracts(base, zip('[^\\s!-/:-@\\[-`{-~]'));
    expect(widened.findings).toEqual([]);
    const narrowed = compareContracts(base, zip('[A-Za-z0-9]'));
    expect(narrowed.findings.map((f: Json) => f.rule)).toEqual(['request-pattern-changed']);
  });

  it('takes a 2XX range replaced by explicit statuses in it (the readings of an ambiguous status) as no change', () => {
    const ranged = mutate((d) => {
      const { responses } = d.paths['/v2/api/items'].post;
      responses['2XX'] = responses['201'];
      delete responses['201'];
    });
    const explicit = (change: (responses: Json) => void) =>
      compareContracts(
        ranged,
        mutate((d) => {
          const { responses } = d.paths['/v2/api/items'].post;
          responses['200'] = structuredClone(responses['201']);
          change(responses);
        }),
      );
    expect(explicit(() => {}).findings).toEqual([]);
    expect(explicit((r) => (r['204'] = { description: 'No body' })).findings).toEqual([]);
    const dropped = explicit((r) => delete r['200'].content);
    expect(dropped.findings.map((f: Json) => [f.rule, f.location])).toEqual([
      ['response-media-type-removed', `${CREATE} › response 2XX (now 200)`],
    ]);
  });

  it('takes the catalogue reshaped from a oneOf of consts to a plain enum with x-svc-codes as no change', () => {
    const asEnum = (catalogue: Json) => ({
      type: 'string',
      enum: catalogue.oneOf.map((e: Json) => e.const),
      'x-svc-codes': Object.fromEntries(
        catalogue.oneOf.map((e: Json) => [
          e.const,
          { 'x-svc-status': e['x-svc-status'], 'x-svc-error-type': e['x-svc-error-type'] },
        ]),
      ),
    });
    expect(compare(mutate((d) => (s(d).ErrorCode = asEnum(s(d).ErrorCode)))).findings).toEqual([]);
    const moved = mutate((d) => {
      s(d).ErrorCode = asEnum(s(d).ErrorCode);
      s(d).ErrorCode['x-svc-codes'].ITEM_LOCKED['x-svc-status'] = 423;
    });
    expect(compare(moved).findings.map((f: Json) => f.rule)).toEqual(['error-code-status-changed']);
  });

  it('stops on recursive and self-composing schemas', () => {
    const cyclic = (doc: Json) => {
      s(doc).A = { type: 'object', properties: { b: ref('B'), x: { type: 'string' } } };
      s(doc).B = { allOf: [ref('A'), { properties: { next: ref('B') } }] };
      s(doc).Loop = { $ref: '#/components/schemas/Loop' };
      doc.paths['/v2/api/cycles'] = {
        get: {
          responses: {
            '200': {
              description: 'Cycles',
              ...body({ type: 'object', properties: { a: ref('A'), loop: ref('Loop') } }),
            },
          },
        },
      };
    };
    const base = mutate(cyclic);
    expect(compareContracts(base, structuredClone(base)).findings).toEqual([]);
    const head = structuredClone(base);
    delete s(head).A.properties.x;
    // B is A plus `next`, so x left both; b.next (B again) is where the walk stops.
    expect(compareContracts(base, head).findings.map((f: Json) => [f.rule, f.location])).toEqual([
      ['response-property-removed', 'GET /v2/api/cycles › response 200 › a › x'],
      ['response-property-removed', 'GET /v2/api/cycles › response 200 › a › b › x'],
    ]);
  });
});

describe('the major version', () => {
  const removal = (version: string) =>
    mutate((d) => {
      d.info.version = version;
      delete d.paths['/v2/api/items/{id}'];
    });

  it('a breaking change with a major bump is reported but does not fail', () => {
    const report = compare(removal('2.0.0'));
    expect(report).toMatchObject({
      majorBump: true,
      breaking: false,
      baseline: { version: '1.2.0' },
      current: { version: '2.0.0' },
    });
    expect(report.findings.map((f: Json) => f.rule)).toEqual(['path-removed']);
  });

  it('a minor or patch bump, or a lower major, still fails', () => {
    for (const version of ['1.3.0', '1.2.1', '0.9.0'])
      expect(compare(removal(version))).toMatchObject({ majorBump: false, breaking: true });
  });
});

describe('the real contract', () => {
  const baseline = JSON.parse(readFileSync(join(specDir, 'baseline', 'openapi.json'), 'utf8'));
  const current = JSON.parse(readFileSync(join(distDir, 'openapi.json'), 'utf8'));

  it('has no breaking change against the committed baseline (the last release)', () => {
    const report = compareContracts(baseline, current);
    expect(report.breaking).toBe(false);
    if (!report.majorBump) expect(report.findings).toEqual([]);
  });

  it('reads a named error\u2019s codes through allOf [ApiErrorFields, { code: <Name>Code }]: a code dropped from it is a removal', () => {
    const head = structuredClone(current);
    const codes = head.components.schemas.UpdateCustomFieldNotFoundCode;
    codes.enum = codes.enum.filter((code: string) => code !== 'ATTRIBUTE_NOT_FOUND');
    expect(compareContracts(current, head).findings.map((f: Json) => [f.rule, f.location])).toEqual([
      ['operation-error-code-removed', 'PATCH /v2/api/crm/attributes/{key} › response 404 › ATTRIBUTE_NOT_FOUND'],
    ]);
  });

  it('locates a finding by operation and field', () => {
    const head = structuredClone(baseline);
    head.components.schemas.CustomFieldLabel.maxLength = 100;
    expect(compareContracts(baseline, head).findings.map((f: Json) => [f.rule, f.location])).toEqual([
      ['request-bound-tightened', 'PATCH /v2/api/crm/attributes/{key} › requestBody › label'],
    ]);
  });
});

describe('check-breaking CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-breaking-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, content: Json) => {
    const path = join(dir, name);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  };
  const base = file('base.json', BASE);
  const breaking = file(
    'breaking.json',
    mutate((d) => d.paths['/v2/api/items'].get.parameters.splice(1, 1)),
  );
  const bumped = file(
    'bumped.json',
    mutate((d) => {
      d.info.version = '2.0.0';
      d.paths['/v2/api/items'].get.parameters.splice(1, 1);
    }),
  );
  const run = (script: string, ...args: string[]) =>
    spawnSync(process.execPath, [join(specDir, 'scripts', script), ...args], { encoding: 'utf8' });
  const check = (...args: string[]) => run('check-breaking.mjs', ...args);

  it('exits 0 without a breaking change', () => {
    const result = check('--baseline', base, '--current', file('same.json', BASE));
    expect(result.stdout).toContain('No breaking change');
    expect(result.status).toBe(0);
  });

  it('exits 1 on a breaking change, naming rule, location and reason', () => {
    const result = check('--baseline', base, '--current', breaking);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('✗ parameter-removed: The query parameter "status" was removed');
    expect(result.stdout).toContain(`at ${ITEMS} › query › status`);
  });

  it('--json prints the report for machines', () => {
    const result = check('--json', '--baseline', base, '--current', breaking);
    expect(result.status).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({
      baseline: { file: base, version: '1.2.0' },
      breaking: true,
      majorBump: false,
      findings: [{ rule: 'parameter-removed', location: `${ITEMS} › query › status`, message: expect.any(String) }],
    });
  });

  it('exits 0 on a breaking change with a major bump, printing it as information', () => {
    const result = check('--baseline', base, '--current', bumped);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('ℹ parameter-removed');
  });

  it('exits 2 on usage and input errors', () => {
    expect(check('--nope').status).toBe(2);
    expect(check('--baseline', join(dir, 'missing.json'), '--current', base).status).toBe(2);
    expect(check('--baseline', base, '--current', file('broken.json', '{ "openapi": ')).status).toBe(2);
    expect(check('--baseline', base, '--current', file('other.json', { swagger: '2.0' })).status).toBe(2);
    expect(
      check(
        '--baseline',
        base,
        '--current',
        file(
          'dangling.json',
          mutate((d) => (s(d).CreateItem.properties.kind = ref('Gone'))),
        ),
      ).status,
    ).toBe(2);
  });

  it('--rules lists every rule', () => {
    const result = check('--rules');
    expect(result.status).toBe(0);
    for (const rule of Object.keys(RULES)) expect(result.stdout).toContain(rule);
  });

  it('update-baseline records a bundle, and refuses a breaking one unless forced', () => {
    const target = join(dir, 'baseline', 'openapi.json');
    expect(run('update-baseline.mjs', '--bundle', base, '--baseline', target).status).toBe(0);
    expect(readFileSync(target, 'utf8')).toBe(readFileSync(base, 'utf8'));
    expect(run('update-baseline.mjs', '--bundle', breaking, '--baseline', target).status).toBe(1);
    expect(readFileSync(target, 'utf8')).toBe(readFileSync(base, 'utf8'));
    expect(run('update-baseline.mjs', '--bundle', breaking, '--baseline', target, '--force').status).toBe(0);
    expect(run('update-baseline.mjs', '--bundle', bumped, '--baseline', target).status).toBe(0);
    expect(readFileSync(target, 'utf8')).toBe(readFileSync(bumped, 'utf8'));
  });
});
