// The pipeline's own test: the order of its steps, once. Each step's behaviour is tested on its
// own (steps.test.ts, http-semantics.test.ts, ...); here, the way a request goes, and which step
// answers a request that several would refuse.
import { createRequire } from 'node:module';
import { loadContract } from '@svc/spec-runtime';
import { describe, expect, it } from 'vitest';
import { fetchAdapter } from '../src/adapters.js';
import type { Credentials } from '../src/auth.js';
import { compose, NextCalledTwiceError } from '../src/compose.js';
import { StepOrderError } from '../src/exchange.js';
import { createKernel, kernelServices } from '../src/kernel.js';
import { createPipeline, kernelSteps } from '../src/pipeline.js';

const require = createRequire(import.meta.url);
const contract = loadContract(require('@svc/openapi/openapi.json'));
const keys: Record<string, Credentials> = {
  full: { key: 'full', scopes: Object.keys(contract.scopes) },
  none: { key: 'none', scopes: [] },
};
const options = {
  contract,
  findKey: (token: string) => keys[token],
  answer: () => ({ status: 200, body: { data: {} } }),
};

describe('the pipeline', () => {
  it('takes a valid keyed write through every step, in this order', async () => {
    const services = kernelServices({ ...options, readCache: true });
    const visited: string[] = [];
    const steps = kernelSteps(services).map((step) => ({
      name: step.name,
      run: (x: Parameters<typeof step.run>[0], next: Parameters<typeof step.run>[1]) => {
        visited.push(step.name);
        return step.run(x, next);
      },
    }));
    const fetch = fetchAdapter(createPipeline({ services, steps, onCrash: () => undefined }), options.findKey);
    const response = await fetch(
      new Request('http://x/v2/api/threads', {
        method: 'POST',
        headers: { Authorization: 'Api-Key full', 'Content-Type': 'application/json', 'Idempotency-Key': 'k1' },
        body: JSON.stringify({ entity_type: 'CALL', entity_id: 'cll-9Jd3kW2p', content: 'Call back' }),
      }),
    );
    expect(response.status).toBe(200);
    expect(visited).toEqual([
      'request id',
      'CORS (loopback origins)',
      'authentication',
      'rate limit: count',
      'route',
      'rate limit: refuse past the budget',
      'authentication: refuse without a valid key',
      'scopes and plan',
      'idempotency',
      'body',
      'validation',
      'read cache',
      'answer',
    ]);
  });

  it('answers a request that several steps would refuse from the first of them', async () => {
    const kernel = createKernel({ ...options, rateLimits: { readsPerSecond: 1 }, clock: () => 5_000 });
    const send = async (method: string, path: string, headers: Record<string, string> = {}, body?: string) => {
      const response = await kernel.fetch(new Request(`http://x${path}`, { method, headers, body: body ?? null }));
      return `${response.status} ${((await response.json()) as { error: { code: string } }).error.code}`;
    };
    const noScope = { Authorization: 'Api-Key none' };
    const text = { Authorization: 'Api-Key full', 'Content-Type': 'text/plain' };
    expect(await send('GET', '/v2/api/nowhere')).toBe('404 ENDPOINT_NOT_FOUND'); // before the budget's refusal
    expect(await send('DELETE', '/v2/api/tags')).toBe('405 METHOD_NOT_ALLOWED');
    expect(await send('GET', '/v2/api/tags')).toBe('429 RATE_LIMIT_EXCEEDED'); // before authentication
    expect(await send('POST', '/v2/api/threads', { Authorization: 'Api-Key nobody' })).toBe('401 API_KEY_INVALID');
    expect(await send('POST', '/v2/api/threads', noScope, '{')).toBe('403 API_KEY_INSUFFICIENT_SCOPE'); // before the body
    expect(await send('POST', '/v2/api/threads', text, '{}')).toBe('415 UNSUPPORTED_MEDIA_TYPE'); // before validation
    expect(await send('POST', '/v2/api/threads', { ...text, 'Content-Type': 'application/json' }, '{}')).toBe(
      '400 INVALID_REQUEST',
    );
  });

  it('refuses a step that calls next() twice, with a named error, and runs the rest once', () => {
    const ran: string[] = [];
    const run = compose<object, string>([
      { name: 'twice', run: (_, next) => `${next()} ${next()}` },
      {
        name: 'last',
        run: () => {
          ran.push('last');
          return 'answer';
        },
      },
    ]);
    expect(() => run({})).toThrow(NextCalledTwiceError);
    expect(() => run({})).toThrow('The step "twice" called next() more than once.');
    expect(ran).toEqual(['last', 'last']); // once per run
    // Each run counts on its own.
    const once = compose<object, string>([
      { name: 'once', run: (_, next) => next() },
      { name: 'end', run: () => 'ok' },
    ]);
    expect([once({}), once({})]).toEqual(['ok', 'ok']);
  });

  it.each([
    ['scopes and plan', 'route', 'the operation'],
    ['rate limit: count', 'authentication', 'the caller'],
    ['read cache', 'authentication: refuse without a valid key', 'the key'],
  ])('fails loudly, once, with StepOrderError when "%s" runs before "%s"', async (moved, before, what) => {
    const services = kernelServices({ ...options, readCache: true });
    const steps = kernelSteps(services);
    const at = steps.findIndex((step) => step.name === moved);
    const [step] = steps.splice(at, 1);
    steps.splice(
      steps.findIndex((s) => s.name === before),
      0,
      step!,
    );
    const crashes: unknown[] = [];
    const fetch = fetchAdapter(
      createPipeline({ services, steps, onCrash: (_, error) => crashes.push(error) }),
      options.findKey,
    );
    const response = await fetch(new Request('http://x/v2/api/tags', { headers: { Authorization: 'Api-Key full' } }));
    expect(response.status).toBe(500);
    expect(crashes).toHaveLength(1);
    expect(crashes[0]).toBeInstanceOf(StepOrderError);
    expect((crashes[0] as Error).message).toContain(`read ${what} before the ${before.split(':')[0]} step`);
  });
});
