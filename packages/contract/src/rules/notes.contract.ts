// Conversation notes: listed per conversation (contact number), fetched by not- id. The notes of
// every conversation are listed by discovery (fixtures.discovery fails a refused list), and
// reads.every-fixture fetches each note found there.
import { need } from '../fixtures.js';
import { readEachFixture } from './each-fixture.js';
import { operationChecks } from './operation-checks.js';

operationChecks('listConversationNotes', {
  baseline: (_t, f) => ({
    params: { contact_number: need(f.contacts[0], 'a conversation (GET /v2/api/conversations listed none)') },
  }),
});

operationChecks('getConversationNote', {
  baseline: (_t, f) => ({
    params: { id: need(f.notes[0], 'a note id (no conversation listed notes; or set fixtures.note_ids)').id },
  }),
});

readEachFixture('getConversationNote', {
  param: 'id',
  ids: (f) => f.notes.map((n) => n.id),
  what: "notes (each conversation's notes, fixtures.note_ids)",
});
