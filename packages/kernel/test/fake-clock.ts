// A clock the test moves, with vitest's fake timers moved alongside: for SharedBudget, whose
// clock is injected and whose one timer is a setTimeout.
import { afterEach, beforeEach, vi } from 'vitest';

let now = 0;

/** Milliseconds on the test's clock (0 at the start of each test). */
export const clock = () => now;

/** Fakes setTimeout for each test of the file and starts the clock at 0. */
export function useFakeClock(): void {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    now = 0;
  });
  afterEach(() => vi.useRealTimers());
}

/** Moves the test's clock and the fake timers together. */
export async function advance(ms: number): Promise<void> {
  now += ms;
  await vi.advanceTimersByTimeAsync(ms);
}
