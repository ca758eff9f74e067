// Reads a JSON request body from a web Request: the byte cap is enforced while reading (a larger
// body is refused without being buffered); what the bytes mean (415, INVALID_REQUEST_BODY, the
// nesting limit) is decided by @svc/spec-runtime, the same for every server of this repository.
// A body of at least `offload.minBytes` is parsed, with its whole request validated, in a worker
// thread (body-offload.ts): the answer is then a CheckedBody, which may carry the error chosen.
import {
  type BodyLimits,
  type BodyResult,
  type BodyTask,
  type CheckedBody,
  type Contract,
  parseJsonBody,
  unsupportedContentType,
} from '@svc/spec-runtime';
import { checkInWorker } from './body-offload.js';
import type { KernelRequest } from './node-request.js';

export type { BodyLimits, BodyResult, CheckedBody };

/** A body read: `validated` when the worker validated the whole request with it (never again on the main thread). */
export type ReadBody = CheckedBody | (Extract<CheckedBody, { ok: true }> & { validated: true });

export interface BodyOffloadOptions {
  contract: Contract;
  minBytes: number;
  /** The rest of the request (asked only when the body goes to the worker). */
  request: () => Omit<BodyTask, 'bytes' | 'contentType' | 'required' | 'limits'>;
}

/** A body's bytes as read within the cap (not yet parsed), or why it was refused. */
export type BodyBytes = { ok: true; bytes: Uint8Array | 'too-large' } | Extract<BodyResult, { ok: false }>;

/** Reads a body's bytes within the cap, after its Content-Type: what every JSON body goes through first. */
export async function readBodyBytes(request: KernelRequest, limits: BodyLimits): Promise<BodyBytes> {
  const unsupported = unsupportedContentType(request.headers.get('content-type'));
  // Refused before a byte is read: like a body over the cap, the rest is never read (unread).
  if (unsupported) return { ...unsupported, unread: true };
  const bytes = await readCapped(request, limits.maxBytes);
  // A client that hung up mid-body gets the documented answer (which no one may read): it is the
  // client's doing, not the server's, so it is no internal error.
  if (bytes === 'aborted')
    return { ok: false, code: 'INVALID_REQUEST_BODY', message: 'The request body ended before it was complete.' };
  return { ok: true, bytes };
}

export async function readJsonBody(
  request: KernelRequest,
  required: boolean,
  limits: BodyLimits,
  offload?: BodyOffloadOptions,
): Promise<ReadBody> {
  const read = await readBodyBytes(request, limits);
  if (!read.ok) return read;
  const { bytes } = read;
  const contentType = request.headers.get('content-type');
  if (offload && bytes !== 'too-large' && bytes.byteLength >= offload.minBytes) {
    const checked = await checkInWorker(offload.contract, {
      ...offload.request(),
      bytes,
      contentType,
      required,
      limits,
    });
    return checked.ok ? { ...checked, validated: true } : checked;
  }
  return parseJsonBody(bytes, contentType, required, limits);
}

async function readCapped(request: KernelRequest, maxBytes: number): Promise<Uint8Array | 'too-large' | 'aborted'> {
  const length = request.headers.get('content-length');
  const declared = length === null || length === '' ? Number.NaN : Number(length);
  if (declared > maxBytes) return 'too-large';
  if (declared >= 0) {
    // A declared length within the cap is all the body can be (HTTP frames it so): read it whole,
    // which a NodeRequest (and @hono/node-server) does without building a stream (the faster path for every write).
    try {
      return new Uint8Array(await request.arrayBuffer());
    } catch {
      return 'aborted';
    }
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      return 'aborted';
    }
    const { done, value } = chunk;
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return 'too-large';
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}
