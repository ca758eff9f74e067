// Reads answered from memory until the next write, through the whole kernel.
import { createRequire } from 'node:module';
import { loadContract } from '@svc/spec-runtime';
import { describe, expect, it } from 'vitest';
import { createKernel, type Outcome } from '../src/index.js';

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
    const response = await kernel.fetch(new Request(`http://x${path}`, { method, headers: { Authorization: `Api-Key ${key}` } }));
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
