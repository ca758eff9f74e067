// The shared token pacer (`@svc/api-client/pacer`), used by this client and by @svc/contract.
// Fake timers: every window is counted on the test's clock, never on how fast the machine is.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPacer, unpaced, WINDOW_MARGIN_MS } from '../src/pacer.js';

const WINDOW_MS = 1000 + WINDOW_MARGIN_MS;

/** Starts an acquire and reports, synchronously, whether it has been granted yet. */
function pending(promise: Promise<() => void>) {
  const state = { granted: false, release: undefined as (() => void) | undefined };
  const done = promise.then((release) => {
    state.granted = true;
    state.release = release;
    return release;
  });
  return { state, done };
}

describe('createPacer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lets a burst of `perSecond` through at once, then frees a token one window after its release, not before', async () => {
    const pacer = createPacer({ readsPerSecond: 2, writesPerSecond: 1 });
    const a = await pacer.acquire('read');
    const b = await pacer.acquire('read');
    const third = pending(pacer.acquire('read'));
    await vi.advanceTimersByTimeAsync(5 * WINDOW_MS);
    // Tokens held (no response yet) never come back on their own.
    expect(third.state.granted).toBe(false);
    a();
    await vi.advanceTimersByTimeAsync(WINDOW_MS - 1);
    expect(third.state.granted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(third.state.granted).toBe(true);
    b();
    (await third.done)();
  });

  it('keeps reads and writes apart: a write goes at once while reads wait', async () => {
    const pacer = createPacer({ readsPerSecond: 1, writesPerSecond: 1 });
    (await pacer.acquire('read'))();
    const read = pending(pacer.acquire('read'));
    const write = pending(pacer.acquire('write'));
    await vi.advanceTimersByTimeAsync(0);
    expect(write.state.granted).toBe(true);
    expect(read.state.granted).toBe(false);
    await vi.advanceTimersByTimeAsync(WINDOW_MS);
    expect(read.state.granted).toBe(true);
  });

  it('serves waiters in arrival order, one per returned token', async () => {
    const pacer = createPacer({ readsPerSecond: 1, writesPerSecond: 1 });
    const order: number[] = [];
    const first = await pacer.acquire('write');
    const waiters = [1, 2, 3].map((n) =>
      pacer.acquire('write').then((release) => {
        order.push(n);
        release();
      }),
    );
    first();
    await vi.advanceTimersByTimeAsync(WINDOW_MS);
    expect(order).toEqual([1]);
    await vi.advanceTimersByTimeAsync(2 * WINDOW_MS);
    expect(order).toEqual([1, 2, 3]);
    await Promise.all(waiters);
  });

  it('gives a token back once however often its release is called', async () => {
    const pacer = createPacer({ readsPerSecond: 1, writesPerSecond: 1 });
    const release = await pacer.acquire('read');
    release();
    release();
    await vi.advanceTimersByTimeAsync(WINDOW_MS);
    const second = await pacer.acquire('read');
    const third = pending(pacer.acquire('read'));
    await vi.advanceTimersByTimeAsync(5 * WINDOW_MS);
    expect(third.state.granted).toBe(false);
    second();
    await vi.advanceTimersByTimeAsync(WINDOW_MS);
    expect(third.state.granted).toBe(true);
  });

  it('turns a fractional rate into one token over a longer window', async () => {
    const pacer = createPacer({ readsPerSecond: 0.5, writesPerSecond: 1 });
    (await pacer.acquire('read'))();
    const next = pending(pacer.acquire('read'));
    await vi.advanceTimersByTimeAsync(2000 + WINDOW_MARGIN_MS - 1);
    expect(next.state.granted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(next.state.granted).toBe(true);
  });

  it('ends a wait when the caller aborts, and the token goes to the next waiter', async () => {
    const pacer = createPacer({ readsPerSecond: 1, writesPerSecond: 1 });
    const held = await pacer.acquire('read');
    const controller = new AbortController();
    const aborted = pacer.acquire('read', controller.signal);
    const next = pending(pacer.acquire('read'));
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
    held();
    await vi.advanceTimersByTimeAsync(WINDOW_MS);
    expect(next.state.granted).toBe(true);
    await expect(pacer.acquire('write', controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('refuses a limit that is not positive', () => {
    expect(() => createPacer({ readsPerSecond: 0, writesPerSecond: 1 })).toThrow(RangeError);
    expect(() => createPacer({ readsPerSecond: 1, writesPerSecond: Number.NaN })).toThrow(RangeError);
  });
});

describe('unpaced', () => {
  it('grants every request at once, and still honours an aborted signal', async () => {
    const releases = await Promise.all(Array.from({ length: 100 }, () => unpaced.acquire('write')));
    expect(releases).toHaveLength(100);
    await expect(unpaced.acquire('read', AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('the pacer and the process', () => {
  it('lets the process exit while tokens come back to no one, and holds it while a request waits', async () => {
    // Real timers, read through a spy: whether a timer keeps Node alive is its ref state.
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
    try {
      const pacer = createPacer({ readsPerSecond: 1, writesPerSecond: 1 });
      (await pacer.acquire('read'))();
      const returning = setTimeoutSpy.mock.results.at(-1)?.value as NodeJS.Timeout;
      expect(returning.hasRef()).toBe(false);
      const caller = new AbortController();
      const waiting = pacer.acquire('read', caller.signal);
      expect(returning.hasRef()).toBe(true);
      caller.abort();
      await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
      clearTimeout(returning);
    } finally {
      setTimeoutSpy.mockRestore();
    }
  });
});
