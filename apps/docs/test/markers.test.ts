import { describe, expect, it } from 'vitest';
import { loadBundle } from '../src/load-bundle.js';
import { collectMarkers, MARKER_KINDS } from '../src/markers.js';
import type { OpenApiDocument } from '../src/openapi.js';

/** A small document with one marker in each kind of place the docs must name. */
const doc: OpenApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 't',
    version: '1',
    'x-svc-limits': { read_requests_per_second: 1, 'x-svc-unspecified': ['SMS limits.', 'Date range.'] },
  },
  paths: {
    '/v2/api/conversations': {
      get: {
        'x-svc-inferred': { scope: 'Scope inferred.', idempotency: 'Idempotency inferred.' },
        parameters: [
          { name: 'page', in: 'query', schema: { type: 'integer' } },
          { name: 'search', in: 'query', schema: { type: 'string' }, 'x-svc-unspecified': 'Search fields.' },
          { $ref: '#/components/parameters/SizeParameter' },
        ],
        requestBody: {
          content: {
            'application/json': {
              schema: { type: 'object', properties: { query: { type: 'string', 'x-svc-inferred': 'Name chosen.' } } },
            },
          },
        },
        responses: {
          '200': {
            description: 'ok',
            'x-svc-unspecified': 'Order.',
            headers: { 'X-RateLimit-Reset': { $ref: '#/components/headers/RateLimitResetHeader' } },
          },
        },
      },
    },
    '/v2/api/crm/attributes/{key}': {
      parameters: [{ name: 'key', in: 'path', required: true, 'x-svc-ambiguity': 'Key or label.' }],
    },
  },
  webhooks: { CALL_RECEIVED: { post: { 'x-svc-unspecified': 'Signature.' } } },
  components: {
    schemas: {
      Deal: {
        'x-svc-ambiguity': 'Amount readings.',
        properties: {
          status: { type: 'string', 'x-svc-unspecified': 'Values.' },
          items: { type: 'array', items: { allOf: [{ properties: { x: { 'x-svc-inferred': 'Deep.' } } }] } },
        },
      },
      ErrorCode: {
        enum: ['API_KEY_INVALID', 'FORBIDDEN'],
        'x-svc-codes': { API_KEY_INVALID: {}, FORBIDDEN: { 'x-svc-unspecified': 'Which operations.' } },
      },
    },
    parameters: { SizeParameter: { name: 'size', in: 'query', 'x-svc-unspecified': 'Default size.' } },
    headers: { RateLimitResetHeader: { 'x-svc-unspecified': 'Unit.' } },
  },
};

describe('collectMarkers', () => {
  const markers = collectMarkers(doc);
  const located = markers.map(
    (marker) =>
      `${marker.kind.replace('x-svc-', '')} | ${marker.location}${marker.aspect ? ` (${marker.aspect})` : ''} | ${marker.text}`,
  );

  it('names every location the way a reader looks for it', () => {
    expect(located).toEqual([
      'unspecified | limits (info.x-svc-limits) | SMS limits.',
      'unspecified | limits (info.x-svc-limits) | Date range.',
      'inferred | GET /v2/api/conversations (scope) | Scope inferred.',
      'inferred | GET /v2/api/conversations (idempotency) | Idempotency inferred.',
      'unspecified | GET /v2/api/conversations › parameter search | Search fields.',
      'inferred | GET /v2/api/conversations › request body › query | Name chosen.',
      'unspecified | GET /v2/api/conversations › response 200 | Order.',
      'ambiguity | /v2/api/crm/attributes/{key} › parameter key | Key or label.',
      'unspecified | webhook CALL_RECEIVED | Signature.',
      'ambiguity | schema Deal | Amount readings.',
      'unspecified | schema Deal › status | Values.',
      'inferred | schema Deal › items › items › x | Deep.',
      'unspecified | error code FORBIDDEN | Which operations.',
      'unspecified | parameter size (shared, SizeParameter) | Default size.',
      'unspecified | header X-RateLimit-Reset | Unit.',
    ]);
  });

  it('sorts markers into areas and keeps a JSON pointer to each', () => {
    expect(markers.find((marker) => marker.location === 'error code FORBIDDEN')).toMatchObject({
      area: 'error code',
      pointer: '#/components/schemas/ErrorCode/x-svc-codes/FORBIDDEN',
    });
    expect(new Set(markers.map((marker) => marker.area))).toEqual(
      new Set(['limits', 'operation', 'webhook', 'schema', 'error code', 'shared component']),
    );
  });
});

describe('collectMarkers on the bundle', () => {
  const bundle = loadBundle();
  const markers = collectMarkers(bundle);

  it('finds every marker the bundle carries', () => {
    // An independent count: every marker key, one per sentence (lists and aspect maps expand).
    let expected = 0;
    const count = (value: unknown): number =>
      typeof value === 'string'
        ? 1
        : Array.isArray(value)
          ? value.reduce<number>((sum, item) => sum + count(item), 0)
          : typeof value === 'object' && value
            ? Object.values(value).reduce<number>((sum, item) => sum + count(item), 0)
            : 1;
    JSON.stringify(bundle, (key, value: unknown) => {
      if ((MARKER_KINDS as readonly string[]).includes(key)) expected += count(value);
      return value;
    });
    expect(markers.length).toBe(expected);
    expect(markers.length).toBeGreaterThan(0);
  });

  it('gives every marker a readable location and text', () => {
    for (const marker of markers) {
      expect(marker.location, marker.pointer).not.toMatch(/undefined|oneOf|allOf|anyOf|#\//);
      expect(marker.area, marker.pointer).not.toBe('other');
      expect(marker.text.trim(), marker.pointer).not.toBe('');
    }
  });
});
