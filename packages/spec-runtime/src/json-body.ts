// How every server of this repository reads a JSON request body, whatever carries the bytes (a
// web Request in the sandbox, node:http in the mock): Content-Type first (415), then the size cap,
// strict UTF-8, a nesting limit (counted on the text before parsing, so a hostile body is refused
// before anything is built), JSON.parse and finally "must be an object". Every failure is INVALID_REQUEST_BODY or
// UNSUPPORTED_MEDIA_TYPE, never an exception.
import type { Contract } from './contract.js';
import type { ErrorChoice } from './errors.js';

export type BodyResult =
  // valueCount: how many JSON values (objects, arrays and scalars) the body holds, counted on the
  // text; validateRequest takes it instead of walking a large parsed body to learn its size.
  | { ok: true; value: Record<string, unknown> | undefined; valueCount?: number }
  // unread: the body was refused before all of it was read (larger than the cap, or a Content-Type
  // refused before reading); the server should close the connection with its answer rather than
  // read and discard the remainder.
  | { ok: false; code: 'INVALID_REQUEST_BODY' | 'UNSUPPORTED_MEDIA_TYPE'; message: string; unread?: true };

export interface BodyLimits {
  maxBytes: number;
  maxDepth: number;
}

// 64 KiB: the server's own limit (the API description sets none, so the contract marks none).
// The largest body the contract bounds is a thread's content of 4,000 characters: written as
// escaped surrogate pairs (`\ud83d\ude00`, 12 bytes per character) it is about 48,100 bytes;
// the largest example the contract gives (a receptionist update) is 760 bytes. The cap keeps the
// largest body a server parses (and the list of violations it may hold) a quarter of what 256 KiB
// allowed: one request of it holds Node's single thread for a few milliseconds, not tens.
export const DEFAULT_BODY_LIMITS: BodyLimits = { maxBytes: 64 * 1024, maxDepth: 32 };

export const JSON_MEDIA_TYPE = /^application\/json\s*(;.*)?$/i;

/** The 415 answer for a Content-Type other than JSON, checked before any byte is read. */
export function unsupportedContentType(
  contentType: string | null | undefined,
): Extract<BodyResult, { ok: false }> | undefined {
  if (contentType === null || contentType === undefined || JSON_MEDIA_TYPE.test(contentType.trim())) return undefined;
  return {
    ok: false,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: `Content-Type ${clip(contentType)} is not supported; use application/json.`,
  };
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
    return {
      ok: false,
      code: 'INVALID_REQUEST_BODY',
      message: `The request body is larger than ${limits.maxBytes} bytes.`,
      unread: true,
    };
  }
  if (bytes.byteLength === 0) {
    return required
      ? { ok: false, code: 'INVALID_REQUEST_BODY', message: 'The request body is empty; send a JSON object.' }
      : { ok: true, value: undefined };
  }
  if (contentType === null || contentType === undefined) {
    return {
      ok: false,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'The request has a body but no Content-Type; use application/json.',
    };
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, code: 'INVALID_REQUEST_BODY', message: 'The request body is not valid UTF-8.' };
  }
  // The nesting is checked on the text, before JSON.parse builds anything: 400 000 nested
  // arrays are refused at the 33rd bracket instead of being built and walked. The same pass
  // counts the values, which spares walking the parsed body later.
  const shape = scanJsonText(text, limits.maxDepth);
  if (shape === 'too-deep') {
    return {
      ok: false,
      code: 'INVALID_REQUEST_BODY',
      message: `The request body is nested deeper than ${limits.maxDepth} levels.`,
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      code: 'INVALID_REQUEST_BODY',
      message: `The request body is not valid JSON: ${clip((error as Error).message)}.`,
    };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const got = Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`;
    return { ok: false, code: 'INVALID_REQUEST_BODY', message: `The request body must be a JSON object; got ${got}.` };
  }
  return { ok: true, value: value as Record<string, unknown>, valueCount: shape.valueCount };
}

/** A request whose body is read and checked away from the server's main thread (@svc/server-kernel's body worker). */
export interface BodyTask {
  bytes: Uint8Array;
  contentType: string | null;
  required: boolean;
  limits: BodyLimits;
  operationId: string;
  /** The rest of the request, so that the whole of it is validated at once, as on the main thread. */
  params: Record<string, string>;
  query: string;
  headers: Record<string, string>;
}

/** A body refused (BodyResult), or read but with the request invalid (the documented error chosen), or valid. */
export type CheckedBody = BodyResult | { ok: false; invalid: ErrorChoice };

/**
 * parseJsonBody, then the whole request validated: what a server does with a body, as plain data
 * in and out (a worker's message). A valid request comes back with its body to answer it.
 */
export function checkJsonRequest(contract: Contract, task: BodyTask): CheckedBody {
  const read = parseJsonBody(task.bytes, task.contentType, task.required, task.limits);
  const operation = contract.operationsById.get(task.operationId);
  if (!read.ok || !operation) return read;
  const { params, headers } = task;
  const violations = contract.validateRequest(operation, {
    params,
    headers,
    query: new URLSearchParams(task.query),
    body: read.value,
    bodyValueCount: read.valueCount,
  });
  return violations.length === 0 ? read : { ok: false, invalid: contract.errorFor(violations, operation) };
}

/**
 * Whether the JSON text opens more than `maxDepth` arrays or objects inside one another, counting
 * brackets outside strings in one pass (stopping as soon as it knows). Text that is not JSON is
 * left to JSON.parse to refuse.
 */
export function nestedDeeperThan(text: string, maxDepth: number): boolean {
  return scanJsonText(text, maxDepth) === 'too-deep';
}

/**
 * One pass over JSON text, outside strings: 'too-deep' as soon as more than `maxDepth` arrays or
 * objects are open inside one another, else the number of values the text holds (exact for valid
 * JSON: the top value, plus one per comma, plus one per array or object that is not empty, since
 * a container of n values holds n - 1 commas).
 */
export function scanJsonText(text: string, maxDepth: number): 'too-deep' | { valueCount: number } {
  let depth = 0;
  let inString = false;
  let commas = 0;
  let filled = 0;
  let justOpened = false; // an array or object opened, and nothing but whitespace seen since
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 92)
        i++; // a backslash escapes the next character
      else if (code === 34) inString = false;
      continue;
    }
    if (code === 32 || code === 10 || code === 13 || code === 9) continue;
    if (justOpened && code !== 93 && code !== 125) filled++;
    justOpened = false;
    if (code === 34) inString = true;
    else if (code === 44) commas++;
    else if (code === 91 || code === 123) {
      if (++depth > maxDepth) return 'too-deep';
      justOpened = true;
    } else if (code === 93 || code === 125) depth--;
  }
  return { valueCount: 1 + commas + filled };
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
