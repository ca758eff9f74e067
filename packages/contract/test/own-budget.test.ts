// response.rate-limit-budget's arithmetic on made-up exchanges (times are given, no clock read): a
// 429 is blamed only when no one-second window that can hold it holds more of the run's requests of
// its class than the documented budget, requests still in flight counting until answered.
import { describe, expect, it } from 'vitest';
import { OwnBudget } from '../src/exchange-checks/own-budget.js';
import type { ApiRequest, Exchange } from '../src/http/exchange.js';
import { loadSpec } from '../src/spec.js';

const spec = loadSpec();
const KEY = 'run-key';
let seq = 0;

/** Sends one request at `sentAt` and answers it at `receivedAt` with `status`; returns the problems. */
function exchange(
  budget: OwnBudget,
  method: string,
  sentAt: number,
  receivedAt: number,
  status = 200,
  auth?: ApiRequest['auth'],
): string[] | undefined {
  const request: ApiRequest = { method, path: '/v2/api/tags', ...(auth ? { auth } : {}) };
  const s = ++seq;
  budget.sending(s, request, sentAt);
  const answer = {
    seq: s,
    request,
    url: '',
    operation: null,
    status,
    headers: new Headers(),
    text: '',
    body: undefined,
  };
  return budget.observe({ ...answer, durationMs: 1, sentAt, receivedAt } as Exchange, receivedAt);
}

describe('response.rate-limit-budget', () => {
  it('blames a 429 that comes while the run is within its read budget', () => {
    const budget = new OwnBudget(spec, KEY);
    for (let i = 0; i < 5; i++) expect(exchange(budget, 'GET', i * 10, i * 10 + 5)).toEqual([]);
    const problems = exchange(budget, 'GET', 60, 65, 429);
    expect(problems).toHaveLength(1);
    expect(problems?.[0]).toMatch(/within the documented 20 per second \(at most 6 /);
  });

  it('does not blame a 429 once the run itself sent more than the budget in a window that can hold it', () => {
    const budget = new OwnBudget(spec, KEY);
    for (let i = 0; i < 20; i++) exchange(budget, 'GET', i * 40, i * 40 + 5);
    // The 21st read, 800 ms after the first: a window of one second holds all 21.
    expect(exchange(budget, 'GET', 800, 805, 429)).toEqual([]);
  });

  it('counts under any alignment: 20 reads spread over 1.5 s still share a window with the 429 only when they fit in one', () => {
    const budget = new OwnBudget(spec, KEY);
    // 20 reads, 75 ms apart (1.425 s in all), then a 429 at 1.5 s: the window [0.5 s, 1.5 s] holds 14 of them.
    for (let i = 0; i < 20; i++) exchange(budget, 'GET', i * 75, i * 75 + 5);
    expect(exchange(budget, 'GET', 1500, 1505, 429)).toHaveLength(1);
  });

  it('counts requests still in flight, and writes apart from reads', () => {
    const budget = new OwnBudget(spec, KEY);
    const request: ApiRequest = { method: 'GET', path: '/v2/api/tags' };
    for (let i = 0; i < 20; i++) budget.sending(1000 + i, request, i);
    expect(exchange(budget, 'GET', 30, 40, 429)).toEqual([]);
    // Writes have their own budget (5): 20 reads in flight do not excuse a write's 429.
    expect(exchange(budget, 'POST', 50, 60, 429)).toHaveLength(1);
  });

  it("counts a method of neither class in both, and leaves other keys' exchanges alone", () => {
    const budget = new OwnBudget(spec, KEY);
    for (let i = 0; i < 4; i++) exchange(budget, 'OPTIONS', i, i + 1);
    expect(exchange(budget, 'POST', 10, 20, 429)).toHaveLength(1);
    const other = new OwnBudget(spec, KEY);
    for (let i = 0; i < 5; i++) exchange(other, 'OPTIONS', i, i + 1);
    expect(exchange(other, 'POST', 10, 20, 429)).toEqual([]);
    expect(exchange(other, 'GET', 30, 40, 429, { kind: 'key', key: 'another-key' })).toBeUndefined();
    expect(exchange(other, 'GET', 30, 40, 429, { kind: 'none' })).toBeUndefined();
  });
});
