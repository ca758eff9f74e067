// What a contract run with writes uses up and the API cannot give back: an item without a thread
// for each thread it creates (no operation deletes a thread, none creates an item) and an active
// summary template (DELETE deactivates; nothing activates). The demo seed of `svc-sandbox` holds a
// reserve of both, enough for RESERVE_RUNS runs in a row, and the contract config the sandbox
// serves names only what is still free (@svc/spec-runtime/sandbox-config reads it from the live
// state at each request), so every run finds what it needs at once. Past the reserve, a restart
// (or the reset route) brings it back.
import type {
  CallRecord,
  MessageRecord,
  NoteRecord,
  SeedFile,
  SummaryTemplateRecord,
  TeamRecord,
} from './store/model.js';

/** How many runs with writes the reserve serves: each takes one item of each kind and one template. */
export const RESERVE_RUNS = 30;

/** Older than anything of the seed, so no reserve item is a conversation's last item. */
const reserveTime = (index: number, minute: number) =>
  new Date(Date.UTC(2025, 0, 1, 8, minute) + index * 3_600_000).toISOString().replace('.000Z', 'Z');

const serial = (index: number) => String(index + 1).padStart(4, '0');

function reserveItems(
  team: TeamRecord,
): Pick<TeamRecord, 'calls' | 'messages' | 'notes' | 'summary_templates'> | undefined {
  const call = team.calls[0];
  const message = team.messages[0];
  const note = team.notes[0];
  if (!call || !message || !note) return undefined;
  const calls: CallRecord[] = [];
  const messages: MessageRecord[] = [];
  const notes: NoteRecord[] = [];
  const templates: SummaryTemplateRecord[] = [];
  for (let i = 0; i < RESERVE_RUNS; i++) {
    calls.push({
      ...call,
      id: `cll-Rsv${serial(i)}`,
      started_at: reserveTime(i, 0),
      tags: [],
      transcript: [],
      summaries: [],
    });
    messages.push({
      ...message,
      id: `msg-Rsv${serial(i)}`,
      sent_at: reserveTime(i, 1),
      tags: [],
      text: 'Reserve message.',
    });
    const at = reserveTime(i, 2);
    notes.push({ ...note, id: `not-Rsv${serial(i)}`, content: 'Reserve note.', created_at: at, updated_at: at });
    templates.push({
      id: `c0ffee${serial(i)}00`,
      key: `CONTRACT_RESERVE_${serial(i)}`,
      name: `Reserve template ${i + 1}`,
      active: true,
      created_at: reserveTime(i, 3),
    });
  }
  return { calls, messages, notes, summary_templates: templates };
}

/** The seed with the reserve added to `teamId` (a team without a call, a message and a note gets none). */
export function withContractReserve(seed: SeedFile, teamId: string): SeedFile {
  const teams = seed.teams.map((team) => {
    if (team.id !== teamId || team.calls.some((c) => c.id.startsWith('cll-Rsv'))) return team;
    const reserve = reserveItems(team);
    if (!reserve) return team;
    return {
      ...team,
      calls: [...team.calls, ...reserve.calls],
      messages: [...team.messages, ...reserve.messages],
      notes: [...team.notes, ...reserve.notes],
      summary_templates: [...team.summary_templates, ...reserve.summary_templates],
    };
  });
  return { ...seed, teams };
}
