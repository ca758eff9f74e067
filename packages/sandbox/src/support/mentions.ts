// Mentions are written inline as @[Display Name](usr-id) and returned parsed, with `deleted` when
// the user has since left the team. The user part is resolved when a note or comment is read, so
// removing a user later is reflected in every mention of them.
//
// A content is scanned once, when first read (contents seldom change: a note's or comment's scan is
// kept beside it); the scan itself (one pass, no pattern) is spec-runtime's.
import { scanMentions as scanContent, type WrittenMention } from '@svc/spec-runtime/facts';
import type { UserRecord } from '../store/model.js';
import { idPrefix } from './id-prefixes.js';

export interface Mention {
  user_id: string;
  name: string | null;
  deleted: boolean;
}

/** Every `@[name](usr-id)` of `content`, in order, each user once (the first spelling wins). */
export function scanMentions(content: string): WrittenMention[] {
  return scanContent(content, idPrefix('UserId'));
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
