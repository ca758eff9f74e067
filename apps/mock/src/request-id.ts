// Request ids: the client's X-Request-Id when it sent a non-empty one, else `req_` followed by 12
// alphanumerics (the format info.x-svc-limits.request_id_pattern states).
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

// Random bytes are drawn 4 KiB at a time rather than with one getRandomValues call per request.
const pool = new Uint8Array(4096);
let used = pool.length;

function randomByte(): number {
  if (used === pool.length) {
    crypto.getRandomValues(pool);
    used = 0;
  }
  return pool[used++] as number;
}

export function generateRequestId(): string {
  // A byte modulo 62 is very slightly biased: fine for ids that must be unique, not secret.
  let id = 'req_';
  for (let i = 0; i < 12; i++) id += ALPHANUMERIC[randomByte() % ALPHANUMERIC.length];
  return id;
}

export function requestIdFor(clientValue: string | undefined): string {
  return clientValue !== undefined && clientValue !== '' ? clientValue : generateRequestId();
}
