// Reads a JSON request body from node:http before Prism sees it, because Prism's own answers to a
// bad body are not the API's: a non-JSON Content-Type is 415 UNSUPPORTED_MEDIA_TYPE; an empty
// required body, bytes that are not UTF-8 or JSON, or JSON that is not an object are 400
// INVALID_REQUEST_BODY. Only a parsed object goes on to Prism's schema validation.
// What the bytes mean (415, INVALID_REQUEST_BODY, size and nesting limits) is decided by
// @svc/spec-runtime, the same for every server of this repository; this module reads node:http.
import type { IncomingMessage } from 'node:http';
import { type BodyResult, DEFAULT_BODY_LIMITS, parseJsonBody, unsupportedContentType } from '@svc/spec-runtime';

export type { BodyResult };

export const DEFAULT_MAX_BODY_BYTES = DEFAULT_BODY_LIMITS.maxBytes;

/** The bytes of the body; 'too-large' once more than maxBytes arrived (the rest is drained unread). */
export function readBytes(request: IncomingMessage, maxBytes: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let tooLarge = false;
    request.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxBytes) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
    });
    request.once('end', () => resolve(tooLarge ? 'too-large' : Buffer.concat(chunks, total)));
    request.once('error', reject);
  });
}

export async function readJsonBody(request: IncomingMessage, required: boolean, maxBytes = DEFAULT_BODY_LIMITS.maxBytes): Promise<BodyResult> {
  const contentType = request.headers['content-type'];
  const unsupported = unsupportedContentType(contentType);
  if (unsupported) {
    request.resume(); // drain, unread, so the connection can carry the answer
    return unsupported;
  }
  return parseJsonBody(await readBytes(request, maxBytes), contentType, required, { ...DEFAULT_BODY_LIMITS, maxBytes });
}
