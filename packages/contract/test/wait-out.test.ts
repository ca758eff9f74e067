// 429s waited out as the server asks, as many times as it takes, within one deadline per request.
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../src/http/exchange.js';
import { retryAfterSeconds, waitOut429 } from '../src/http/wait-out.js';

const RESET = 'X-RateLimit-Reset';

function answer(status: number, headers: Record<string, string> = {}, body?: unknown): Exchange {
  return { status, headers: new Headers(headers), body, text: JSON.stringify(body ?? '') } as unknown as Exchange;
}

const limited = (seconds: number) =>
  answer(429, {}, { error: { code: 'RATE_LIMIT_EXCEEDED', retry_after_seconds: seconds } });

/** A clock that moves only when the wait-out pauses, and a server answering from a list. */
function scripted(answers: Exchange[]) {
  let clock = 0;
  const waits: number[] = [];
  let sent = 0;
  return {
    waits,
    sent: () => sent,
    options: {
      resetHeader: RESET,
      now: () => clock,
      pause: async (ms: number) => {
        waits.push(ms);
        clock += ms;
      },
    },
    again: async () => answers[sent++] ?? answer(200),
  };
}

describe('waiting out 429s', () => {
  it('waits as long as each 429 asks, more than three times, until the answer is not a 429', async () => {
    const server = scripted([limited(1), limited(2), limited(1), limited(1), limited(1), answer(200)]);
    const last = await waitOut429(limited(1), server.again, { ...server.options, deadlineSeconds: 120 });
    expect(last.status).toBe(200);
    expect(server.waits).toEqual([1000, 1000, 2000, 1000, 1000, 1000]);
  });

  it('stops at the deadline, returning the last 429 before a wait that would pass it', async () => {
    const server = scripted(Array.from({ length: 100 }, () => limited(1)));
    const last = await waitOut429(limited(1), server.again, { ...server.options, deadlineSeconds: 3.5 });
    expect(last.status).toBe(429);
    expect(server.waits).toEqual([1000, 1000, 1000]);
    // A wait longer than the whole deadline is not started at all.
    const patient = scripted([]);
    expect((await waitOut429(limited(600), patient.again, { ...patient.options, deadlineSeconds: 120 })).status).toBe(
      429,
    );
    expect(patient.sent()).toBe(0);
  });

  it('reads retry_after_seconds, else Retry-After (seconds or a date), else the reset header, else one second', () => {
    const now = Date.parse('2026-11-27T10:00:00Z');
    expect(retryAfterSeconds(limited(7), RESET, now)).toBe(7);
    expect(retryAfterSeconds(answer(429, { 'Retry-After': '4' }), RESET, now)).toBe(4);
    expect(retryAfterSeconds(answer(429, { 'Retry-After': 'Fri, 27 Nov 2026 10:00:09 GMT' }), RESET, now)).toBe(9);
    expect(retryAfterSeconds(answer(429, { [RESET]: '3' }), RESET, now)).toBe(3);
    expect(retryAfterSeconds(answer(429, { 'Retry-After': 'soon' }), RESET, now)).toBe(1);
    expect(retryAfterSeconds(answer(429, {}, { error: { retry_after_seconds: -5 } }), RESET, now)).toBe(1);
  });
});
