// Mentions are written inline as @[Display Name](usr-id) and returned parsed, with `deleted` when
// the user has since left the team. The user part is resolved when a note or comment is read, so
// removing a user later is reflected in every mention of them.
//
// The scan is one pass without a regular expression: a pattern such as
// /@\[([^\]\n]*)\]\((usr-[^)\s]+)\)/g retries from every `@[` and rescans to the next `]`, which
// made 1000 comments of "@[" x 2000 cost 9 s to read. Here each `@[` reuses the end of the
// previous scan (no `]` or newline can lie before it), so a content is read a bounded number of
// times whatever it holds; and each content is scanned once, when first read (contents seldom
// change: a note's or comment's scan is kept beside it).
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

function isSpace(code: number): boolean {
  // What \s matched in the pattern this replaces, for the characters that occur in practice.
  return code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0x2028 || code === 0x2029 || code === 0xfeff || (code >= 0x2000 && code <= 0x200a) || code === 0x3000 || code === 0x1680 || code === 0x202f || code === 0x205f;
}

/** Every `@[name](usr-id)` of `content`, in order, each user once (the first spelling wins). */
export function scanMentions(content: string): WrittenMention[] {
  const found: WrittenMention[] = [];
  const seen = new Set<string>();
  const length = content.length;
  const userPrefix = idPrefix('UserId');
  // Four positions are remembered so that no character is scanned twice, whatever the content:
  // the next newline, the next `]`, the one of them that closes the current `@[`, and where the last scan
  // of a user id stopped (a `)` or a space: any scan starting before it stops there too).
  let newlineAt = -1;
  let bracketAt = -1;
  let closeAt = -1;
  let stopAt = -1;
  let from = 0;
  for (;;) {
    const at = content.indexOf('@[', from);
    if (at === -1) break;
    const nameStart = at + 2;
    if (closeAt < nameStart) {
      if (newlineAt !== length && newlineAt < nameStart) {
        const next = content.indexOf('\n', nameStart);
        newlineAt = next === -1 ? length : next;
      }
      if (bracketAt !== length && bracketAt < nameStart) {
        const next = content.indexOf(']', nameStart);
        bracketAt = next === -1 ? length : next;
      }
      closeAt = Math.min(bracketAt, newlineAt);
    }
    if (closeAt === length) break; // no `]` before the end: no later `@[` can close either
    // A name cannot hold a newline: every `@[` before it is done.
    if (content.charCodeAt(closeAt) !== 93 || content.charCodeAt(closeAt + 1) !== 40 || !content.startsWith(userPrefix, closeAt + 2)) {
      from = content.charCodeAt(closeAt) === 93 ? at + 1 : closeAt + 1;
      continue;
    }
    // `](usr-` then at least one character that is neither `)` nor a space, then `)`.
    const idStart = closeAt + 2;
    const idBody = idStart + userPrefix.length;
    if (stopAt < idBody) {
      stopAt = idBody;
      while (stopAt < length && content.charCodeAt(stopAt) !== 41 && !isSpace(content.charCodeAt(stopAt))) stopAt++;
    }
    if (stopAt === idBody || content.charCodeAt(stopAt) !== 41) {
      from = at + 1;
      continue;
    }
    const userId = content.slice(idStart, stopAt);
    if (!seen.has(userId)) {
      seen.add(userId);
      found.push({ userId, displayName: content.slice(nameStart, closeAt) });
    }
    from = stopAt + 1;
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
