// The id prefixes of the sandbox's resources, read from the bundled contract's id schemas
// (ThreadId's x-svc-id-prefix), never typed here.

import { bundledContract } from '@svc/server-kernel';
import { idPrefixOf } from '@svc/spec-runtime';

export type IdSchema = 'ThreadId' | 'ThreadCommentId' | 'CallId' | 'TextMessageId' | 'NoteId' | 'UserId';

const prefixes = new Map<IdSchema, string>();

/** `cth-` for ThreadId, and so on. */
export function idPrefix(schema: IdSchema): string {
  let prefix = prefixes.get(schema);
  if (prefix === undefined) {
    prefix = idPrefixOf(bundledContract(), schema);
    prefixes.set(schema, prefix);
  }
  return prefix;
}
