// The one-pass mention scanner reads what the old pattern read (checked on generated contents
// made of the characters that matter), and a hostile content is scanned in one pass.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseMentions, scanMentions } from '../../src/support/mentions.js';

// The pattern the scanner replaced, as the oracle: on these short contents it is cheap.
function byPattern(content: string): Array<{ userId: string; displayName: string }> {
  const seen = new Set<string>();
  const out: Array<{ userId: string; displayName: string }> = [];
  for (const match of content.matchAll(/@\[([^\]\n]*)\]\((usr-[^)\s]+)\)/g)) {
    const [, displayName, userId] = match as unknown as [string, string, string];
    if (seen.has(userId)) continue;
    seen.add(userId);
    out.push({ userId, displayName });
  }
  return out;
}

describe('mention scanning', () => {
  it('finds exactly what the old pattern found', () => {
    const pieces = fc.constantFrom(
      '@',
      '[',
      ']',
      '(',
      ')',
      'usr-',
      'usr-1',
      'usr-2',
      ' ',
      '\n',
      'a',
      'Ann',
      '@[',
      '](usr-',
      ')',
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 40 }), (parts) => {
        const content = parts.join('');
        expect(scanMentions(content)).toEqual(byPattern(content));
      }),
      { numRuns: 3000 },
    );
  });

  it('reads the hostile contents of the report (and worse) with the same answer', () => {
    for (const content of [
      '@['.repeat(2000),
      `${'@[\n'.repeat(1300)}]`,
      '@[a](usr-'.repeat(400),
      `${'@[a]'.repeat(900)}(usr-1)`,
      `${'@[@['.repeat(900)}](usr-1)`,
    ]) {
      expect(scanMentions(content)).toEqual(byPattern(content));
    }
  });

  it('keeps one scan per record and scans again when the content changes', () => {
    const record = { content: '@[Ann](usr-1)' };
    const users = [{ id: 'usr-1', name: 'Ann', email: 'a@x', role: 'ADMIN', removed: false }];
    expect(parseMentions(record, users)).toEqual([{ user_id: 'usr-1', name: 'Ann', deleted: false }]);
    record.content = '@[Bob](usr-2)';
    expect(parseMentions(record, users)).toEqual([{ user_id: 'usr-2', name: 'Bob', deleted: true }]);
  });
});
