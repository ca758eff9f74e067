// node:http as a web-standard fetch handler sees it, for the requests the node adapter leaves to
// fetch (odd targets, repeated headers, bodies without a length, a server's own and web routes):
// Node's request as a web Request, the fetch handler's Response written back with backpressure.
// A kernel's own answers (AnswerResponse) are written from the Answer they carry, headers as the
// pipeline named them, so both ways answer byte for byte alike; any other Response (a file of
// /docs) is streamed, and cancelled when the client hangs up. No request's URL is built from its
// Host header: the host of every URL is `localhost` (the path and query are what the steps read;
// the Host header stays a header), so a hostile Host cannot move the path.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { Answer } from './pipeline.js';

/** A Response of the kernel's own pipeline, with the Answer it was made from (written as it is over node:http). */
export class AnswerResponse extends Response {
  /** `head`: the answer to a HEAD request, GET's status and headers without the body. */
  constructor(
    readonly answer: Answer,
    head: boolean,
  ) {
    super(head ? null : answer.body, { status: answer.status, headers: answer.headers });
  }
}

/** The URL of a request target: origin-form under `http://localhost`, absolute-form over http(s); else undefined. */
export function urlOfTarget(target: string): string | undefined {
  if (target.startsWith('/')) return `http://localhost${target}`;
  if (!target.startsWith('http://') && !target.startsWith('https://')) return undefined; // `*`, authority-form
  try {
    return new URL(target).href;
  } catch {
    return undefined;
  }
}

/** Node's request as a web Request (its body streamed), or undefined when no web Request can show it. */
export function webRequestOf(incoming: IncomingMessage, signal: AbortSignal): Request | undefined {
  const url = urlOfTarget(incoming.url ?? '');
  if (url === undefined) return undefined;
  const method = incoming.method ?? 'GET';
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  try {
    for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
    if (method === 'GET' || method === 'HEAD') return new Request(url, { method, headers, signal });
    const body = Readable.toWeb(incoming) as ReadableStream<Uint8Array>;
    return new Request(url, { method, headers, signal, body, duplex: 'half' } as RequestInit);
  } catch {
    return undefined; // a method WHATWG fetch forbids (TRACE), a header value it refuses
  }
}

/** Resolves once the response can take more, or has closed. */
function drained(outgoing: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      outgoing.off('drain', done).off('close', done);
      resolve();
    };
    outgoing.on('drain', done).on('close', done);
  });
}

function headersOf(response: Response): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  return headers;
}

/** Writes a fetch handler's Response to node:http; a client that hangs up cancels the body. */
export async function writeResponse(response: Response, outgoing: ServerResponse): Promise<void> {
  if (response instanceof AnswerResponse) {
    // Node sends no body in answer to HEAD, whatever it is given.
    const { status, headers, body } = response.answer;
    outgoing.writeHead(status, headers).end(body ?? undefined);
    return;
  }
  outgoing.writeHead(response.status, headersOf(response));
  if (response.body === null) {
    outgoing.end();
    return;
  }
  const reader = response.body.getReader();
  const hungUp = () => void reader.cancel().catch(() => undefined);
  outgoing.once('close', hungUp);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (outgoing.destroyed) return;
      if (!outgoing.write(value)) await drained(outgoing);
    }
    if (!outgoing.destroyed) outgoing.end();
  } finally {
    outgoing.off('close', hungUp);
  }
}
