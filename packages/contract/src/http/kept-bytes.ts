// The bytes of a body kept for checking, up to a cap: past it nothing more is kept and the body is
// 'too-large' (what was kept is dropped, so holding a body never costs more than the cap). Every
// body kept at once also draws on one shared budget, so that many large exchanges at the same
// time cost the budget, not their number times the cap: a body that finds it spent is not kept
// either (`overBudget`).
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/** Bytes kept for checking by every exchange at once. */
export class KeptBudget {
  private used = 0;

  constructor(readonly total: number) {}

  take(bytes: number): boolean {
    if (this.used + bytes > this.total) return false;
    this.used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.used -= bytes;
  }

  get inUse(): number {
    return this.used;
  }
}

export class KeptBytes {
  private chunks: Buffer[] = [];
  private size = 0;
  over = false;
  /** Not kept because the shared budget was spent (rather than because the body passed the cap). */
  overBudget = false;

  constructor(
    private readonly cap: number,
    private readonly budget: KeptBudget = new KeptBudget(Number.POSITIVE_INFINITY),
  ) {}

  add(chunk: Buffer): void {
    if (this.over) return;
    const fits = this.size + chunk.length <= this.cap;
    if (fits && this.budget.take(chunk.length)) {
      this.size += chunk.length;
      this.chunks.push(chunk);
      return;
    }
    this.overBudget = fits;
    this.drop();
  }

  /** The body kept (its share of the budget given back), or 'too-large'. */
  result(): Uint8Array | 'too-large' {
    if (this.over) return 'too-large';
    const bytes = new Uint8Array(Buffer.concat(this.chunks, this.size));
    this.drop();
    return bytes;
  }

  private drop(): void {
    this.over = true;
    this.budget.give(this.size);
    this.size = 0;
    this.chunks = [];
  }
}

/** A decoder for a Content-Encoding the checks can read through; undefined: the bytes are kept as they are. */
export function decoderFor(encoding: string | string[] | undefined): Transform | undefined {
  switch (typeof encoding === 'string' ? encoding.trim().toLowerCase() : '') {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return undefined;
  }
}
