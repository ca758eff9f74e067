// Answers of reads, kept until the next write. A server whose reads are pure functions of its
// state, the caller's key and the URL (the sandbox: handlers see nothing else, and every change
// of state is a write through the kernel) can answer a repeated read with the bytes it already
// serialised: a hostile client asking again and again for a 4 MB thread costs one serialisation
// per change, not one per request. Bounded by bytes (least recently used go first); any write
// clears it all, so nothing stale is ever served.
import { LRUCache } from 'lru-cache';
import type { StoredResponse } from './idempotency.js';

/** 32 MiB of answers, none larger than a quarter of it. */
export const DEFAULT_READ_CACHE_BYTES = 32 * 1024 * 1024;

export class ReadCache {
  private readonly answers: LRUCache<string, StoredResponse>;

  constructor(readonly budgetBytes = DEFAULT_READ_CACHE_BYTES) {
    this.answers = new LRUCache<string, StoredResponse>({
      maxSize: budgetBytes,
      maxEntrySize: Math.max(1, Math.floor(budgetBytes / 4)),
      // Characters, not bytes: the answers are JSON, nearly all ASCII (one byte a character in V8).
      sizeCalculation: (answer) => 64 + (answer.text?.length ?? 0),
    });
  }

  /** The key of a read: who asks, and exactly what (path and query as sent). */
  static keyOf(caller: string, pathname: string, query: URLSearchParams): string {
    return `${caller}\u0000${pathname}\u0000${query.toString()}`;
  }

  get(key: string): StoredResponse | undefined {
    return this.answers.get(key);
  }

  /** Keeps a successful answer (errors carry their request id, so they are never reused). */
  set(key: string, answer: StoredResponse): void {
    if (answer.status >= 200 && answer.status < 300) this.answers.set(key, answer);
  }

  clear(): void {
    // Every write clears: lru-cache's clear walks its tables even when they hold nothing.
    if (this.answers.size > 0) this.answers.clear();
  }

  get heldBytes(): number {
    return this.answers.calculatedSize;
  }
}
