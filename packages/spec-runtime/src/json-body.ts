// How every server of this repository reads a JSON request body, whatever carries the bytes (a
// web Request in the sandbox, node:http in the mock): Content-Type first (415), then the size cap,
// strict UTF-8, JSON.parse, a nesting limit (walked iteratively, so a hostile body cannot exhaust
// the stack) and finally "must be an object". Every failure is INVALID_REQUEST_BODY or
// UNSUPPORTED_MEDIA_TYPE, never an exception.
export type BodyResult =
  | { ok: true; value: Record<string, unknown> | undefined }
  | { ok: false; code: 'INVALID_REQUEST_BODY' | 'UNSUPPORTED_MEDIA_TYPE'; message: string };

export interface BodyLimits {
  maxBytes: number;
  maxDepth: number;
}

export const DEFAULT_BODY_LIMITS: BodyLimits = { maxBytes: 1024 * 1024, maxDepth: 32 };

export const JSON_MEDIA_TYPE = /^application\/json\s*(;.*)?$/i;

/** The 415 answer for a Content-Type other than JSON, checked before any byte is read. */
export function unsupportedContentType(contentType: string | null | undefined): BodyResult | undefined {
  if (contentType === null || contentType === undefined || JSON_MEDIA_TYPE.test(contentType.trim())) return undefined;
  return { ok: false, code: 'UNSUPPORTED_MEDIA_TYPE', message: `Content-Type ${clip(contentType)} is not supported; use application/json.` };
}

/** Interprets the bytes of a body (or 'too-large' when more than limits.maxBytes arrived). */
export function parseJsonBody(
  bytes: Uint8Array | 'too-large',
  contentType: string | null | undefined,
  required: boolean,
  limits: BodyLimits = DEFAULT_BODY_LIMITS,
): BodyResult {
  const unsupported = unsupportedContentType(contentType);
  if (unsupported) return unsupported;
  if (bytes === 'too-large') {
    return { ok: false, code: 'INVALID_REQUEST_BODY', message: `The request body is larger than ${limits.maxBytes} bytes.` };
  }
  if (bytes.byteLength === 0) {
    return required ? { ok: false, code: 'INVALID_REQUEST_BODY', message: 'The request body is empty; send a JSON object.' } : { ok: true, value: undefined };
  }
  if (contentType === null || contentType === undefined) {
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
  if (nestedDeeperThan(value, limits.maxDepth)) {
    return { ok: false, code: 'INVALID_REQUEST_BODY', message: `The request body is nested deeper than ${limits.maxDepth} levels.` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const got = Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`;
    return { ok: false, code: 'INVALID_REQUEST_BODY', message: `The request body must be a JSON object; got ${got}.` };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

function nestedDeeperThan(value: unknown, maxDepth: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (typeof node !== 'object' || node === null) continue;
    if (depth > maxDepth) return true;
    for (const child of Object.values(node)) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
