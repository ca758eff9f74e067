// Reads a JSON request body defensively: Content-Type first (415), then at most maxBytes (a larger
// body is refused without being buffered), strict UTF-8, JSON.parse, a nesting limit (walked
// iteratively, so a hostile body cannot exhaust the stack) and finally "must be an object".
// Every failure is INVALID_REQUEST_BODY or UNSUPPORTED_MEDIA_TYPE, never an exception.
export type BodyResult =
  | { ok: true; value: Record<string, unknown> | undefined }
  | { ok: false; code: 'INVALID_REQUEST_BODY' | 'UNSUPPORTED_MEDIA_TYPE'; message: string };

export interface BodyLimits {
  maxBytes: number;
  maxDepth: number;
}

const JSON_MEDIA_TYPE = /^application\/json\s*(;.*)?$/i;

export async function readJsonBody(request: Request, required: boolean, limits: BodyLimits): Promise<BodyResult> {
  const contentType = request.headers.get('content-type');
  if (contentType !== null && !JSON_MEDIA_TYPE.test(contentType.trim())) {
    return { ok: false, code: 'UNSUPPORTED_MEDIA_TYPE', message: `Content-Type ${clip(contentType)} is not supported; use application/json.` };
  }
  const bytes = await readCapped(request, limits.maxBytes);
  if (bytes === 'too-large') {
    return { ok: false, code: 'INVALID_REQUEST_BODY', message: `The request body is larger than ${limits.maxBytes} bytes.` };
  }
  if (bytes.byteLength === 0) {
    return required ? { ok: false, code: 'INVALID_REQUEST_BODY', message: 'The request body is empty; send a JSON object.' } : { ok: true, value: undefined };
  }
  if (contentType === null) {
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

async function readCapped(request: Request, maxBytes: number): Promise<Uint8Array | 'too-large'> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) return 'too-large';
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return 'too-large';
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
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
