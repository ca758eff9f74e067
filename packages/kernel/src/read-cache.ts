// Answers of reads, kept until the next write. A server whose reads are pure functions of its
// state, the caller's key and the URL (the sandbox: handlers see nothing else, and every change
// of state is a write through the kernel) can answer a repeated read with the bytes it already
// serialised: a hostile client asking again and again for a 4 MB thread costs one serialisation
// per change, not one per request. Bounded by bytes (least recently used go first); any write
// clears it all, so nothing stale is ever served. A large answer is kept as UTF-8 bytes too:
// Node writes bytes as they are, where a string of megabytes is measured and encoded again on
// every write (for the 4 MB thread, most of the CPU a repeated read cost).
import { LRUCache } from 'lru-cache';
import type { StoredResponse } from './idempotency.js';

/** 32 MiB of answers, none larger than half of it (text and bytes of a 4 MB thread: 8.4 MB). */
export const DEFAULT_READ_CACHE_BYTES = 32 * 1024 * 1024;
/** Answers of at least this many characters are kept as bytes as well; smaller strings write faster. */
export const BYTES_FROM_CHARACTERS = 64 * 1024;

/** A kept answer: its text, and for a large one the same text as UTF-8 bytes. */
export interface CachedAnswer extends StoredResponse {
  bytes?: Uint8Array<ArrayBuffer>;
}

export class ReadCache {
  private readonly answers: LRUCache<string, CachedAnswer>;

  constructor(readonly budgetBytes = DEFAULT_READ_CACHE_BYTES) {
    this.answers = new LRUCache<string, CachedAnswer>({
      maxSize: budgetBytes,
      maxEntrySize: Math.max(1, Math.floor(budgetBytes / 2)),
      // Characters, not bytes: the answers are JSON, nearly all ASCII (one byte a character in V8).
      sizeCalculation: (answer) => 64 + (answer.text?.length ?? 0) + (answer.bytes?.byteLength ?? 0),
    });
  }

  /** The key of a read: who asks, and exactly what (path and query as sent). */
  static keyOf(caller: string, pathname: string, query: URLSearchParams): string {
    return `${caller}\u0000${pathname}\u0000${query.toString()}`;
  }

  get(key: string): CachedAnswer | undefined {
    return this.answers.get(key);
  }

  /** Keeps a successful answer (errors carry their request id, so they are never reused). */
  set(key: string, answer: StoredResponse): void {
    if (answer.status < 200 || answer.status >= 300) return;
    const large = answer.text !== null && answer.text.length >= BYTES_FROM_CHARACTERS;
    this.answers.set(key, large ? { ...answer, bytes: new TextEncoder().encode(answer.text as string) } : answer);
  }

  clear(): void {
    // Every write clears: lru-cache's clear walks its tables even when they hold nothing.
    if (this.answers.size > 0) this.answers.clear();
  }

  get heldBytes(): number {
    return this.answers.calculatedSize;
  }
}
