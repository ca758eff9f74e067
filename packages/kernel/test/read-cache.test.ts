// Reads answered from memory until the next write, through the whole kernel.
import { createRequire } from 'node:module';
import { loadContract } from '@svc/spec-runtime';
import { describe, expect, it } from 'vitest';
import { createKernel, type Outcome, ReadCache } from '../src/index.js';
import { BYTES_FROM_CHARACTERS } from '../src/read-cache.js';

const require = createRequire(import.meta.url);
const contract = loadContract(require('@svc/openapi/openapi.json'));
const scopes = Object.keys(contract.scopes);

function kernelCounting() {
  const answered: string[] = [];
  let version = 0;
  const kernel = createKernel({
    contract,
    readCache: true,
    rateLimit: 'off',
    findKey: (token) => ({ key: token, scopes }),
    answer: ({ operation, pathname }): Outcome => {
      answered.push(`${operation.method} ${pathname}`);
      if (operation.method !== 'GET') version++;
      if (pathname.endsWith('cth-missing')) return { error: 'THREAD_NOT_FOUND', message: 'No such thread.' };
      return operation.method === 'DELETE' ? { status: 204 } : { status: 200, body: { data: { version } } };
    },
  });
  const send = async (method: string, path: string, key = 'k1') => {
    const response = await kernel.fetch(
      new Request(`http://x${path}`, { method, headers: { Authorization: `Api-Key ${key}` } }),
    );
    return { status: response.status, text: await response.text() };
  };
  return { answered, send };
}

describe('the read cache', () => {
  it('answers a repeated read from memory, per key and exact URL, until a write', async () => {
    const { answered, send } = kernelCounting();
    const first = await send('GET', '/v2/api/tags');
    expect(await send('GET', '/v2/api/tags')).toEqual(first);
    expect(answered).toEqual(['GET /v2/api/tags']);
    await send('GET', '/v2/api/tags', 'k2');
    await send('GET', '/v2/api/users?page=2');
    expect(answered).toHaveLength(3);
    await send('DELETE', '/v2/api/summary_templates/9c1f5e7a3b22');
    const after = await send('GET', '/v2/api/tags');
    expect(after.text).not.toBe(first.text);
    expect(answered.filter((a) => a === 'GET /v2/api/tags')).toHaveLength(3); // k1, k2, then k1 after the write
  });

  it('never keeps an error (it carries its request id)', async () => {
    const { answered, send } = kernelCounting();
    const one = await send('GET', '/v2/api/threads/cth-missing');
    const two = await send('GET', '/v2/api/threads/cth-missing');
    expect([one.status, two.status]).toEqual([404, 404]);
    expect(one.text).not.toBe(two.text);
    expect(answered).toHaveLength(2);
  });
});

describe('large answers in the read cache', () => {
  it('keeps an answer of 64 KiB or more as UTF-8 bytes too, counted in the budget', () => {
    const cache = new ReadCache(1024 * 1024);
    const large = JSON.stringify({ data: 'é'.repeat(BYTES_FROM_CHARACTERS) });
    cache.set('large', { status: 200, text: large });
    cache.set('small', { status: 200, text: '{"data":[]}' });
    const kept = cache.get('large');
    expect(new TextDecoder().decode(kept?.bytes)).toBe(large);
    expect(cache.get('small')?.bytes).toBeUndefined();
    expect(cache.heldBytes).toBe(64 + large.length + new TextEncoder().encode(large).byteLength + 64 + 11);
  });

  it('keeps an entry of up to half the budget, and nothing larger', () => {
    const cache = new ReadCache(400 * 1024);
    cache.set('fits', { status: 200, text: 'x'.repeat(100 * 1024 - 64) }); // 200 KiB with its bytes
    cache.set('too-large', { status: 200, text: 'x'.repeat(100 * 1024) });
    expect([cache.get('fits') !== undefined, cache.get('too-large')]).toEqual([true, undefined]);
  });

  it('sends the kept bytes through the kernel, the same answer as the first', async () => {
    const kernel = createKernel({
      contract,
      readCache: true,
      rateLimit: 'off',
      findKey: (token) => ({ key: token, scopes }),
      answer: (): Outcome => ({ status: 200, body: { data: 'ü'.repeat(BYTES_FROM_CHARACTERS) } }),
    });
    const read = async () =>
      (await kernel.fetch(new Request('http://x/v2/api/tags', { headers: { Authorization: 'Api-Key k' } }))).text();
    const first = await read();
    expect(first).toBe(JSON.stringify({ data: 'ü'.repeat(BYTES_FROM_CHARACTERS) }));
    expect(await read()).toBe(first);
  });
});
