// Small static files kept in memory, bounded by bytes. A file served to many clients at once (a
// docs page to 200 slow readers) is then read from disk once, and every response is the same
// buffer: no file stream, descriptor or read-ahead buffer per reader, no work on the event loop
// beyond handing the buffer to the socket. Entries are keyed by path, size and modification time,
// so a changed file is read again; concurrent misses share one read.
import { readFile } from 'node:fs/promises';
import { LRUCache } from 'lru-cache';

export interface FileVersion {
  size: number;
  mtimeMs: number;
}

/** 16 MiB of files of at most 4 MiB each (the docs folder, its 3 MB page included). */
export const DEFAULT_FILE_CACHE_BYTES = 16 * 1024 * 1024;
export const DEFAULT_MAX_CACHED_FILE_BYTES = 4 * 1024 * 1024;

export class FileCache {
  private readonly files: LRUCache<string, Uint8Array<ArrayBuffer>>;
  private readonly loading = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();

  constructor(
    readonly budgetBytes = DEFAULT_FILE_CACHE_BYTES,
    readonly maxFileBytes = DEFAULT_MAX_CACHED_FILE_BYTES,
  ) {
    this.files = new LRUCache<string, Uint8Array<ArrayBuffer>>({
      maxSize: budgetBytes,
      sizeCalculation: (bytes) => Math.max(1, bytes.byteLength),
    });
  }

  /** The file's bytes, read once per version; undefined for a file too large to keep. */
  async get(path: string, version: FileVersion): Promise<Uint8Array<ArrayBuffer> | undefined> {
    if (version.size > this.maxFileBytes || version.size > this.budgetBytes) return undefined;
    const key = `${version.size}:${version.mtimeMs}:${path}`;
    const cached = this.files.get(key);
    if (cached) return cached;
    let pending = this.loading.get(key);
    if (!pending) {
      pending = readFile(path).then(
        (buffer) => new Uint8Array(buffer.buffer as ArrayBuffer, buffer.byteOffset, buffer.byteLength),
      );
      this.loading.set(key, pending);
    }
    try {
      const bytes = await pending;
      // A file that changed between the stat and the read is served as read, but not kept.
      if (bytes.byteLength === version.size) this.files.set(key, bytes);
      return bytes;
    } finally {
      this.loading.delete(key);
    }
  }

  /** Bytes held (at most budgetBytes). */
  get heldBytes(): number {
    return this.files.calculatedSize;
  }
}
