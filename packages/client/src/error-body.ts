// An error body is read within a bound. openapi-fetch reads an error response whole
// (`response.text()`), and the retry hints read a 429's or a 5xx's too: a gateway or a broken
// server can answer megabytes, or never end. The transport reads each error body once, up to
// MAX_ERROR_BODY_BYTES, and hands up a response holding those bytes; one over the bound is
// dropped (the error then carries its status and headers only).

/** The most bytes of an error response's body the client reads (the API's error bodies are a few hundred). */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

/** The body's bytes when they fit within the bound, else null (the rest is cancelled, not read). */
async function readWithin(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array | null> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return concat(chunks, size);
    size += value.length;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
}

/** The response as it came when it is not an error; an error's with its body read within the bound. */
export async function boundErrorBody(response: Response, limit = MAX_ERROR_BODY_BYTES): Promise<Response> {
  if (response.status < 400 || response.body === null) return response;
  const bytes = await readWithin(response.body, limit);
  const headers = new Headers(response.headers);
  // The body handed up is already decoded and whole: the wire's framing headers no longer apply.
  headers.delete('content-encoding');
  headers.delete('content-length');
  if (bytes === null) headers.delete('content-type');
  return new Response(bytes as BodyInit | null, { status: response.status, statusText: response.statusText, headers });
}
