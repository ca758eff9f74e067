// The samples are meant to work as written on a fresh sandbox (`pnpm start`), and a test runs
// them there. One thing the contract's examples cannot know is the sandbox's seed: the thread
// example names an item that already has a seeded thread, which a fresh sandbox answers with
// 409 THREAD_ALREADY_EXISTS. Such a body gets an item of the same kind that has no thread yet.
import { loadSeedFile } from '@svc/sandbox';

type Seed = ReturnType<typeof loadSeedFile>;

let seed: Seed | undefined;
function sandboxSeed(): Seed {
  seed ??= loadSeedFile();
  return seed;
}

/** The first seeded item of each kind, per the thread's `entity_type`, that no seeded thread is on. */
export function itemWithoutThread(entityType: string, current: Seed = sandboxSeed()): string | undefined {
  for (const team of current.teams) {
    const taken = new Set(team.threads.map((thread) => thread.entity_id));
    const items = { CALL: team.calls, TEXT_MESSAGE: team.messages, CONVERSATION_NOTE: team.notes }[entityType] ?? [];
    const free = items.find((item) => !taken.has(item.id));
    if (free) return free.id;
  }
  return undefined;
}

/** A request body that works on a fresh sandbox: the same body, with a thread's item swapped when taken. */
export function freshOnSandbox(body: unknown): unknown {
  if (typeof body !== 'object' || body === null) return body;
  const { entity_type: entityType, entity_id: entityId } = body as { entity_type?: unknown; entity_id?: unknown };
  if (typeof entityType !== 'string' || typeof entityId !== 'string') return body;
  const taken = sandboxSeed().teams.some((team) => team.threads.some((thread) => thread.entity_id === entityId));
  const free = taken ? itemWithoutThread(entityType) : undefined;
  return free ? { ...body, entity_id: free } : body;
}
