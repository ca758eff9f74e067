// Mentions are written inline as @[Display Name](usr-id) and returned parsed, with `deleted` when
// the user has since left the team. They are parsed when a note or comment is read, not stored,
// so removing a user later is reflected in every mention of them.
import type { UserRecord } from '../store/model.js';

export interface Mention {
  user_id: string;
  name: string | null;
  deleted: boolean;
}

const MENTION = /@\[([^\]\n]*)\]\((usr-[^)\s]+)\)/g;

export function parseMentions(content: string, users: readonly UserRecord[]): Mention[] {
  const mentions: Mention[] = [];
  const seen = new Set<string>();
  for (const match of content.matchAll(MENTION)) {
    const [, displayName, userId] = match as unknown as [string, string, string];
    if (seen.has(userId)) continue;
    seen.add(userId);
    const user = users.find((u) => u.id === userId);
    // A user id the team never had is reported like a removed one: it is not a current member.
    mentions.push({ user_id: userId, name: user?.name ?? (displayName.trim() || null), deleted: !user || user.removed });
  }
  return mentions;
}
