// Each step of the pipeline on its own: given an exchange and a `next` that records whether the
// request was passed on, what the step answers or lets through. (Their order: pipeline.test.ts.)
import { createRequire } from 'node:module';
import { loadContract } from '@svc/spec-runtime';
import { describe, expect, it, vi } from 'vitest';
import type { Credentials } from '../src/auth.js';
import type { Outcome } from '../src/call.js';
import { Exchange, StepOrderError } from '../src/exchange.js';
import type { StoredResponse } from '../src/idempotency.js';
import { kernelServices } from '../src/kernel.js';
import { answerStep } from '../src/steps/answer.js';
import { authenticationRefusalStep, authenticationStep } from '../src/steps/authentication.js';
import { authorizationStep } from '../src/steps/authorization.js';
import { bodyStep } from '../src/steps/body.js';
import { idempotencyStep } from '../src/steps/idempotency.js';
import { rateCountStep, rateRefusalStep } from '../src/steps/rate-limit.js';
import { readCacheStep } from '../src/steps/read-cache.js';
import { requestIdStep } from '../src/steps/request-id.js';
import { allowHeader, routeStep } from '../src/steps/route.js';
import { validationStep } from '../src/steps/validation.js';
import { targetOf } from '../src/target.js';

const require = createRequire(import.meta.url);
const contract = loadContract(require('@svc/openapi/openapi.json'));
const keys: Record<string, Credentials> = {
  full: { key: 'full', scopes: Object.keys(contract.scopes) },
  none: { key: 'none', scopes: [] },
};
const PASSED: StoredResponse = { status: 299, text: 'passed on' };
let outcome: Outcome = { status: 200, body: { data: { n: 1 } } };
const services = (extra = {}) =>
  kernelServices({ contract, findKey: (t) => keys[t], answer: () => outcome, clock: () => 5_000, ...extra });

/** An exchange as the steps before `upTo` leave it (request id, route, key). */
function exchange(method: string, path: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
  const request = new Request(`http://x${path}`, { method, ...init });
  const x = new Exchange(
    request,
    method,
    targetOf(request.url),
    () => request,
    (t) => keys[t],
  );
  x.requestId = 'req_steptest0001';
  // As the authentication step leaves it: whom the key names is known.
  x.identify();
  return x;
}
function routed(method: string, path: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
  const x = exchange(method, path, init);
  const route = contract.matchRoute(method, x.pathname);
  if ('error' in route) throw new Error(route.error);
  x.operation = route.operation;
  x.params = route.params;
  x.key = keys.full!;
  return x;
}
const codeOf = (answer: unknown) => JSON.parse((answer as StoredResponse).text!).error.code;

describe('request id', () => {
  it("takes the client's X-Request-Id and echoes Idempotency-Key", () => {
    const x = exchange('GET', '/v2/api/tags', { headers: { 'X-Request-Id': 'mine', 'Idempotency-Key': 'k' } });
    expect(requestIdStep(services()).run(x, () => PASSED)).toBe(PASSED);
    expect([x.requestId, x.idempotencyKey]).toEqual(['mine', 'k']);
    expect(x.responseHeaders).toEqual({ 'X-Request-Id': 'mine', 'Idempotency-Key': 'k' });
  });

  it('makes a req_ id when the header is empty, and echoes no empty key', () => {
    const x = exchange('GET', '/v2/api/tags', { headers: { 'X-Request-Id': '', 'Idempotency-Key': '' } });
    requestIdStep(services()).run(x, () => PASSED);
    expect(x.requestId).toMatch(/^req_[A-Za-z0-9]{12}$/);
    expect(Object.keys(x.responseHeaders)).toEqual(['X-Request-Id']);
  });
});

describe('rate limit', () => {
  it('counts, reports the budget, and leaves the refusal for later', () => {
    const shared = services({ rateLimits: { readsPerSecond: 1 } });
    const first = exchange('GET', '/v2/api/tags');
    expect(rateCountStep(shared).run(first, () => PASSED)).toBe(PASSED);
    expect(first.responseHeaders).toEqual({
      'X-RateLimit-Limit': '1',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': '1',
    });
    expect(rateRefusalStep(shared).run(first, () => PASSED)).toBe(PASSED);
    const second = exchange('GET', '/v2/api/tags');
    expect(rateCountStep(shared).run(second, () => PASSED)).toBe(PASSED);
    const refused = rateRefusalStep(shared).run(second, () => PASSED) as StoredResponse;
    expect([refused.status, JSON.parse(refused.text!).error.retry_after_seconds]).toEqual([429, 1]);
  });
});

describe('route', () => {
  it('finds the operation and its parameters; HEAD finds GET', () => {
    const x = exchange('HEAD', '/v2/api/threads/cth-1');
    expect(routeStep(services()).run(x, () => PASSED)).toBe(PASSED);
    expect([x.operation.method, x.operation.path, x.params]).toEqual(['GET', '/v2/api/threads/{id}', { id: 'cth-1' }]);
  });

  it('refuses an unknown path with 404 and an unknown method with 405 and Allow', () => {
    expect(codeOf(routeStep(services()).run(exchange('GET', '/v2/api/x'), () => PASSED))).toBe('ENDPOINT_NOT_FOUND');
    const x = exchange('PUT', '/v2/api/tags');
    expect(codeOf(routeStep(services()).run(x, () => PASSED))).toBe('METHOD_NOT_ALLOWED');
    expect(x.responseHeaders.Allow).toBe('GET, HEAD');
    expect(allowHeader(['PUT'])).toBe('PUT');
  });
});

describe('authentication and authorisation', () => {
  it('refuses a request without a known key, and keeps the key it finds', () => {
    const refuse = authenticationRefusalStep(services());
    expect(codeOf(refuse.run(exchange('GET', '/v2/api/tags'), () => PASSED))).toBe('UNAUTHORIZED');
    const x = exchange('GET', '/v2/api/tags', { headers: { Authorization: 'Api-Key none' } });
    expect(refuse.run(x, () => PASSED)).toBe(PASSED);
    expect(x.key).toBe(keys.none);
  });

  it('looks the key up in the authentication step, once, and not before', () => {
    const request = new Request('http://x/v2/api/tags', { headers: { Authorization: 'Api-Key none' } });
    let lookups = 0;
    const x = new Exchange(
      request,
      'GET',
      targetOf(request.url),
      () => request,
      (t) => {
        lookups++;
        return keys[t];
      },
    );
    expect(() => x.caller()).toThrow(StepOrderError);
    expect(authenticationStep(services()).run(x, () => PASSED)).toBe(PASSED);
    expect([x.caller(), lookups]).toEqual([keys.none, 1]);
  });

  it('refuses a key without the scope of the operation', () => {
    const x = routed('GET', '/v2/api/tags');
    expect(authorizationStep(services()).run(x, () => PASSED)).toBe(PASSED);
    x.key = keys.none!;
    expect(codeOf(authorizationStep(services()).run(x, () => PASSED))).toBe('API_KEY_INSUFFICIENT_SCOPE');
  });
});

describe('idempotency', () => {
  const keyed = () => {
    const x = routed('DELETE', '/v2/api/summary_templates/t1');
    x.idempotencyKey = 'k1';
    return x;
  };

  it('stores a success once it completes, replays it, and refuses the key in flight', async () => {
    const step = idempotencyStep(services());
    const first = step.run(keyed(), () => ({ status: 204, text: null }));
    expect(codeOf(step.run(keyed(), () => PASSED))).toBe('OTHER_TRANSACTION_IN_PROGRESS');
    expect(await first).toEqual({ status: 204, text: null });
    const again = keyed();
    expect(step.run(again, () => PASSED)).toEqual({ status: 204, text: null });
    expect(again.responseHeaders['Idempotency-Replayed']).toBe('true');
  });

  it('releases the key when a later step throws', async () => {
    const step = idempotencyStep(services());
    expect(() =>
      step.run(keyed(), () => {
        throw new Error('bug');
      }),
    ).toThrow('bug');
    expect(await step.run(keyed(), () => PASSED)).toBe(PASSED);
  });
});

describe('body and validation', () => {
  const post = (body: string, type = 'application/json') =>
    routed('POST', '/v2/api/threads', { body, headers: { 'Content-Type': type } });

  it('reads a JSON body for the later steps, to be validated on the main thread when small', async () => {
    const x = post('{"entity_type":"CALL","entity_id":"cll-1","content":"a"}');
    expect(await bodyStep(services()).run(x, () => PASSED)).toBe(PASSED);
    expect([x.body, x.bodyValueCount, x.bodyBytes]).toEqual([
      { entity_type: 'CALL', entity_id: 'cll-1', content: 'a' },
      4,
      undefined,
    ]);
  });

  it('refuses a body that is not JSON unread, closing the connection', async () => {
    const x = post('{}', 'text/plain');
    expect(codeOf(await bodyStep(services()).run(x, () => PASSED))).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(x.responseHeaders.Connection).toBe('close');
  });

  it('validates a small body here, with the documented code', () => {
    const x = post('');
    x.body = { entity_type: 'NOPE', entity_id: 'cll-1', content: 'a' };
    expect(codeOf(validationStep(services()).run(x, () => PASSED))).toBe('INVALID_THREAD_ENTITY_TYPE');
  });

  it('leaves a large body as bytes, and the validation step sends it to the worker', async () => {
    const large = `{"entity_type":"NOPE","entity_id":"cll-1","content":"${'a'.repeat(100)}"}`;
    const x = post(large);
    const step = services({ offloadBodyBytes: 64 });
    expect(await bodyStep(step).run(x, () => PASSED)).toBe(PASSED);
    expect([x.body, x.bodyBytes?.byteLength]).toEqual([undefined, large.length]);
    expect(codeOf(await validationStep(step).run(x, () => PASSED))).toBe('INVALID_THREAD_ENTITY_TYPE');
    expect(x.body).toBeUndefined();
    const valid = post(large.replace('NOPE', 'CALL'));
    await bodyStep(step).run(valid, () => PASSED);
    expect(await validationStep(step).run(valid, () => PASSED)).toBe(PASSED);
    expect(valid.body).toMatchObject({ entity_type: 'CALL' });
  });
});

describe('read cache and answer', () => {
  it('answers a repeated read from memory until a write', () => {
    const shared = services({ readCache: true });
    const next = vi.fn(() => ({ status: 200, text: '{}' }));
    readCacheStep(shared).run(routed('GET', '/v2/api/tags'), next);
    readCacheStep(shared).run(routed('GET', '/v2/api/tags'), next);
    expect(next).toHaveBeenCalledTimes(1);
    readCacheStep(shared).run(routed('DELETE', '/v2/api/summary_templates/t1'), () => PASSED);
    readCacheStep(shared).run(routed('GET', '/v2/api/tags'), next);
    expect(next).toHaveBeenCalledTimes(2);
  });

  it("serialises the server's outcome, or builds the error it chose", () => {
    const x = routed('GET', '/v2/api/tags');
    outcome = { status: 200, body: { data: { n: 1 } } };
    expect(answerStep(services()).run(x, () => PASSED)).toEqual({ status: 200, text: '{"data":{"n":1}}' });
    outcome = { error: 'THREAD_NOT_FOUND', message: 'No thread.' };
    expect(codeOf(answerStep(services()).run(x, () => PASSED))).toBe('THREAD_NOT_FOUND');
  });
});
