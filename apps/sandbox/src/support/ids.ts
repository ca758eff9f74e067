// Random identifiers: request ids (`req_` + 12 alphanumerics) and resource ids with the API's
// prefixes (`cth-`, `thc-`, ...). crypto.getRandomValues is web-standard and global in Node 20.
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

// Random bytes are drawn 4 KiB at a time: one getRandomValues call per request showed up in
// profiles of the request path.
const pool = new Uint8Array(4096);
let used = pool.length;

function randomByte(): number {
  if (used === pool.length) {
    crypto.getRandomValues(pool);
    used = 0;
  }
  return pool[used++] as number;
}

export function randomAlphanumeric(length: number): string {
  // 62 symbols: a byte modulo 62 is very slightly biased, which is fine for ids that only need to
  // be unique, not secret.
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHANUMERIC[randomByte() % ALPHANUMERIC.length];
  return out;
}

export function generateRequestId(): string {
  return `req_${randomAlphanumeric(12)}`;
}

/** A new id with the given prefix ("cth-"), unique among `taken`. */
export function newId(prefix: string, taken: (id: string) => boolean = () => false): string {
  for (;;) {
    const id = `${prefix}${randomAlphanumeric(8)}`;
    if (!taken(id)) return id;
  }
}

/** Lower-case hex, for ids whose form the API shows without a prefix (dialer queues). */
export function randomHex(length: number): string {
  let out = '';
  while (out.length < length) out += randomByte().toString(16).padStart(2, '0');
  return out.slice(0, length);
}
