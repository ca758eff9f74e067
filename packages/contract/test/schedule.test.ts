// The runner's order (schedule.ts): checks that only read are drawn forward to follow checks that
// may write, so their reads fill the wait the write limit imposes; nothing else moves.
import { describe, expect, it } from 'vitest';
import { registeredChecks } from '../src/execute.js';
import type { RegisteredCheck } from '../src/rules/harness.js';
import { interleaved } from '../src/schedule.js';
import { loadSpec } from '../src/spec.js';

const operations = loadSpec().contract.operationsById;
const registry = registeredChecks();
const order = interleaved(registry, operations);
const readsOnly = (c: RegisteredCheck) => !c.needs.writes && operations.get(c.operationId)?.method === 'GET';
const place = (c: RegisteredCheck) => registry.indexOf(c);

describe('the order the checks run in', () => {
  it('runs every registered check once', () => {
    expect(order).toHaveLength(registry.length);
    expect(new Set(order)).toEqual(new Set(registry));
  });

  it('keeps the checks that may write in the registry order (their scenarios build on one another)', () => {
    const writing = (list: readonly RegisteredCheck[]) => list.filter((c) => !readsOnly(c));
    expect(writing(order)).toEqual(writing(registry));
    expect(order.at(-1)?.id).toBe(registry.at(-1)?.id);
  });

  it('moves a check that only reads earlier, never later, and keeps those in their own order', () => {
    const moved = order.filter(readsOnly);
    expect(moved).toEqual(registry.filter(readsOnly));
    for (const [index, check] of order.entries()) if (readsOnly(check)) expect(index).toBeLessThanOrEqual(place(check));
  });

  it('follows each check that may write with one that only reads, while any is left', () => {
    const readers = registry.filter(readsOnly).length;
    expect(readers).toBeGreaterThan(50);
    let ranReaders = 0;
    for (const [index, check] of order.entries()) {
      if (readsOnly(check)) ranReaders++;
      else if (ranReaders < readers) expect(readsOnly(order[index + 1] as RegisteredCheck)).toBe(true);
    }
  });

  it('leaves a selection of checks that only read, or only write, as it is', () => {
    const reading = registry.filter(readsOnly).slice(0, 20);
    const writing = registry.filter((c) => !readsOnly(c)).slice(0, 20);
    expect(interleaved(reading, operations)).toEqual(reading);
    expect(interleaved(writing, operations)).toEqual(writing);
  });
});
