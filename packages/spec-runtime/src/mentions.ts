// The mention syntax of notes and comments, `@[Display Name](usr-id)` (NoteMention's
// x-svc-inline-syntax), read in one place for the sandbox that stores mentions and the contract
// suite that checks them.
//
// The scan is one pass without a pattern over the whole content: a pattern such as
// /@\[([^\]\n]*)\]\((usr-[^)\s]+)\)/g retries from every `@[` and rescans to the next `]`, which
// made 1000 comments of "@[" x 2000 cost 9 s to read. Here a name cannot hold a newline, so each
// line is scanned on its own, and every `@[` before a line's next `]` shares that `]` (and its
// failure, if it fails), so a content is read a bounded number of times whatever it holds.
export interface WrittenMention {
  userId: string;
  displayName: string;
}

// What \s matches, tested one character at a time: it cannot backtrack.
const SPACE = /\s/;

/**
 * Every `@[name](<userPrefix>id)` of `content`, in order, each user once (the first spelling wins);
 * `userPrefix` is the UserId schema's `x-svc-id-prefix` (`usr-`).
 */
export function scanMentions(content: string, userPrefix: string): WrittenMention[] {
  const found: WrittenMention[] = [];
  const seen = new Set<string>();
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
