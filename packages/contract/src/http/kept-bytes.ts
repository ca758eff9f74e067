// The bytes of a body kept for checking, up to a cap: past it nothing more is kept and the body is
// 'too-large' (what was kept is dropped, so holding a body never costs more than the cap).
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

export class KeptBytes {
  private chunks: Buffer[] = [];
  private size = 0;
  over = false;

  constructor(private readonly cap: number) {}

  add(chunk: Buffer): void {
    if (this.over) return;
    this.size += chunk.length;
    if (this.size > this.cap) {
      this.over = true;
      this.chunks = [];
    } else this.chunks.push(chunk);
  }

  result(): Uint8Array | 'too-large' {
    return this.over ? 'too-large' : new Uint8Array(Buffer.concat(this.chunks, this.size));
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
