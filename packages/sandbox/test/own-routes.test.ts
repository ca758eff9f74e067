// The sandbox's own routes (reset, webhook trigger, contract config) go through the kernel's own
// steps, so they answer as the API does where the two meet (issue 36: a hand-written copy had
// drifted): a trial key gets the API's words and the rate headers, an unknown key is counted in
// the same shared bucket, every answer names its request and reports the budget, and HEAD is GET
// without the body.
import { describe, expect, it } from 'vitest';
import { createSandbox, RESET_PATH } from '../src/app.js';
import { CONTRACT_CONFIG_PATH } from '../src/contract-config.js';
import { WEBHOOK_TRIGGER_PATH } from '../src/webhook-trigger.js';

const json = (key: string) => ({ 'Content-Type': 'application/json', Authorization: `Api-Key ${key}` });
const own = (options = {}) =>
  createSandbox({
    enableReset: true,
    enableWebhookTrigger: true,
    serveContractConfig: true,
    clock: () => 0,
    ...options,
  });

async function answer(response: Response | Promise<Response>) {
  const sent = await response;
  const text = await sent.text();
  return { status: sent.status, headers: Object.fromEntries(sent.headers), body: text ? JSON.parse(text) : undefined };
}

describe('the own routes agree with the API', () => {
  it('refuses a trial key in the words of the API, with the rate headers', async () => {
    const sandbox = own();
    const api = await answer(
      sandbox.fetch(
        new Request('http://sandbox/v2/api/threads', { method: 'POST', headers: json('sbx_demo_trial'), body: '{}' }),
      ),
    );
    for (const path of [RESET_PATH, WEBHOOK_TRIGGER_PATH]) {
      const mine = await answer(
        sandbox.fetch(
          new Request(`http://sandbox${path}`, { method: 'POST', headers: json('sbx_demo_trial'), body: '{}' }),
        ),
      );
      expect(mine.status, path).toBe(403);
      expect(mine.body.error.code, path).toBe('API_KEY_TRIAL_NOT_ALLOWED');
      expect(mine.body.error.message, path).toBe(api.body.error.message);
      expect(mine.headers['x-ratelimit-limit'], path).toBe(api.headers['x-ratelimit-limit']);
      expect(mine.headers['x-ratelimit-remaining'], path).toMatch(/^\d+$/);
      expect(mine.headers['x-request-id'], path).toBe(mine.body.error.request_id);
    }
  });

  it('counts unknown keys in the bucket the API counts them in', async () => {
    const sandbox = own({ rateLimit: { writesPerSecond: 2 } });
    const madeUp = (path: string, key: string) =>
      answer(sandbox.fetch(new Request(`http://sandbox${path}`, { method: 'POST', headers: json(key), body: '{}' })));
    const first = await madeUp(WEBHOOK_TRIGGER_PATH, 'made_up_1');
    expect([first.status, first.body.error.code, first.headers['x-ratelimit-remaining']]).toEqual([
      401,
      'API_KEY_INVALID',
      '1',
    ]);
    // Another made-up key, on the API: the same bucket, the last write of the second.
    const api = await madeUp('/v2/api/threads', 'made_up_2');
    expect([api.status, api.headers['x-ratelimit-remaining']]).toEqual([401, '0']);
    const refused = await madeUp(RESET_PATH, 'made_up_3');
    expect([refused.status, refused.body.error.code]).toEqual([429, 'RATE_LIMIT_EXCEEDED']);
  });

  it('names every answer and reports the budget, the public contract config included', async () => {
    const sandbox = own();
    const config = await answer(
      sandbox.fetch(new Request(`http://sandbox${CONTRACT_CONFIG_PATH}`, { headers: { 'X-Request-Id': 'mine-1' } })),
    );
    expect(config.status).toBe(200);
    expect(config.headers['x-request-id']).toBe('mine-1');
    expect(config.headers['x-ratelimit-limit']).toBe('20');
    const reset = await answer(
      sandbox.fetch(
        new Request(`http://sandbox${RESET_PATH}`, { method: 'POST', headers: json('sbx_demo_full_access') }),
      ),
    );
    expect(reset).toMatchObject({ status: 200, body: { data: { reset: true } } });
    expect(reset.headers['x-ratelimit-limit']).toBe('5');
  });

  it('answers a method the route does not serve with the documented 405 and Allow', async () => {
    const sandbox = own();
    const wrong = await answer(sandbox.fetch(new Request(`http://sandbox${RESET_PATH}`)));
    expect([wrong.status, wrong.body.error.code, wrong.headers.allow]).toEqual([405, 'METHOD_NOT_ALLOWED', 'POST']);
  });
});

describe('HEAD on the sandbox', () => {
  it.each([
    ['an unknown path', '/nowhere'],
    ['an unknown API path', '/v2/api/nowhere'],
    ['the contract config', CONTRACT_CONFIG_PATH],
    ['a route that only takes POST', RESET_PATH],
    ['a read of the API', '/v2/api/tags'],
  ])('answers exactly the status and headers of GET on %s', async (_, path) => {
    const sandbox = own({ rateLimit: false });
    const ask = async (method: string) => {
      const sent = await sandbox.fetch(
        new Request(`http://sandbox${path}`, {
          method,
          headers: { Authorization: 'Api-Key sbx_demo_full_access', 'X-Request-Id': 'req_headhead0001' },
        }),
      );
      return { status: sent.status, headers: [...sent.headers], body: await sent.text() };
    };
    const get = await ask('GET');
    expect(get.body.length).toBeGreaterThan(0);
    expect(await ask('HEAD')).toEqual({ ...get, body: '' });
  });
});
