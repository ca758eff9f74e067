// The JSON Schema of a shard file (svc-contract-shard/2), checked with Ajv before the merge reads
// anything of it: a file edited by hand or cut short is refused in one line, never a crash. Every
// number the merge sizes something by is bounded here (a shard count, exchange numbers), so no
// value in a file can make it allocate more than the file itself.
import { MAX_SHARDS } from '../shard.js';
import { KEY_KINDS, SKIP_KINDS } from '../types.js';

const text = (maxLength: number) => ({ type: 'string', maxLength });
const count = { type: 'integer', minimum: 0, maximum: 1_000_000_000 };
const strings = { type: 'object', additionalProperties: text(1_000_000) };

/** What a failed check expected (types.ts FailedExpectation): bounded, as every list here. */
export const EXPECTED_SCHEMA = {
  type: 'object',
  required: ['judge'],
  properties: {
    judge: { enum: ['exchange', 'answer', 'state'] },
    answers: {
      type: 'array',
      maxItems: 1000,
      items: {
        type: 'object',
        required: ['status'],
        properties: {
          status: { type: 'integer', minimum: 100, maximum: 999 },
          codes: { type: 'array', maxItems: 1000, items: text(200) },
        },
      },
    },
    success: { type: 'boolean' },
  },
};

/** The rule that sent a failing exchange (types.ts MadeBy). */
export const MADE_BY_SCHEMA = {
  type: 'object',
  required: ['check', 'operationId'],
  properties: { check: text(200), operationId: text(200), writes: { type: 'boolean' } },
};

export const KEY_REF_SCHEMA = {
  type: 'object',
  required: ['name'],
  properties: { name: text(1000), kind: { enum: [...KEY_KINDS] }, env: text(1000) },
};

const outcome = {
  type: 'object',
  required: ['check', 'operationId', 'status'],
  properties: {
    check: text(200),
    operationId: text(200),
    status: { enum: ['passed', 'failed', 'skipped'] },
    detail: text(10_000_000),
    exchange: { ...count, minimum: 1 },
    count,
    skipKind: { enum: [...SKIP_KINDS] },
    constraint: {
      type: 'object',
      required: ['id', 'side'],
      properties: { id: text(1000), side: { enum: ['inside', 'outside'] } },
    },
    readings: text(100_000),
    expected: EXPECTED_SCHEMA,
    madeBy: MADE_BY_SCHEMA,
  },
};

const exchange = {
  type: 'object',
  required: ['seq', 'operationId', 'method', 'url', 'headers', 'durationMs'],
  properties: {
    seq: { ...count, minimum: 1 },
    operationId: { anyOf: [text(200), { type: 'null' }] },
    method: text(32),
    url: text(1_000_000),
    headers: strings,
    body: text(100_000_000),
    status: { type: 'integer', minimum: 0, maximum: 999 },
    responseHeaders: strings,
    responseBody: text(100_000_000),
    requestId: text(10_000),
    error: text(1_000_000),
    durationMs: { type: 'number', minimum: 0 },
    startedAt: text(100),
    key: KEY_REF_SCHEMA,
  },
};

const observation = {
  type: 'object',
  required: ['operationId', 'status'],
  properties: {
    operationId: { anyOf: [text(200), { type: 'null' }] },
    status: { type: 'integer', minimum: 0, maximum: 999 },
    code: text(1000),
  },
};

const inputs = {
  type: 'object',
  required: ['operationId', 'sent', 'broke'],
  properties: {
    operationId: text(200),
    sent: { type: 'array', items: text(10_000) },
    broke: { type: 'array', items: text(10_000) },
  },
};

const record = {
  type: 'object',
  required: ['outcomes', 'exchanges', 'observations', 'requests'],
  properties: {
    outcomes: { type: 'array', items: outcome },
    exchanges: { type: 'array', items: exchange },
    observations: { type: 'array', items: observation },
    inputs: { type: 'array', items: inputs },
    requests: count,
    reads: count,
    writes: count,
    stateful: { type: 'boolean' },
  },
};

const meta = {
  type: 'object',
  required: ['tool', 'target', 'profile', 'allowWrites', 'burst', 'rate', 'only', 'startedAt', 'durationMs'],
  properties: {
    tool: { type: 'object', required: ['name', 'version'], properties: { name: text(100), version: text(100) } },
    target: {
      type: 'object',
      required: ['baseUrl', 'embedded'],
      properties: { baseUrl: text(10_000), embedded: { type: 'boolean' }, requestLog: text(10_000) },
    },
    profile: { enum: ['full', 'mock'] },
    allowWrites: { type: 'boolean' },
    burst: { type: 'boolean' },
    rate: {
      anyOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['readsPerSecond', 'writesPerSecond'],
          properties: { readsPerSecond: { type: 'number' }, writesPerSecond: { type: 'number' } },
        },
      ],
    },
    only: { type: 'array', maxItems: 10_000, items: text(1000) },
    startedAt: text(100),
    durationMs: { type: 'number', minimum: 0, maximum: 1e12 },
  },
};

export const SHARD_FORMAT = 'svc-contract-shard/2';

export const SHARD_FILE_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  required: ['format', 'shard', 'maxSkipped', 'minInputCoverage', 'contract', 'meta', 'records'],
  properties: {
    format: { const: SHARD_FORMAT },
    shard: {
      type: 'object',
      required: ['index', 'count'],
      properties: {
        index: { type: 'integer', minimum: 1, maximum: MAX_SHARDS },
        count: { type: 'integer', minimum: 1, maximum: MAX_SHARDS },
      },
    },
    maxSkipped: count,
    minInputCoverage: { type: 'number', minimum: 0, maximum: 100 },
    contract: {
      type: 'object',
      required: ['title', 'version'],
      properties: { title: text(1000), version: text(100) },
    },
    meta,
    records: { type: 'array', items: record },
  },
} as const;
