// The forms a key takes in what a server answers and in what the tool writes, so that redaction
// finds it in each: as it is, JSON-escaped (a quote, a backslash, a control character), with `/`
// written `\/` (JSON allows it), escaped twice (a message quoting a value, inside a JSON report),
// and with letters written as `\u00XX` (decoded before the scan). Report files are redacted as
// values before they are serialised (redactValues), so their own escaping never hides a key.
export interface Secret {
  value: string;
  /** What replaces it, e.g. ${SVC_API_KEY}. */
  placeholder: string;
}

export type Redactor = (text: string) => string;

const jsonEscaped = (text: string) => JSON.stringify(text).slice(1, -1);

/** The secret in each form JSON text may hold it, each with the secret's placeholder. */
export function escapedForms(secret: Secret): Secret[] {
  const once = jsonEscaped(secret.value);
  const twice = jsonEscaped(once);
  const forms = new Set([secret.value, once, once.replaceAll('/', '\\/'), twice, twice.replaceAll('/', '\\\\/')]);
  return [...forms].map((value) => ({ value, placeholder: secret.placeholder }));
}

const HEX = /^[0-9a-fA-F]{4}$/;
/** Characters safe to write bare inside a JSON string: letters, digits, `-`, `_`, `.`. */
const BARE = /^[A-Za-z0-9_.-]$/;

/**
 * The text with `\uXXXX` escapes of letters, digits, `-`, `_` and `.` written as the characters
 * (an escaped backslash is kept as it is): the same JSON, in which a key spelt with escapes is
 * found. One linear scan; text without `\u` is returned as it is.
 */
export function decodeBareEscapes(text: string): string {
  if (!text.includes('\\u')) return text;
  let out = '';
  let at = 0;
  while (at < text.length) {
    const next = text.indexOf('\\', at);
    if (next < 0) break;
    out += text.slice(at, next);
    const hex = text.slice(next + 2, next + 6);
    const char = text[next + 1] === 'u' && HEX.test(hex) ? String.fromCharCode(Number.parseInt(hex, 16)) : '';
    if (BARE.test(char)) {
      out += char;
      at = next + 6;
    } else {
      out += text.slice(next, next + 2);
      at = next + 2;
    }
  }
  return out + text.slice(at);
}

/** A copy of `value` with every string in it (object keys too) redacted: for objects about to be serialised. */
export function redactValues<T>(value: T, redact: Redactor): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactValues(v, redact)) as T;
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) copy[redact(k)] = redactValues(v, redact);
  return copy as T;
}
