// The one timer behind every attempt's time limit (DeadlineClock). Fake timers (Date included):
// what is checked is which attempt ends and when on the test's clock, never how fast it runs.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeadlineClock } from '../src/timeout.js';

/** Timers that keep this process alive (an unref'd timer is not listed). */
const activeTimers = () => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;

describe('DeadlineClock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('ends each attempt at its own deadline, whatever order they were started in', async () => {
    vi.useFakeTimers();
    const clock = new DeadlineClock();
    const long = clock.start(undefined, 300);
    const short = clock.start(undefined, 100);
    const middle = clock.start(undefined, 200);
    await vi.advanceTimersByTimeAsync(99);
    expect([short.signal.aborted, middle.signal.aborted, long.signal.aborted]).toEqual([false, false, false]);
    await vi.advanceTimersByTimeAsync(1);
    expect([short.signal.aborted, middle.signal.aborted, long.signal.aborted]).toEqual([true, false, false]);
    expect(short.timedOut).toBe(true);
    expect(short.signal.reason).toMatchObject({ name: 'TimeoutError' });
    await vi.advanceTimersByTimeAsync(100);
    expect(middle.signal.aborted).toBe(true);
    expect(long.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    expect(long.signal.aborted).toBe(true);
  });

  it('never ends an attempt that was cleared, and keeps timing the others', async () => {
    vi.useFakeTimers();
    const clock = new DeadlineClock();
    const answered = clock.start(undefined, 100);
    const waiting = clock.start(undefined, 150);
    answered.clear();
    await vi.advanceTimersByTimeAsync(1000);
    expect(answered.signal.aborted).toBe(false);
    expect(answered.timedOut).toBe(false);
    expect(waiting.timedOut).toBe(true);
  });

  it('times attempts started after the timer was armed, including shorter ones', async () => {
    vi.useFakeTimers();
    const clock = new DeadlineClock();
    const first = clock.start(undefined, 1000);
    first.clear();
    await vi.advanceTimersByTimeAsync(500);
    // Armed for the first attempt's deadline (1000), which a 100 ms attempt must not wait for.
    const second = clock.start(undefined, 100);
    await vi.advanceTimersByTimeAsync(100);
    expect(second.timedOut).toBe(true);
    // After the timer fired for nothing at 1000, a later attempt is still timed.
    const third = clock.start(undefined, 2000);
    await vi.advanceTimersByTimeAsync(1999);
    expect(third.timedOut).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(third.timedOut).toBe(true);
  });

  it('follows the caller’s abort with the caller’s reason, not as a timeout', () => {
    const clock = new DeadlineClock();
    const caller = new AbortController();
    const timer = clock.start(caller.signal, 60_000);
    caller.abort();
    expect(timer.signal.reason).toBe(caller.signal.reason);
    expect(timer.timedOut).toBe(false);
    timer.clear();
    expect(clock.start(AbortSignal.abort(), 60_000).signal.aborted).toBe(true);
  });

  it('has no time limit for 0, and follows only the caller then', async () => {
    vi.useFakeTimers();
    const clock = new DeadlineClock();
    const timer = clock.start(undefined, 0);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(timer.signal.aborted).toBe(false);
  });

  it('keeps the process alive only while an attempt is pending', () => {
    // Real timers: whether the runtime counts the timer as keeping the event loop alive.
    const clock = new DeadlineClock();
    const idle = activeTimers();
    const first = clock.start(undefined, 60_000);
    const second = clock.start(undefined, 60_000);
    expect(activeTimers()).toBe(idle + 1);
    first.clear();
    expect(activeTimers()).toBe(idle + 1);
    second.clear();
    expect(activeTimers()).toBe(idle);
    // The timer stayed armed (unref'd): the next attempt refs it again instead of setting another.
    const third = clock.start(undefined, 60_000);
    expect(activeTimers()).toBe(idle + 1);
    third.clear();
    expect(activeTimers()).toBe(idle);
  });
});
