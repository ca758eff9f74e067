// One HTTP exchange with a server the suite does not trust: every request is time-limited as a
// whole (connection, headers and body), the body is read up to a byte cap (counted after any
// Content-Encoding is undone, so a compressed bomb is cut off too), and whatever goes wrong ends
// as a TransportError whose kind names it: a slow or endless response, a response too large, a
// response that is not valid HTTP, or a network failure. Nothing here can hang or exhaust memory.

export type TransportFailure = 'timeout' | 'too-large' | 'malformed' | 'network';

export class TransportError extends Error {
  constructor(
    readonly kind: TransportFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface BoundedResponse {
  status: number;
  headers: Headers;
  /** The body as UTF-8 text ('' when none). */
  text: string;
}

export interface Bounds {
  /** The whole exchange, from connecting to the last byte of the body. */
  timeoutMs: number;
  /** The largest body read; a larger one is cut off and is a 'too-large' failure. */
  maxBytes: number;
}

/** 10 MiB: far above any response of the contract, far below what would trouble the process. */
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

// undici's codes for a response it could not parse (llhttp's HPE_* and its own checks).
const MALFORMED_CODES = new Set([
  'UND_ERR_HEADERS_OVERFLOW',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  'UND_ERR_INFO',
  'UND_ERR_RESPONSE_STATUS_CODE',
]);

function causeOf(error: unknown): { code?: string; message?: string } {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  return {
    ...(typeof cause?.code === 'string' ? { code: cause.code } : {}),
    ...(typeof cause?.message === 'string' ? { message: cause.message } : {}),
  };
}

class Timeout extends Error {}

async function readBody(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes && response.headers.get('content-encoding') === null) {
    await response.body?.cancel().catch(() => undefined);
    throw new TransportError(
      'too-large',
      `the response declares ${declared} bytes, more than the ${maxBytes} this run reads`,
    );
  }
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  // Leaving the loop (the throw) cancels the body.
  for await (const value of response.body as unknown as AsyncIterable<Uint8Array>) {
    total += value.byteLength;
    if (total > maxBytes)
      throw new TransportError(
        'too-large',
        `the response body is larger than the ${maxBytes} bytes this run reads (cut off)`,
      );
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks, total));
}

/** fetch with the bounds above; a failure is always a TransportError. */
export async function boundedFetch(url: string, init: RequestInit, bounds: Bounds): Promise<BoundedResponse> {
  const controller = new AbortController();
  let phase: 'headers' | 'body' = 'headers';
  const timer = setTimeout(() => controller.abort(new Timeout()), bounds.timeoutMs);
  try {
    const response = await fetch(url, { ...init, signal: controller.signal, redirect: 'manual' });
    phase = 'body';
    const text = await readBody(response, bounds.maxBytes);
    return { status: response.status, headers: response.headers, text };
  } catch (error) {
    if (error instanceof TransportError) throw error;
    if (controller.signal.reason instanceof Timeout) {
      throw new TransportError(
        'timeout',
        phase === 'headers'
          ? `no response within ${bounds.timeoutMs} ms`
          : `the response body did not end within ${bounds.timeoutMs} ms (endless or too slow)`,
      );
    }
    const cause = causeOf(error);
    if (cause.code !== undefined && (cause.code.startsWith('HPE_') || MALFORMED_CODES.has(cause.code))) {
      throw new TransportError(
        'malformed',
        `the response is not valid HTTP: ${cause.message ?? cause.code} (${cause.code})`,
      );
    }
    const detail = cause.code ? ` (${cause.code})` : cause.message ? ` (${cause.message})` : '';
    throw new TransportError('network', `${(error as Error).message}${detail}`);
  } finally {
    clearTimeout(timer);
  }
}
