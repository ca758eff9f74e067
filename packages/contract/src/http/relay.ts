// One exchange relayed between a client and the upstream over node:http, bytes in, bytes out: the
// path exactly as sent, every end-to-end header (repeated ones apart, in order), the bodies as
// streams of any size and content; only the hop-by-hop headers go (RFC 9110 7.6.1) and only
// `Via` is added. node:http answers `Expect: 100-continue` itself, so Expect is not forwarded.
//
// Beside the relay, a copy of each body is kept for checking, up to a cap: the response's counted
// after its Content-Encoding is undone (on the copy only; the client gets the bytes as sent).
// Past the cap the body is 'too-large' and the relay goes on. When the client hangs up, the
// upstream request is destroyed: nothing more is read. The whole exchange has one time limit.
import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { TransportFailure } from './bounded-fetch.js';
import { endToEnd, toHeaders } from './hop-by-hop.js';
import { decoderFor, type KeptBudget, KeptBytes } from './kept-bytes.js';

export const VIA = '1.1 svc-contract';

export interface RelayOptions {
  upstream: URL;
  timeoutMs: number;
  /** Most response bytes kept for checking, after decompression. */
  maxResponseBytes: number;
  /** Most request bytes kept for checking. */
  maxRequestBytes: number;
  /** What every exchange at once may keep for checking. */
  budget: KeptBudget;
}

export interface Relayed {
  /** The request target as the client sent it (origin form). */
  target: string;
  requestHeaders: Headers;
  requestBody: Uint8Array | 'too-large';
  /** 0 when no response came. */
  status: number;
  headers: Headers;
  body: Uint8Array | 'too-large';
  /** The response body was not kept because the shared budget was spent, not because of its size. */
  overBudget: boolean;
  failure?: { kind: TransportFailure; message: string };
  /** The client left before the answer was complete. */
  clientGone: boolean;
  /** When the request arrived and when the upstream's answer began (performance.now(), ms): the rate windows' order. */
  sentAt: number;
  receivedAt?: number;
  /** From the request's arrival to the end of the answer. */
  durationMs: number;
}

type Failure = { kind: TransportFailure; message: string };

/** The target in origin form: as sent when it is a path; the path and query of an absolute URL (never another host). */
export function originForm(url: string): string {
  if (url.startsWith('/') || !URL.canParse(url)) return url;
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

function withVia(headers: Record<string, string[]>): Record<string, string[]> {
  const name = Object.keys(headers).find((n) => n.toLowerCase() === 'via') ?? 'Via';
  headers[name] = [...(headers[name] ?? []), VIA];
  return headers;
}

function failureOf(error: unknown): Failure {
  const { code, message } = error as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : String(error);
  return typeof code === 'string' && code.startsWith('HPE_')
    ? { kind: 'malformed', message: `the response is not valid HTTP: ${text} (${code})` }
    : { kind: 'network', message: typeof code === 'string' ? `${text} (${code})` : text };
}

/** Keeps the (decoded) response body up to the cap; settles when the body and its decoding end. */
function keepResponse(upstream: IncomingMessage, kept: KeptBytes): Promise<Uint8Array | 'too-large' | Error> {
  const decoder = decoderFor(upstream.headers['content-encoding']);
  return new Promise((resolve) => {
    if (!decoder) {
      upstream.on('data', (chunk: Buffer) => kept.add(chunk));
      upstream.on('end', () => resolve(kept.result()));
      return;
    }
    decoder.on('data', (chunk: Buffer) => {
      kept.add(chunk);
      // Past the cap the decoding stops: a bomb costs the cap, not its expansion.
      if (kept.over) decoder.destroy();
    });
    decoder.on('error', (error) => resolve(error));
    // 'close' comes after 'end', 'error' or a destroy past the cap, whichever happened: the first settles.
    decoder.on('close', () => resolve(kept.result()));
    upstream.on('data', (chunk: Buffer) => {
      if (!decoder.destroyed) decoder.write(chunk);
    });
    upstream.on('end', () => (decoder.destroyed ? resolve(kept.result()) : decoder.end()));
    upstream.on('close', () => decoder.destroyed || upstream.complete || decoder.destroy());
  });
}

function upstreamRequest(req: IncomingMessage, target: string, options: RelayOptions): ClientRequest {
  const { upstream } = options;
  const base = upstream.pathname.replace(/\/+$/, '');
  const headers = withVia(endToEnd(req.rawHeaders, ['host', 'expect']));
  return (upstream.protocol === 'https:' ? httpsRequest : httpRequest)({
    hostname: upstream.hostname.replace(/^\[|\]$/g, ''),
    port: upstream.port || undefined,
    method: req.method,
    path: `${base}${target}`,
    headers: { Host: upstream.host, ...headers },
    setHost: false,
  });
}

/** A relayed exchange before anything came back: no status, no body kept yet. */
function pending(req: IncomingMessage, target: string): Relayed {
  return {
    target,
    requestHeaders: toHeaders(req.rawHeaders),
    requestBody: 'too-large',
    status: 0,
    headers: new Headers(),
    body: 'too-large',
    overBudget: false,
    clientGone: false,
    sentAt: performance.now(),
    durationMs: 0,
  };
}

/** How one exchange ends: with a failure (the client told, if it can be) or once the body is relayed. */
interface Ending {
  fail(failure: Failure): void;
  finish(): void;
}

/** Relays the upstream's answer to the client as it comes, keeping a copy of its body in `result`. */
function relayAnswer(
  upstream: IncomingMessage,
  res: ServerResponse,
  result: Relayed,
  kept: KeptBytes,
  end: Ending,
): void {
  result.receivedAt = performance.now();
  result.status = upstream.statusCode ?? 0;
  result.headers = toHeaders(upstream.rawHeaders);
  try {
    res.sendDate = false;
    for (const [name, values] of Object.entries(withVia(endToEnd(upstream.rawHeaders))))
      res.setHeader(name, values.length === 1 ? (values[0] as string) : values);
    res.writeHead(result.status, upstream.statusMessage);
  } catch (error) {
    end.fail({ kind: 'malformed', message: `the response cannot be relayed: ${(error as Error).message}` });
    return;
  }
  upstream.on('error', (error) => end.fail(failureOf(error)));
  upstream.on('aborted', () => end.fail({ kind: 'network', message: 'the upstream closed the connection mid-body' }));
  upstream.pipe(res);
  keepResponse(upstream, kept).then((body) => {
    if (body instanceof Error)
      result.failure ??= {
        kind: 'malformed',
        message: `the response body's Content-Encoding could not be decoded: ${body.message}`,
      };
    else result.body = body;
    end.finish();
  });
}

export function relay(req: IncomingMessage, res: ServerResponse, options: RelayOptions): Promise<Relayed> {
  const target = originForm(req.url ?? '/');
  const requestKept = new KeptBytes(options.maxRequestBytes, options.budget);
  const responseKept = new KeptBytes(options.maxResponseBytes, options.budget);
  const result = pending(req, target);
  return new Promise((resolve) => {
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      result.durationMs = Math.round(performance.now() - result.sentAt);
      result.requestBody = requestKept.result();
      result.overBudget = responseKept.overBudget;
      responseKept.result(); // gives back whatever a cut-off exchange still held
      resolve(result);
    };
    const up = upstreamRequest(req, target, options);
    const fail = (failure: Failure) => {
      if (settled) return;
      result.failure ??= failure;
      up.destroy();
      if (res.headersSent) res.destroy();
      else
        res
          .writeHead(502, { 'Content-Type': 'text/plain; charset=utf-8', Via: VIA })
          .end(`svc-contract proxy: the upstream did not answer: ${failure.message}\n`);
      finish();
    };
    const timer = setTimeout(
      () => fail({ kind: 'timeout', message: `no complete answer within ${options.timeoutMs} ms` }),
      options.timeoutMs,
    );
    up.on('error', (error) => fail(failureOf(error)));
    up.on('response', (upstream) => relayAnswer(upstream, res, result, responseKept, { fail, finish }));
    // The client hung up (mid-body or before the answer ended): stop reading the upstream.
    res.on('close', () => {
      if (res.writableFinished || settled) return;
      result.clientGone = true;
      up.destroy();
      finish();
    });
    req.on('data', (chunk: Buffer) => requestKept.add(chunk));
    req.pipe(up);
  });
}
