// Reads a JSON request body from node:http before Prism sees it, because Prism's own answers to a
// bad body are not the API's: a non-JSON Content-Type is 415 UNSUPPORTED_MEDIA_TYPE; an empty
// required body, bytes that are not UTF-8 or JSON, or JSON that is not an object are 400
// INVALID_REQUEST_BODY. Only a parsed object goes on to Prism's schema validation.
import type { IncomingMessage } from 'node:http';

export type BodyResult =
  | { ok: true; value: Record<string, unknown> | undefined }
  | { ok: false; code: 'INVALID_REQUEST_BODY' | 'UNSUPPORTED_MEDIA_TYPE'; message: string };

const JSON_MEDIA_TYPE = /^application\/json\s*(;.*)?$/i;

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

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

export async function readJsonBody(request: IncomingMessage, required: boolean, maxBytes = DEFAULT_MAX_BODY_BYTES): Promise<BodyResult> {
  const contentType = request.headers['content-type'];
  if (contentType !== undefined && !JSON_MEDIA_TYPE.test(contentType.trim())) {
    request.resume();
    return { ok: false, code: 'UNSUPPORTED_MEDIA_TYPE', message: `Content-Type ${clip(contentType)} is not supported; use application/json.` };
  }
  const bytes = await readBytes(request, maxBytes);
  if (bytes === 'too-large') return { ok: false, code: 'INVALID_REQUEST_BODY', message: `The request body is larger than ${maxBytes} bytes.` };
  if (bytes.length === 0) {
    return required ? { ok: false, code: 'INVALID_REQUEST_BODY', message: 'The request body is empty; send a JSON object.' } : { ok: true, value: undefined };
  }
  if (contentType === undefined) {
    return { ok: false, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'The request has a body but no Content-Type; use application/json.' };
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, code: 'INVALID_REQUEST_BODY', message: 'The request body is not valid UTF-8.' };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, code: 'INVALID_REQUEST_BODY', message: `The request body is not valid JSON: ${(error as Error).message}.` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const got = Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`;
    return { ok: false, code: 'INVALID_REQUEST_BODY', message: `The request body must be a JSON object; got ${got}.` };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
