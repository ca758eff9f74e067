// The shared budget (the sandbox's /docs in bytes, malformed HTTP in answers), on a clock the test
// moves: grants within the burst at once, past it at the refill rate, the asker with the least
// left first, and a client that hangs up gives its place back.
import { describe, expect, it } from 'vitest';
import { type Grant, SharedBudget } from '../src/shared-budget.js';
import { advance, clock, useFakeClock } from './fake-clock.js';

const KIB = 1024;
useFakeClock();

/** Records the order in which grants resolve. */
function track(grants: Record<string, Grant>) {
  const done: string[] = [];
  for (const [name, grant] of Object.entries(grants)) void grant.ready.then(() => done.push(name));
  return done;
}

describe('the shared budget', () => {
  it('grants up to half a second of its rate at once, then at the rate', async () => {
    const budget = new SharedBudget({ perSecond: 128 * KIB, clock }); // burst: 64 KiB
    const done = track({
      a: budget.take(32 * KIB, 64 * KIB),
      b: budget.take(32 * KIB, 32 * KIB),
      c: budget.take(32 * KIB, 32 * KIB),
    });
    await advance(0);
    expect(done).toEqual(['a', 'b']);
    await advance(249); // 32 KiB at 128 KiB/s takes 250 ms
    expect(done).toEqual(['a', 'b']);
    await advance(1);
    expect(done).toEqual(['a', 'b', 'c']);
  });

  it('serves the response with the fewest bytes left first, then in order of arrival', async () => {
    const budget = new SharedBudget({ perSecond: 128 * KIB, clock });
    await budget.take(64 * KIB, 64 * KIB).ready; // the burst is spent
    const done = track({
      bigFirst: budget.take(16 * KIB, 3000 * KIB),
      small: budget.take(16 * KIB, 16 * KIB),
      bigSecond: budget.take(16 * KIB, 3000 * KIB),
      medium: budget.take(16 * KIB, 600 * KIB),
    });
    await advance(1000);
    expect(done).toEqual(['small', 'medium', 'bigFirst', 'bigSecond']);
  });

  it('lets a newcomer with fewer bytes left go before those waiting, at once if the budget has it', async () => {
    const budget = new SharedBudget({ perSecond: 128 * KIB, clock });
    await budget.take(64 * KIB, 64 * KIB).ready;
    const waiting = budget.take(64 * KIB, 64 * KIB);
    await advance(100); // 12.8 KiB refilled: not enough for the one waiting
    const done = track({ waiting, more: budget.take(KIB, 128 * KIB), less: budget.take(KIB, KIB) });
    await advance(0);
    expect(done).toEqual(['less']);
    await advance(400); // 64 KiB owed to `waiting` first: the one with more left waits for it
    expect(done).toEqual(['less']);
    await advance(8); // the 1 KiB `less` took is back 8 ms later
    expect(done).toEqual(['less', 'waiting']);
    await advance(8);
    expect(done).toEqual(['less', 'waiting', 'more']);
  });

  it('moves its timer earlier for a newcomer that needs less', async () => {
    const budget = new SharedBudget({ perSecond: 128 * KIB, clock });
    await budget.take(64 * KIB, 64 * KIB).ready;
    const done = track({ large: budget.take(64 * KIB, 640 * KIB), small: budget.take(KIB, KIB) });
    await advance(7);
    expect(done).toEqual([]);
    await advance(1); // 1 KiB at 128 KiB/s: 8 ms, not the 500 ms the large one needs
    expect(done).toEqual(['small']);
  });

  it('lets a chunk larger than the burst through once the burst is whole', async () => {
    const budget = new SharedBudget({ perSecond: 64 * KIB, clock }); // burst: 32 KiB
    await budget.take(32 * KIB, 32 * KIB).ready;
    const done = track({ huge: budget.take(1024 * KIB, 1024 * KIB) });
    await advance(499);
    expect(done).toEqual([]);
    await advance(1);
    expect(done).toEqual(['huge']);
  });

  it('skips a response whose client hung up, without spending the budget on it', async () => {
    const budget = new SharedBudget({ perSecond: 128 * KIB, clock });
    await budget.take(64 * KIB, 64 * KIB).ready;
    const gone = budget.take(32 * KIB, KIB);
    const done = track({ gone, next: budget.take(32 * KIB, 2 * KIB) });
    gone.cancel();
    await advance(250); // 32 KiB: enough for one of them, and `gone` goes first if it counts
    expect(done).toEqual(['next']);
  });

  it('keeps its queue bounded while clients keep asking and hanging up', async () => {
    const budget = new SharedBudget({ perSecond: 128 * KIB, clock });
    await budget.take(64 * KIB, 64 * KIB).ready;
    const stuck = budget.take(64 * KIB, 10_000 * KIB); // never reaches the head while others come
    for (let i = 0; i < 10_000; i++) budget.take(KIB, KIB).cancel();
    expect(budget.queued).toBeLessThanOrEqual(3);
    stuck.cancel();
    expect(budget.queued).toBeLessThanOrEqual(1);
  });

  it('refuses a rate that is not positive', () => {
    expect(() => new SharedBudget({ perSecond: 0 })).toThrow(RangeError);
    expect(() => new SharedBudget({ perSecond: Number.NaN })).toThrow(RangeError);
  });
});
