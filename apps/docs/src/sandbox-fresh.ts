// The samples are meant to work as written on a fresh sandbox (`pnpm start`), and a test runs
// them there. What the contract's examples cannot know is the sandbox's seed: the thread example
// names an item that already has a seeded thread (409 THREAD_ALREADY_EXISTS), the tag example a
// tag the item already carries (409 TAG_ALREADY_EXISTS), and a line parameter's example is a
// contact's number, not one of the team's lines (403/404). Those values are swapped for seeded
// ones that work; everything else stays as the contract wrote it.
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

/** Parameters that name one of the team's own lines (E.164), by name. */
const LINE_PARAMETERS = new Set(['svc_number', 'number']);

/** A parameter example that works on a fresh sandbox: a line parameter names a seeded line. */
export function freshParameter(name: string, example: unknown): unknown {
  if (!LINE_PARAMETERS.has(name) || typeof example !== 'string') return example;
  const lines = sandboxSeed().teams.flatMap((team) => team.lines.map((line) => line.number));
  return lines.includes(example) || lines[0] === undefined ? example : lines[0];
}

/** Tags to add to an item: the example's, or seeded tags the item does not carry yet. */
export function freshTags(itemId: unknown, tags: unknown): unknown {
  if (typeof itemId !== 'string' || !Array.isArray(tags)) return tags;
  for (const team of sandboxSeed().teams) {
    const item = [...team.calls, ...team.messages].find((candidate) => candidate.id === itemId) as
      | { tags?: string[] }
      | undefined;
    if (!item) continue;
    const carried = new Set(item.tags ?? []);
    if (!tags.some((tag) => carried.has(tag))) return tags;
    const free = team.tags.map((tag) => tag.name).filter((name) => !carried.has(name));
    return free.slice(0, Math.max(1, tags.length));
  }
  return tags;
}
