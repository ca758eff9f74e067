// Mentions are written inline as @[Display Name](usr-id) and returned parsed, with `deleted` when
// the user has since left the team. The user part is resolved when a note or comment is read, so
// removing a user later is reflected in every mention of them.
//
// The scan is one pass without a pattern over the whole content: a pattern such as
// /@\[([^\]\n]*)\]\((usr-[^)\s]+)\)/g retries from every `@[` and rescans to the next `]`, which
// made 1000 comments of "@[" x 2000 cost 9 s to read. Here a name cannot hold a newline, so each
// line is scanned on its own, and every `@[` before a line's next `]` shares that `]` (and its
// failure, if it fails), so a content is read a bounded number of times whatever it holds; and
// each content is scanned once, when first read (contents seldom change: a note's or comment's
// scan is kept beside it).
import type { UserRecord } from '../store/model.js';
import { idPrefix } from './id-prefixes.js';

export interface Mention {
  user_id: string;
  name: string | null;
  deleted: boolean;
}

/** A mention as written: the user id and the display name between the brackets. */
export interface WrittenMention {
  userId: string;
  displayName: string;
}

// What \s matches, tested one character at a time: it cannot backtrack.
const SPACE = /\s/;

/** Every `@[name](usr-id)` of `content`, in order, each user once (the first spelling wins). */
export function scanMentions(content: string): WrittenMention[] {
  const found: WrittenMention[] = [];
  const seen = new Set<string>();
  const userPrefix = idPrefix('UserId');
  for (const line of content.split('\n')) {
    // Where the last scan of a user id stopped (a `)` or a space) is remembered, so that no
    // character is scanned twice whatever the line: any scan starting before it stops there too.
    // Each search for `@[` or `]` starts after the last `]`, so those are scanned once anyway.
    let stopAt = -1;
    let from = 0;
    for (;;) {
      const at = line.indexOf('@[', from);
      if (at === -1) break;
      const bracketAt = line.indexOf(']', at + 2);
      if (bracketAt === -1) break; // no `]` before the end of the line: no later `@[` can close either
      // `](usr-` then at least one character that is neither `)` nor a space, then `)`; else every
      // `@[` before this `]` fails the same way.
      from = bracketAt + 1;
      if (line.charCodeAt(bracketAt + 1) !== 40 || !line.startsWith(userPrefix, bracketAt + 2)) continue;
      const idBody = bracketAt + 2 + userPrefix.length;
      if (stopAt < idBody) {
        stopAt = idBody;
        while (stopAt < line.length && line.charCodeAt(stopAt) !== 41 && !SPACE.test(line.charAt(stopAt))) stopAt++;
      }
      if (stopAt === idBody || line.charCodeAt(stopAt) !== 41) continue;
      const userId = line.slice(bracketAt + 2, stopAt);
      if (!seen.has(userId)) {
        seen.add(userId);
        found.push({ userId, displayName: line.slice(at + 2, bracketAt) });
      }
      from = stopAt + 1;
    }
  }
  return found;
}

// A record's scan is kept beside it (and forgotten with it); a changed content is scanned again.
const scanned = new WeakMap<object, { content: string; mentions: WrittenMention[] }>();

function writtenMentions(record: { content: string }): WrittenMention[] {
  let entry = scanned.get(record);
  if (!entry || entry.content !== record.content) {
    entry = { content: record.content, mentions: scanMentions(record.content) };
    scanned.set(record, entry);
  }
  return entry.mentions;
}

/** The mentions of a note or comment, resolved against the team's users as they are now. */
export function parseMentions(record: { content: string }, users: readonly UserRecord[]): Mention[] {
  return writtenMentions(record).map(({ userId, displayName }) => {
    const user = users.find((u) => u.id === userId);
    // A user id the team never had is reported like a removed one: it is not a current member.
    return { user_id: userId, name: user?.name ?? (displayName.trim() || null), deleted: !user || user.removed };
  });
}
