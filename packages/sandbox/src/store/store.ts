// The in-memory store: the seed, deep-copied so that nothing a request does can reach it, and the
// current state. Reset restores the seed; snapshot serialises the state (tests compare snapshots
// to prove that a rejected request changed nothing).
import type { ApiKeyRecord, SandboxState, TeamRecord } from './model.js';

/** A key as the request kernel reads it: the record, and whether its plan is a trial. */
export type SandboxKey = ApiKeyRecord & { readonly trial: boolean };

export class Store {
  private readonly seed: SandboxState;
  private current: SandboxState;
  private keysByToken = new Map<string, SandboxKey>();

  constructor(seed: SandboxState) {
    assertSeed(seed);
    this.seed = structuredClone(seed);
    this.current = structuredClone(seed);
    this.index();
  }

  get state(): SandboxState {
    return this.current;
  }

  reset(): void {
    this.current = structuredClone(this.seed);
    this.index();
  }

  snapshot(): string {
    return JSON.stringify(this.current);
  }

  findKey(token: string): SandboxKey | undefined {
    return this.keysByToken.get(token);
  }

  team(id: string): TeamRecord {
    const team = this.current.teams.find((t) => t.id === id);
    if (!team) throw new Error(`The seed has a key for team ${id}, which does not exist.`);
    return team;
  }

  private index(): void {
    this.keysByToken = new Map(this.current.keys.map((k) => [k.key, { ...k, trial: k.plan === 'TRIAL' }]));
  }
}

/** A light structural check, so that a broken --seed file fails at start with a clear message. */
export function assertSeed(seed: unknown): asserts seed is SandboxState {
  const s = seed as Partial<SandboxState> | null;
  if (!s || !Array.isArray(s.keys) || !Array.isArray(s.teams))
    throw new Error('A seed needs a keys array and a teams array.');
  const teamIds = new Set(s.teams.map((t) => t.id));
  for (const key of s.keys) {
    if (typeof key.key !== 'string' || !teamIds.has(key.team_id))
      throw new Error(`Seed key ${String(key.name)} has no key string or an unknown team_id.`);
    const team = s.teams.find((t) => t.id === key.team_id)!;
    if (!team.users.some((u) => u.id === key.owner_user_id))
      throw new Error(`Seed key ${key.name}: owner ${key.owner_user_id} is not a user of ${team.id}.`);
  }
}
