// Reads a JSON request body from a web Request: the byte cap is enforced while reading (a larger
// body is refused without being buffered); what the bytes mean (415, INVALID_REQUEST_BODY, the
// nesting limit) is decided by @svc/spec-runtime, the same for every server of this repository.
import { type BodyLimits, type BodyResult, parseJsonBody, unsupportedContentType } from '@svc/spec-runtime';

export type { BodyLimits, BodyResult };

export async function readJsonBody(request: Request, required: boolean, limits: BodyLimits): Promise<BodyResult> {
  const contentType = request.headers.get('content-type');
  const unsupported = unsupportedContentType(contentType);
  if (unsupported) return unsupported;
  return parseJsonBody(await readCapped(request, limits.maxBytes), contentType, required, limits);
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
