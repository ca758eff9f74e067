// The notes of each conversation (its list of notes is not paged), up to --fixtures-per-kind
// conversations; configured note ids first, then the conversations' notes taken in turn (the first
// of each conversation, then the second of each, ...), so that a conversation holding many notes
// does not fill --fixtures-per-kind alone and leave the notes of the others unread.
import type { Session } from '../session.js';
import { discoveryGet, listOf, perKind } from './get.js';
import { patternOf, unique, valuesMatching } from './match.js';

/** The lists' values in turns: the first of each list, then the second of each, and so on. */
export function inTurns(lists: readonly string[][]): string[] {
  const longest = Math.max(0, ...lists.map((l) => l.length));
  const turns: string[] = [];
  for (let i = 0; i < longest; i++)
    for (const list of lists) {
      const value = list[i];
      if (value !== undefined) turns.push(value);
    }
  return turns;
}

export async function discoverNotes(session: Session, contacts: readonly string[]): Promise<string[]> {
  const pattern = patternOf(session, 'NoteId');
  const perConversation: string[][] = [];
  for (const contact of contacts.slice(0, perKind(session))) {
    const notes = listOf(await discoveryGet(session, `/v2/api/conversations/${encodeURIComponent(contact)}/notes`));
    perConversation.push(valuesMatching(notes, pattern, 'id'));
  }
  return unique([...(session.config.config.fixtures.note_ids ?? []), ...inTurns(perConversation)]);
}
