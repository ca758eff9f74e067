// Idempotency keys of writes, scoped per API key. A successful (2xx) response is stored for the
// contract's TTL and replayed byte for byte; a failed request releases the key; the same key on
// another endpoint or method is a conflict; a duplicate that arrives while the first is still
// running is told to wait (OTHER_TRANSACTION_IN_PROGRESS) instead of running twice.
export interface StoredResponse {
  status: number;
  text: string | null;
}

interface Entry {
  method: string;
  path: string;
  response?: StoredResponse;
  expiresAt: number;
}

export type IdempotencyOutcome =
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'reuse' }
  | { kind: 'in-progress' }
  | { kind: 'new'; ticket: IdempotencyTicket };

export interface IdempotencyTicket {
  /** Stores the response when it is a success, releases the key otherwise. */
  complete(response: StoredResponse): void;
  /** Releases the key (the request failed before producing a response). */
  abandon(): void;
}

// Expired entries are swept when the map has doubled since the last sweep (so a sweep costs O(1)
// per request on average), and the map never holds more than MAX_ENTRIES: past that, the oldest
// stored responses are forgotten early. A sandbox holds keys in memory; this bounds it.
const FIRST_SWEEP_AT = 10_000;
export const MAX_ENTRIES = 100_000;

export class IdempotencyStore {
  private entries = new Map<string, Entry>();
  private sweepAt = FIRST_SWEEP_AT;

  constructor(
    private readonly ttlSeconds: number,
    private readonly clock: () => number,
  ) {}

  begin(scope: string, key: string, method: string, path: string): IdempotencyOutcome {
    const id = `${scope}\u0000${key}`;
    const now = this.clock();
    const existing = this.entries.get(id);
    if (existing && existing.response && existing.expiresAt <= now) this.entries.delete(id);
    const entry = this.entries.get(id);
    if (entry) {
      if (entry.method !== method || entry.path !== path) return { kind: 'reuse' };
      return entry.response ? { kind: 'replay', response: entry.response } : { kind: 'in-progress' };
    }
    if (this.entries.size >= this.sweepAt) this.sweep(now);
    const fresh: Entry = { method, path, expiresAt: Number.POSITIVE_INFINITY };
    this.entries.set(id, fresh);
    let settled = false;
    return {
      kind: 'new',
      ticket: {
        complete: (response) => {
          if (settled) return;
          settled = true;
          if (response.status >= 200 && response.status < 300) {
            fresh.response = response;
            fresh.expiresAt = this.clock() + this.ttlSeconds * 1000;
          } else {
            this.entries.delete(id);
          }
        },
        abandon: () => {
          if (settled) return;
          settled = true;
          this.entries.delete(id);
        },
      },
    };
  }

  reset(): void {
    this.entries.clear();
    this.sweepAt = FIRST_SWEEP_AT;
  }

  get size(): number {
    return this.entries.size;
  }

  private sweep(now: number): void {
    for (const [id, entry] of this.entries) if (entry.response && entry.expiresAt <= now) this.entries.delete(id);
    // Insertion order is age order: drop the oldest stored responses beyond the cap.
    for (const [id, entry] of this.entries) {
      if (this.entries.size < MAX_ENTRIES) break;
      if (entry.response) this.entries.delete(id);
    }
    this.sweepAt = Math.max(FIRST_SWEEP_AT, Math.min(MAX_ENTRIES, this.entries.size * 2));
  }
}
