// What a sandbox-only route that acts must hold before it acts, so that no web page the developer
// opens can drive it (a page can send a cross-origin POST of text/plain without asking first):
// the Host must be the address the sandbox listens on (no DNS rebinding), an Origin, when sent,
// must be the sandbox's own, the body must be application/json, the key a key of the sandbox, and
// the request counts as a write of that key against the same rate limits as the API. Refusals
// are error bodies of the API's catalogue (no code is invented); the body is read up to a cap.
import type { Credentials, RateLimiter } from '@svc/server-kernel';
import { authenticate } from '@svc/server-kernel';
import { type Contract, requestIdFor, serverHeaderNames, unsupportedContentType } from '@svc/spec-runtime';

export interface GuardOptions {
  contract: Contract;
  findKey: (token: string) => Credentials | undefined;
  rateLimiter: () => RateLimiter;
  /** The origin the sandbox listens on (http://host:port); undefined when it is not served over HTTP. */
  origin: () => string | undefined;
  docUrl?: (code: string) => string;
}

export interface Refusal {
  code: string;
  message: string;
  param?: string;
  retryAfterSeconds?: number;
}

/** A refusal as the API answers one: the catalogue's status and body, the request id and rate headers. */
export function refusalResponse(
  options: Pick<GuardOptions, 'contract' | 'docUrl'>,
  request: Request,
  refusal: Refusal,
  headers: Record<string, string> = {},
): Response {
  const names = serverHeaderNames(options.contract);
  const requestId = requestIdFor(request.headers.get(names.requestId));
  const { code, ...rest } = refusal;
  const built = options.contract.buildError(code, { requestId, ...rest });
  if (options.docUrl) built.body.error.doc_url = options.docUrl(code);
  return Response.json(built.body, { status: built.status, headers: { ...headers, [names.requestId]: requestId } });
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The Host values the sandbox answers to: its own, and the other loopback names of its port when it listens on one. */
function ownHosts(origin: string): Set<string> {
  const url = new URL(origin);
  const hosts = new Set([url.host]);
  if (LOOPBACK.has(url.hostname)) for (const name of LOOPBACK) hosts.add(`${name}:${url.port}`);
  return hosts;
}

function placeRefusal(request: Request, origin: string | undefined): Refusal | undefined {
  if (origin === undefined) return undefined; // answered in-process (fetch), not over HTTP: no page can reach it
  const hosts = ownHosts(origin);
  const host = request.headers.get('host') ?? '';
  if (!hosts.has(host.toLowerCase()))
    return { code: 'FORBIDDEN', message: 'This sandbox route answers only to the address the sandbox listens on.' };
  const from = request.headers.get('origin');
  if (from !== null && ![...hosts].some((h) => from.toLowerCase() === `http://${h}`))
    return { code: 'FORBIDDEN', message: 'This sandbox route is refused to pages of another origin.' };
  return undefined;
}

/** Every rule above; undefined when the request may act, with the rate headers it must carry. */
export function guardRefusal(options: GuardOptions, request: Request): Response | { headers: Record<string, string> } {
  const place = placeRefusal(request, options.origin());
  if (place) return refusalResponse(options, request, place);
  const contentType = request.headers.get('content-type');
  const media = unsupportedContentType(contentType ?? 'none');
  if (contentType === null || media)
    return refusalResponse(options, request, {
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: media?.message ?? 'The request has no Content-Type; use application/json.',
    });
  const found = authenticate(request.headers.get('authorization'), options.findKey);
  if ('code' in found) return refusalResponse(options, request, found);
  if (found.trial)
    return refusalResponse(options, request, {
      code: 'API_KEY_TRIAL_NOT_ALLOWED',
      message: 'API access is not available on trial plans.',
    });
  const names = serverHeaderNames(options.contract);
  const rate = options.rateLimiter().consume(found.key, 'write');
  const headers = {
    [names.rateLimitLimit]: String(rate.limit),
    [names.rateLimitRemaining]: String(rate.remaining),
    [names.rateLimitReset]: String(rate.resetSeconds),
  };
  if (!rate.allowed)
    return refusalResponse(
      options,
      request,
      {
        code: 'RATE_LIMIT_EXCEEDED',
        message: `Rate limit exceeded: ${rate.limit} write requests per second.`,
        retryAfterSeconds: Math.max(1, rate.resetSeconds),
      },
      headers,
    );
  return { headers };
}

/**
 * The body as text, reading at most `cap` bytes; 'too-large' past it (the rest is never read),
 * 'aborted' when the client went away mid-body (an answer no one reads, but never an exception).
 */
export async function readCapped(request: Request, cap: number): Promise<string | 'too-large' | 'aborted'> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > cap) return 'too-large';
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const read = await reader.read().catch(() => undefined);
    if (read === undefined) return 'aborted';
    const { done, value } = read;
    if (done) break;
    size += value.byteLength;
    if (size > cap) {
      await reader.cancel().catch(() => undefined);
      return 'too-large';
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks, size));
}
