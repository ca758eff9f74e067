// The sandbox's small modules, one behaviour each.

import { generateRequestId } from '@svc/spec-runtime';
import { describe, expect, it } from 'vitest';
import { deriveOptionKey } from '../src/handlers/custom-fields.js';
import { assertSeed } from '../src/store/store.js';
import { newId } from '../src/support/ids.js';
import { parseMentions } from '../src/support/mentions.js';
import { paginate } from '../src/support/pagination.js';
import { matchesAll, searchTerms } from '../src/support/text-search.js';
import { isoTimestamp } from '../src/support/time.js';

describe('search terms', () => {
  it('strips special characters, ANDs words and matches prefixes, case-insensitively', () => {
    expect(searchTerms('  Inv!  follow-up ')).toEqual(['inv', 'followup']);
    expect(searchTerms('!!! ???')).toBeNull();
    expect(matchesAll(['inv', 'followup'], ['Invoice sent; follow-up Friday'])).toBe(true);
    expect(matchesAll(['inv', 'friday'], ['Invoice sent', null, 'on FRIDAY'])).toBe(true);
    expect(matchesAll(['voice'], ['Invoice'])).toBe(false);
  });
});

describe('mentions', () => {
  const users = [
    { id: 'usr-1', name: 'Ann', email: 'a@x', role: 'ADMIN', removed: false },
    { id: 'usr-2', name: 'Bob', email: 'b@x', role: 'MEMBER', removed: true },
  ];
  it('parses each mentioned user once, flagging removed and unknown users', () => {
    expect(
      parseMentions(
        { content: '@[Ann](usr-1) @[B](usr-2) @[Ann again](usr-1) @[Zed](usr-9) @[broken](cll-1) @[x]( usr-1)' },
        users,
      ),
    ).toEqual([
      { user_id: 'usr-1', name: 'Ann', deleted: false },
      { user_id: 'usr-2', name: 'Bob', deleted: true },
      { user_id: 'usr-9', name: 'Zed', deleted: true },
    ]);
  });
});

describe('option keys', () => {
  it('derives ASCII snake-case keys, unique among the taken ones', () => {
    expect(deriveOptionKey('Enterprise Plus', new Set())).toBe('enterprise_plus');
    expect(deriveOptionKey('Crème brûlée!', new Set())).toBe('creme_brulee');
    expect(deriveOptionKey('Gold', new Set(['gold', 'gold_2']))).toBe('gold_3');
    expect(deriveOptionKey('???', new Set())).toBe('option');
  });
});

describe('ids and paging', () => {
  it('generates request ids and prefixed ids', () => {
    expect(generateRequestId()).toMatch(/^req_[A-Za-z0-9]{12}$/);
    expect(newId('cth-')).toMatch(/^cth-[A-Za-z0-9]{8}$/);
    let calls = 0;
    expect(newId('x-', () => ++calls < 3)).toMatch(/^x-/);
    expect(calls).toBe(3);
  });

  it('pages a list', () => {
    expect(paginate([1, 2, 3, 4, 5], 2, 2)).toEqual({
      data: [3, 4],
      pagination: { page: 2, size: 2, total_count: 5, total_pages: 3, has_more: true },
    });
    expect(paginate([], 1, 20).pagination).toEqual({
      page: 1,
      size: 20,
      total_count: 0,
      total_pages: 0,
      has_more: false,
    });
  });
});

describe('seed check', () => {
  it('refuses seeds that cannot work', () => {
    expect(() => assertSeed({})).toThrow(/keys array/);
    expect(() => assertSeed({ keys: [{ key: 'k', name: 'n', team_id: 't' }], teams: [] })).toThrow(/unknown team_id/);
    expect(() =>
      assertSeed({
        keys: [{ key: 'k', name: 'n', team_id: 't', owner_user_id: 'u' }],
        teams: [{ id: 't', users: [] }],
      }),
    ).toThrow(/owner u/);
  });
});

describe('timestamps', () => {
  it('whole seconds with a Z, the same text within a second and the next one after it, whichever order asks', () => {
    const second = Date.UTC(2026, 2, 2, 9, 30, 0);
    expect(isoTimestamp(second + 999)).toBe('2026-03-02T09:30:00Z');
    expect(isoTimestamp(second)).toBe('2026-03-02T09:30:00Z');
    expect(isoTimestamp(second + 1000)).toBe('2026-03-02T09:30:01Z');
    expect(isoTimestamp(second - 1)).toBe('2026-03-02T09:29:59Z');
    expect(isoTimestamp(-1500)).toBe('1969-12-31T23:59:58Z');
    expect(() => isoTimestamp(Number.NaN)).toThrow(RangeError);
  });
});
