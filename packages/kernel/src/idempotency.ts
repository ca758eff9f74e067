// Idempotency keys of writes, scoped per API key. A successful (2xx) response is stored for the
// contract's TTL and replayed byte for byte; a failed request releases the key; the same key on
// another endpoint or method is a conflict; a duplicate that arrives while the first is still
// running is told to wait (OTHER_TRANSACTION_IN_PROGRESS) instead of running twice.
//
// Memory is bounded by bytes, not by a count of keys:
// - a key is stored as the SHA-256 of (API key, Idempotency-Key), so its length does not matter
//   (the contract sets no length limit on the header, and neither does the sandbox);
// - stored responses live in an LRU cache (lru-cache) with a byte budget: past it, the least
//   recently used responses are forgotten before their hour. The default budget holds an hour of
//   one API key writing at the documented limit with responses of a few kilobytes, so only a
//   flood evicts a key early;
// - requests in flight are at most MAX_IN_FLIGHT; past that a new key is told to wait
//   (OTHER_TRANSACTION_IN_PROGRESS, retryable) rather than grow the table.
import { hash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

export interface StoredResponse {
  status: number;
  text: string | null;
}

interface Stored {
  method: string;
  path: string;
  response: StoredResponse;
}

export type IdempotencyOutcome =
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'reuse' }
  | { kind: 'in-progress' }
  /** Too many keyed requests are in flight at once: wait and retry. */
  | { kind: 'busy' }
  | { kind: 'new'; ticket: IdempotencyTicket };

export interface IdempotencyTicket {
  /** Stores the response when it is a success, releases the key otherwise. */
  complete(response: StoredResponse): void;
  /** Releases the key (the request failed before producing a response). */
  abandon(): void;
}

/** A request in flight: its ticket, and what it was. */
type Running = IdempotencyTicket & { method: string; path: string };

/** 64 MiB: an hour of 5 writes/s (the documented limit) is 18 000 responses of up to ~3.7 KB each. */
export const DEFAULT_IDEMPOTENCY_BUDGET_BYTES = 64 * 1024 * 1024;
export const MAX_IN_FLIGHT = 1024;
// What an entry costs beside its strings: the hash, the cache's bookkeeping, the objects.
const ENTRY_OVERHEAD_BYTES = 256;

/** Bytes an entry is charged: strings counted at two bytes a character, the worst case in V8. */
export function storedBytes(stored: Stored): number {
  return ENTRY_OVERHEAD_BYTES + 2 * (stored.method.length + stored.path.length + (stored.response.text?.length ?? 0));
}

function keyHash(scope: string, key: string): string {
  // One-shot hash (Node >= 20.12): no Hash object per request.
  return hash('sha256', `${scope}\u0000${key}`, 'base64');
}

export class IdempotencyStore {
  private readonly stored: LRUCache<string, Stored>;
  private readonly inFlight = new Map<string, Running>();

  constructor(
    ttlSeconds: number,
    clock: () => number,
    readonly budgetBytes = DEFAULT_IDEMPOTENCY_BUDGET_BYTES,
  ) {
    this.stored = new LRUCache<string, Stored>({
      maxSize: budgetBytes,
      sizeCalculation: storedBytes,
      ttl: ttlSeconds * 1000,
      // The injectable clock decides expiry (tests move it); no cached "now".
      perf: { now: clock },
      ttlResolution: 0,
    });
  }

  begin(scope: string, key: string, method: string, path: string): IdempotencyOutcome {
    const id = keyHash(scope, key);
    const earlier = this.stored.get(id) ?? this.inFlight.get(id);
    if (earlier) {
      if (earlier.method !== method || earlier.path !== path) return { kind: 'reuse' };
      return 'response' in earlier ? { kind: 'replay', response: earlier.response } : { kind: 'in-progress' };
    }
    if (this.inFlight.size >= MAX_IN_FLIGHT) return { kind: 'busy' };
    // The ticket is the in-flight entry itself; once it is no longer that entry (it ended, or the
    // store was reset), ending it again changes nothing.
    const ticket: Running = {
      method,
      path,
      complete: (response: StoredResponse) => {
        if (this.inFlight.get(id) !== ticket) return;
        this.inFlight.delete(id);
        if (response.status >= 200 && response.status < 300) this.stored.set(id, { method, path, response });
      },
      abandon: () => {
        if (this.inFlight.get(id) === ticket) this.inFlight.delete(id);
      },
    };
    this.inFlight.set(id, ticket);
    return { kind: 'new', ticket };
  }

  reset(): void {
    this.stored.clear();
    this.inFlight.clear();
  }

  /** Stored responses and requests in flight. */
  get size(): number {
    return this.stored.size + this.inFlight.size;
  }

  /** Bytes charged to the stored responses (at most budgetBytes). */
  get storedBytes(): number {
    return this.stored.calculatedSize;
  }
}
