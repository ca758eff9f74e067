// Conversation notes: internal to the team. Mentions are parsed on read (see support/mentions.ts).

import type { NoteRecord, TeamRecord } from '../store/model.js';
import { parseMentions } from '../support/mentions.js';
import { keyMayUseLine, timeValue, userRef } from './common.js';
import { fail, type Handler, ok } from './types.js';

export function renderNote(team: TeamRecord, note: NoteRecord) {
  return {
    id: note.id,
    content: note.content,
    contact_number: note.contact_number,
    svc_number: note.svc_number,
    user: userRef(team, note.user_id) ?? { id: note.user_id, name: null },
    mentions: parseMentions(note, team.users),
    created_at: note.created_at,
    updated_at: note.updated_at,
  };
}

export const getConversationNote: Handler = ({ team, params }) => {
  const note = team.notes.find((n) => n.id === params.id);
  if (!note) return fail('NOTE_NOT_FOUND', `No note with id ${params.id}.`, { param: 'id' });
  return ok({ data: renderNote(team, note) });
};

export const listConversationNotes: Handler = ({ team, key, params }) => {
  // Paging and shape are not shown: the contract's example, a data array of notes, oldest first.
  // Notes on lines the key may not use are left out (this operation documents no 403 for lines).
  const notes = team.notes
    .filter(
      (n) => n.contact_number === params.contact_number && (n.svc_number === null || keyMayUseLine(key, n.svc_number)),
    )
    .sort((a, b) => timeValue(a.created_at) - timeValue(b.created_at));
  return ok({ data: notes.map((n) => renderNote(team, n)) });
};
