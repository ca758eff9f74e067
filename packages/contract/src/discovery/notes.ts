// The notes of each conversation (its list of notes is not paged), up to --fixtures-per-kind
// conversations; configured note ids first.
import type { Session } from '../session.js';
import { discoveryGet, listOf, perKind } from './get.js';
import { patternOf, unique, valuesMatching } from './match.js';

export async function discoverNotes(session: Session, contacts: readonly string[]): Promise<string[]> {
  const pattern = patternOf(session, 'NoteId');
  const ids = [...(session.config.config.fixtures.note_ids ?? [])];
  for (const contact of contacts.slice(0, perKind(session))) {
    const notes = listOf(await discoveryGet(session, `/v2/api/conversations/${encodeURIComponent(contact)}/notes`));
    ids.push(...valuesMatching(notes, pattern, 'id'));
  }
  return unique(ids);
}
