// Large request bodies are parsed and validated in a worker thread: the answers must be exactly
// those of the main-thread path (documented codes, the errors[] cap), and a valid body must reach
// the server's answer whole.
import { createRequire } from 'node:module';
import { loadContract, MAX_FIELD_ERRORS } from '@svc/spec-runtime';
import { describe, expect, it, vi } from 'vitest';
import { checkInWorker } from '../src/body-offload.js';
import { createKernel } from '../src/index.js';

const require = createRequire(import.meta.url);
const contract = loadContract(require('@svc/openapi/openapi.json'));
const limits = { maxBytes: 64 * 1024, maxDepth: 32 };
const bytes = (text: string) => new TextEncoder().encode(text);

function kernelWith(offloadBodyBytes: number, received: unknown[] = []) {
  return createKernel({
    contract,
    rateLimit: 'off',
    offloadBodyBytes,
    findKey: (token) => ({ key: token, scopes: Object.keys(contract.scopes) }),
    answer: (call) => {
      received.push(call.body);
      return { status: 200, body: { data: [] } };
    },
  });
}

async function post(kernel: ReturnType<typeof kernelWith>, path: string, body: string) {
  const request = new Request(`http://x${path}`, {
    method: 'POST',
    body,
    headers: { Authorization: 'Api-Key k', 'Content-Type': 'application/json', 'X-Request-Id': 'req_offloadtest1' },
  });
  const response = await kernel.fetch(request);
  return { status: response.status, body: await response.json() };
}

const BATCH = '/v2/api/conversations/items/batch';
const hostile = {
  'a batch of 16 000 ids': JSON.stringify({ ids: Array.from({ length: 16_000 }, () => 'x') }),
  '100 ids of an unknown prefix': JSON.stringify({
    ids: Array.from({ length: 100 }, (_, i) => `bad-${i}${'x'.repeat(200)}`),
  }),
  'JSON cut short': `{"ids":[${'"x",'.repeat(5000)}`,
  'JSON nested too deep': `{"ids":${'['.repeat(10_000)}${']'.repeat(10_000)}}`,
};

describe('a body at or over the offload size', () => {
  it.each(Object.entries(hostile))('%s is answered as on the main thread', async (_, body) => {
    expect(body.length).toBeGreaterThan(16 * 1024);
    const offloaded = await post(kernelWith(1), BATCH, body);
    expect(offloaded.status).toBe(400);
    expect(offloaded).toEqual(await post(kernelWith(Infinity), BATCH, body));
  });

  it('keeps errors[] within its cap', async () => {
    const { body } = await post(kernelWith(1), BATCH, hostile['100 ids of an unknown prefix']);
    expect(body.error.code).toBe('INVALID_REQUEST');
    expect(body.error.errors[0].code).toBe('INVALID_ITEM_ID');
    expect(body.error.errors).toHaveLength(MAX_FIELD_ERRORS);
  });

  it('hands a valid body whole to the answer', async () => {
    const received: unknown[] = [];
    // 4,000 characters (the documented maximum), written as 24 KB of escapes.
    const content = 'é'.repeat(4000);
    const body = `{"entity_type":"CALL","entity_id":"cll-9Jd3kW2p","content":"${'\\u00e9'.repeat(4000)}"}`;
    const { status } = await post(kernelWith(1, received), '/v2/api/threads', body);
    expect(status).toBe(200);
    expect(received).toEqual([{ entity_type: 'CALL', entity_id: 'cll-9Jd3kW2p', content }]);
  });
});

describe('work done once', () => {
  it('validates a valid large body in the worker only: no validation on the main thread', async () => {
    const validations = vi.spyOn(contract, 'validateRequest');
    try {
      const large = `{"entity_type":"CALL","entity_id":"cll-9Jd3kW2p","content":"${'\\u00e9'.repeat(4000)}"}`;
      expect(large.length).toBeGreaterThanOrEqual(16 * 1024);
      expect((await post(kernelWith(16 * 1024), '/v2/api/threads', large)).status).toBe(200);
      expect(validations).toHaveBeenCalledTimes(0);
      // The same request with a small body is validated here, once: the count would see one.
      const small = '{"entity_type":"CALL","entity_id":"cll-9Jd3kW2p","content":"Call back"}';
      expect((await post(kernelWith(16 * 1024), '/v2/api/threads', small)).status).toBe(200);
      expect(validations).toHaveBeenCalledTimes(1);
    } finally {
      validations.mockRestore();
    }
  });
});

describe('checkInWorker', () => {
  const task = {
    operationId: contract.operations.find((op) => op.method === 'POST' && op.path === BATCH)?.operationId ?? '',
    params: {},
    query: '',
    headers: {},
    contentType: 'application/json',
    required: true,
    limits,
  };

  it('returns the error chosen for an invalid request, from the worker thread', async () => {
    const result = await checkInWorker(contract, { ...task, bytes: bytes(hostile['a batch of 16 000 ids']) });
    expect(result).toMatchObject({ ok: false, invalid: { code: 'BATCH_TOO_LARGE', status: 400 } });
  });

  it('returns a valid body parsed, with its value count', async () => {
    expect(await checkInWorker(contract, { ...task, bytes: bytes('{"ids":["cll-9Jd3kW2p"]}') })).toEqual({
      ok: true,
      value: { ids: ['cll-9Jd3kW2p'] },
      valueCount: 3,
    });
  });

  it('refuses what is not JSON with the documented code', async () => {
    expect(await checkInWorker(contract, { ...task, bytes: bytes('{"ids":') })).toMatchObject({
      ok: false,
      code: 'INVALID_REQUEST_BODY',
    });
  });
});
