// A node:http request as the kernel's pipeline reads it, without building a web Request (the
// profile of a keyed write put @hono/node-server's Request, its URL parse of any `%` and its body
// plumbing among the larger costs): Node's parsed headers, the body read whole into one Buffer.
// Only requests that a web Request would show exactly the same come this way (plainTarget);
// every other one goes through `fetch`.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** What the pipeline reads of a request: a web Request has it all; so has a NodeRequest. */
export interface KernelRequest {
  method: string;
  headers: { get(name: string): string | null };
  signal: { aborted: boolean };
  body: ReadableStream<Uint8Array> | null;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** Answers a node:http request itself (true) or leaves it to the fetch handler (false). */
export type NodeHandler = (incoming: IncomingMessage, outgoing: ServerResponse) => boolean;

// Printable ASCII that WHATWG URL never escapes in a path or query, and no dot segment (which it
// would resolve; `%2e` counts as a dot): the target is then exactly what `new URL` would give.
// Neither expression can backtrack (one character class; one fixed-width alternation).
const PLAIN_TARGET = /^\/[!$%&()*+,\-./0-9:;=?@A-Z[\]_a-z~]*$/;
const DOT_SEGMENT = /\/(?:\.|%2e)/i;

export function plainTarget(incoming: IncomingMessage, prefix: string): string | undefined {
  const { url = '', headers, rawHeaders } = incoming;
  if (!url.startsWith(prefix) || !PLAIN_TARGET.test(url) || DOT_SEGMENT.test(url)) return undefined;
  // A repeated header is joined (or for some names dropped) by Node differently from a web
  // Request, and a body without a Content-Length is read as a stream: both go through fetch.
  if (rawHeaders.length !== 2 * Object.keys(headers).length || headers['transfer-encoding'] !== undefined)
    return undefined;
  return url;
}

export class NodeRequest implements KernelRequest {
  readonly body = null;
  constructor(private readonly incoming: IncomingMessage) {}

  get method(): string {
    return this.incoming.method ?? 'GET';
  }

  /** Itself: `get` answers as a web Request's headers.get does (no closure per request). */
  get headers(): this {
    return this;
  }

  get(name: string): string | null {
    const value = this.incoming.headers[name.toLowerCase()];
    return typeof value === 'string' ? value : null;
  }

  get signal(): { aborted: boolean } {
    return { aborted: this.incoming.destroyed && !this.incoming.complete };
  }

  /** The body (its Content-Length, already checked against the cap, is all it can be). */
  arrayBuffer(): Promise<ArrayBuffer> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      this.incoming
        .on('data', (chunk: Buffer) => chunks.push(chunk))
        .once('end', () => {
          const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
          resolve(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
        })
        .once('error', reject)
        // Closed before 'end': the client hung up mid-body. (The Error only then: it costs a stack.)
        .once(
          'close',
          () => this.incoming.complete || reject(new Error('The client closed the request before its body ended.')),
        );
    });
  }

  /** The web Request (without its body, which the pipeline has read) for what asks for one. */
  toRequest(): Request {
    const headers = new Headers();
    const raw = this.incoming.rawHeaders;
    for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
    // The target is plain (see plainTarget), so this URL always parses; the host does not matter.
    return new Request(`http://localhost${this.incoming.url}`, { method: this.method, headers });
  }
}

/** The longest shared leading folder of the paths (`/v2/api/` for this API's operations). */
export function sharedFolder(paths: readonly string[]): string {
  let prefix = paths[0] ?? '/';
  for (const path of paths) while (!path.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix.slice(0, prefix.lastIndexOf('/') + 1);
}
