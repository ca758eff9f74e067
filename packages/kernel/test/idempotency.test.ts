// The idempotency store is bounded by bytes: keys are hashed (their length costs nothing),
// stored responses live within a byte budget with least-recently-used eviction, requests in
// flight are capped, and nothing stored is lost while the budget holds.
import { describe, expect, it } from 'vitest';
import { IdempotencyStore, MAX_IN_FLIGHT, storedBytes } from '../src/idempotency.js';

const TTL_SECONDS = 3600;

function storeOne(store: IdempotencyStore, key: string, text: string): void {
  const begun = store.begin('api-key', key, 'POST', '/v2/api/threads');
  if (begun.kind !== 'new') throw new Error(`${key}: ${begun.kind}`);
  begun.ticket.complete({ status: 201, text });
}

describe('IdempotencyStore memory', () => {
  const text = 'x'.repeat(1000);
  const entryBytes = storedBytes({ method: 'POST', path: '/v2/api/threads', response: { status: 201, text } });

  it('loses nothing stored while the budget holds', () => {
    const store = new IdempotencyStore(TTL_SECONDS, () => 1_000, entryBytes * 100);
    for (let i = 0; i < 100; i++) storeOne(store, `k${i}`, text);
    for (let i = 0; i < 100; i++)
      expect(store.begin('api-key', `k${i}`, 'POST', '/v2/api/threads').kind, `k${i}`).toBe('replay');
    expect(store.storedBytes).toBe(entryBytes * 100);
  });

  it('past the budget forgets the least recently used response first', () => {
    const store = new IdempotencyStore(TTL_SECONDS, () => 1_000, entryBytes * 3);
    storeOne(store, 'a', text);
    storeOne(store, 'b', text);
    storeOne(store, 'c', text);
    expect(store.begin('api-key', 'a', 'POST', '/v2/api/threads').kind).toBe('replay'); // a is now the most recent
    storeOne(store, 'd', text);
    expect(store.begin('api-key', 'b', 'POST', '/v2/api/threads').kind).toBe('new'); // b went
    for (const kept of ['a', 'c', 'd'])
      expect(store.begin('api-key', kept, 'POST', '/v2/api/threads').kind, kept).toBe('replay');
    expect(store.storedBytes).toBeLessThanOrEqual(entryBytes * 3);
  });

  it('charges a key nothing for its length: 8 kB keys cost what 8-byte keys cost', () => {
    const short = new IdempotencyStore(TTL_SECONDS, () => 1_000);
    const long = new IdempotencyStore(TTL_SECONDS, () => 1_000);
    for (let i = 0; i < 200; i++) {
      storeOne(short, `k${i}`, '{}');
      storeOne(long, `${'k'.repeat(8192)}${i}`, '{}');
    }
    expect(long.storedBytes).toBe(short.storedBytes);
    expect(long.begin('api-key', `${'k'.repeat(8192)}7`, 'POST', '/v2/api/threads').kind).toBe('replay');
    expect(long.begin('api-key', `${'k'.repeat(8191)}7`, 'POST', '/v2/api/threads').kind).not.toBe('replay');
  });

  it('keeps the key per API key: the same Idempotency-Key of another API key is new', () => {
    const store = new IdempotencyStore(TTL_SECONDS, () => 1_000);
    storeOne(store, 'same', '{}');
    expect(store.begin('other-api-key', 'same', 'POST', '/v2/api/threads').kind).toBe('new');
    // A scope and key that concatenate alike are still told apart.
    expect(store.begin('api-ke', 'ysame', 'POST', '/v2/api/threads').kind).toBe('new');
  });

  it(`caps the requests in flight at ${MAX_IN_FLIGHT} and frees a slot when one ends`, () => {
    const store = new IdempotencyStore(TTL_SECONDS, () => 1_000);
    const tickets = [];
    for (let i = 0; i < MAX_IN_FLIGHT; i++) {
      const begun = store.begin('api-key', `f${i}`, 'POST', '/v2/api/threads');
      expect(begun.kind).toBe('new');
      if (begun.kind === 'new') tickets.push(begun.ticket);
    }
    expect(store.begin('api-key', 'one-more', 'POST', '/v2/api/threads').kind).toBe('busy');
    tickets[0]!.abandon();
    expect(store.begin('api-key', 'one-more', 'POST', '/v2/api/threads').kind).toBe('new');
    expect(store.size).toBe(MAX_IN_FLIGHT);
  });
});
