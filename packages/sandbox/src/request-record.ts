// What the request log keeps of one answered exchange, made from the kernel's view of it: never
// the key (the Authorization header becomes the key's name; the key's own text, wherever else the
// request carries it, becomes `<redacted:name>`), bodies clipped to their first bytes and copied
// (a slice of a 4 MB answer would keep the whole of it alive), header values clipped. An own
// route's successful answer is not kept (the contract config's demo keys, a lookup's own record).
import type { Answer, Exchange } from '@svc/server-kernel';
import { apiKeyOf, type ServerHeaderNames } from '@svc/spec-runtime';
import type { KeptBody, LoggedExchange, LoggedMessage, RequestLog } from './request-log.js';
import type { SandboxKey } from './store/store.js';

/** Per-exchange cost beyond the bytes counted: the objects and the ring's slot. */
const OVERHEAD_BYTES = 512;
const HEADER_VALUE_CHARS = 256;
const PATH_CHARS = 2048;
/** A made-up key this short could be any word: it is not looked for in the request's text. */
const SHORTEST_REDACTED_KEY = 8;

interface Redaction {
  token: string | undefined;
  name: string;
}

/** A fresh copy of at most `max` characters: never a slice that keeps a long string alive. */
function copyText(text: string, max: number): string {
  return Buffer.from(text.length > max ? `${text.slice(0, max)}…` : text, 'utf8').toString('utf8');
}

function redact(text: string, redaction: Redaction): string {
  const { token, name } = redaction;
  if (token === undefined || token.length < SHORTEST_REDACTED_KEY || !text.includes(token)) return text;
  return text.replaceAll(token, `<redacted:${name}>`);
}

/** The first `max` bytes of a text, redacted first (a key straddling the cut is still found), as a fresh string. */
function headOf(text: string, max: number, redaction: Redaction): string {
  const kept = Buffer.from(redact(text.slice(0, max + 64), redaction), 'utf8');
  return (kept.length > max ? kept.subarray(0, max) : kept).toString('utf8');
}

/**
 * The body as kept: whole when it fits in `max` bytes (an answer's text is its own string, so
 * keeping it costs no copy), else its first bytes as a fresh string (a slice would keep the whole
 * body alive); and the whole body's size.
 */
function clipBody(body: string | Uint8Array | null | undefined, max: number, redaction: Redaction): KeptBody {
  if (body === null || body === undefined) return { body: undefined, bodyBytes: 0, whole: true };
  if (typeof body === 'string') {
    const bodyBytes = Buffer.byteLength(body, 'utf8');
    if (bodyBytes <= max) return { body: redact(body, redaction), bodyBytes, whole: true };
    return { body: headOf(body, max, redaction), bodyBytes, whole: false };
  }
  const bodyBytes = body.byteLength;
  const text = Buffer.from(body.buffer, body.byteOffset, Math.min(bodyBytes, max + 64)).toString('utf8');
  if (bodyBytes <= max) return { body: redact(text, redaction), bodyBytes, whole: true };
  return { body: headOf(text, max, redaction), bodyBytes, whole: false };
}

/** What a step's getter provides, or undefined when that step never ran (an early refusal). */
function provided<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/**
 * `{ authorization: 'Api-Key <redacted:name>' }`, one frozen object per key name (the store's few,
 * and "unknown key"): the headers of most requests, kept by every entry without one object each.
 */
const authorizationOnly = new Map<string, Readonly<Record<string, string>>>();
const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

function authorizationHeaders(name: string): Readonly<Record<string, string>> {
  let headers = authorizationOnly.get(name);
  if (headers === undefined) {
    if (authorizationOnly.size >= 256) authorizationOnly.clear();
    headers = Object.freeze({ authorization: `Api-Key <redacted:${name}>` });
    authorizationOnly.set(name, headers);
  }
  return headers;
}

/** The request's headers the log keeps: the Authorization as the key's name, and what names the request. */
function requestHeaders(x: Exchange<SandboxKey>, logged: readonly string[], redaction: Redaction) {
  const authorized = x.incoming.headers.get('authorization') !== null;
  let headers: Record<string, string> | undefined;
  for (const name of logged) {
    const value = x.incoming.headers.get(name);
    if (value === null) continue;
    headers ??= authorized ? { ...authorizationHeaders(redaction.name) } : {};
    headers[name] = copyText(redact(value, redaction), HEADER_VALUE_CHARS);
  }
  return headers ?? (authorized ? authorizationHeaders(redaction.name) : NO_HEADERS);
}

const OWN_ANSWER_NOT_KEPT = {
  body: undefined,
  bodyBytes: 0,
  whole: true,
  bodyOmitted: "a sandbox route's own answer is not kept",
} as const;

function requestBody(x: Exchange<SandboxKey>): string | Uint8Array | undefined {
  if (x.bodyBytes !== undefined) return x.bodyBytes;
  return x.body === undefined ? undefined : JSON.stringify(x.body);
}

function errorCodeOf(answer: Answer): string | undefined {
  if (answer.status < 400 || typeof answer.body !== 'string') return undefined;
  try {
    const code = (JSON.parse(answer.body) as { error?: { code?: unknown } }).error?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

function messageBytes(message: LoggedMessage): number {
  // Strings are counted at two bytes a character, the most V8 holds them in.
  let bytes = 2 * (message.body?.length ?? 0);
  const { headers } = message;
  for (const name in headers) bytes += 2 * (name.length + headers[name]!.length);
  return bytes;
}

function whoCalled(x: Exchange<SandboxKey>): { keyName: string | undefined; redaction: Redaction } {
  const caller = provided(() => x.caller());
  // A key the store knows was found by its own text: that is the token to redact (no second parse).
  if (caller !== undefined && 'name' in caller)
    return { keyName: caller.name, redaction: { token: caller.key, name: caller.name } };
  const token = apiKeyOf(x.incoming.headers.get('authorization'));
  return { keyName: undefined, redaction: { token, name: 'unknown key' } };
}

export interface RecordContext {
  log: RequestLog;
  /** The request headers kept beside the Authorization, lower case (Content-Type, Idempotency-Key, X-Request-Id). */
  loggedHeaders: readonly string[];
  now: () => string;
}

/** What `recordOf` needs of the contract, computed once. */
export function loggedHeaderNames(names: ServerHeaderNames): readonly string[] {
  return ['content-type', names.idempotencyKey.toLowerCase(), names.requestId.toLowerCase()];
}

/** The log's entry for an exchange the kernel just answered. */
export function recordOf(x: Exchange<SandboxKey>, answer: Answer, context: RecordContext): LoggedExchange {
  const { log, loggedHeaders, now } = context;
  const max = log.limits.bodyBytes;
  const { keyName, redaction } = whoCalled(x);
  const own = x.ownRoute !== undefined;
  const query = x.query.size > 0 ? `?${x.query.toString()}` : '';
  const sent = clipBody(requestBody(x), max, redaction);
  const request = {
    method: x.method,
    path: copyText(redact(`${x.pathname}${query}`, redaction), PATH_CHARS),
    headers: requestHeaders(x, loggedHeaders, redaction),
    body: sent.body,
    bodyBytes: sent.bodyBytes,
    whole: sent.whole,
  };
  const kept = !own || answer.status >= 400;
  const answered = kept ? clipBody(answer.body, max, redaction) : OWN_ANSWER_NOT_KEPT;
  const response = {
    status: answer.status,
    errorCode: errorCodeOf(answer),
    // The answer's own headers, not a copy: the pipeline is done with them (nothing writes to an
    // answer's headers once it has answered), and they hold the request id the entry names.
    headers: answer.headers,
    ...answered,
  };
  // Not copied: the answer's X-Request-Id holds this very string, so a copy would only add to what is kept.
  const { requestId } = x;
  const bytes = OVERHEAD_BYTES + 2 * requestId.length + messageBytes(request) + messageBytes(response);
  const operation = own ? undefined : provided(() => x.operation.operationId);
  return { seq: log.takeSeq(), requestId, at: now(), operation, keyName, request, response, bytes };
}
