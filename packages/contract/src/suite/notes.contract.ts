// Conversation notes: listed per conversation (contact number), fetched by not- id.
import { need } from '../fixtures.js';
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
