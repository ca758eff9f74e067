// Request ids, the same for every server of this repository: the client's X-Request-Id when it
// sent a non-empty one, else `req_` followed by 12 alphanumerics (info.x-svc-limits
// .request_id_pattern). crypto.getRandomValues is web-standard and global in Node 20.
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

// Random bytes are drawn 4 KiB at a time: one getRandomValues call per request showed up in
// profiles of the sandbox's request path.
const pool = new Uint8Array(4096);
let used = pool.length;

/** One random byte from the pool. */
export function randomByte(): number {
  if (used === pool.length) {
    crypto.getRandomValues(pool);
    used = 0;
  }
  return pool[used++] as number;
}

/** `length` random letters and digits. */
export function randomAlphanumeric(length: number): string {
  // 62 symbols: a byte modulo 62 is very slightly biased, which is fine for ids that only need to
  // be unique, not secret.
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHANUMERIC[randomByte() % ALPHANUMERIC.length];
  return out;
}

/** A new request id, `req_` + 12 alphanumerics. */
export function generateRequestId(): string {
  return `req_${randomAlphanumeric(12)}`;
}

/** The id of a request: the client's X-Request-Id when it sent a non-empty one, else a new one. */
export function requestIdFor(clientValue: string | null | undefined): string {
  return clientValue ? clientValue : generateRequestId();
}

/**
 * The text of a header value as its sender wrote it. HTTP carries header bytes; Node (and fetch)
 * hand them over one byte per character, so a client's UTF-8 `X-Request-Id` arrives as mojibake
 * and, quoted in a JSON body, would go back encoded twice. Bytes that form valid UTF-8 are read
 * as UTF-8; anything else is left as it came.
 */
export function headerText(value: string): string {
  let ascii = true;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code > 0xff) return value; // not a byte string: already text
    if (code > 0x7f) ascii = false;
  }
  if (ascii) return value;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(value, (c) => c.charCodeAt(0)));
  } catch {
    return value;
  }
}
