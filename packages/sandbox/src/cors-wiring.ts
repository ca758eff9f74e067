// Puts loopback-cors.ts on the sandbox's two ways in (a web Request, and node:http taken as it is):
// a preflight is answered before the kernel sees it (it is no API call: it counts against no rate
// limit), and any other answer to a loopback origin under the API's folder gets the CORS headers.
// A request without such an Origin passes untouched.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NodeHandler } from '@svc/server-kernel';
import type { Contract } from '@svc/spec-runtime';
import { type CorsPolicy, type CorsRequest, corsHeadersFor, corsPolicyOf, preflightAnswer } from './loopback-cors.js';

type FetchHandler = (request: Request) => Response | Promise<Response>;

function corsRequestOf(request: Request): CorsRequest {
  return {
    method: request.method,
    pathname: new URL(request.url).pathname,
    origin: request.headers.get('Origin'),
    requestMethod: request.headers.get('Access-Control-Request-Method'),
  };
}

/** The answer with `extra` headers added where it has none of that name. */
function withHeaders(response: Response, extra: Record<string, string>): Response {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(extra)) if (!headers.has(name)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

export function fetchWithLoopbackCors(fetch: FetchHandler, policy: CorsPolicy): FetchHandler {
  return (request) => {
    if (!request.headers.has('Origin')) return fetch(request);
    const cors = corsRequestOf(request);
    const preflight = preflightAnswer(policy, cors);
    if (preflight) return new Response(null, preflight);
    const extra = corsHeadersFor(policy, cors);
    if (!extra) return fetch(request);
    const answer = fetch(request);
    return answer instanceof Promise ? answer.then((done) => withHeaders(done, extra)) : withHeaders(answer, extra);
  };
}

function header(incoming: IncomingMessage, name: string): string | undefined {
  const value = incoming.headers[name];
  return typeof value === 'string' ? value : undefined;
}

export function nodeWithLoopbackCors(serveNode: NodeHandler, policy: CorsPolicy): NodeHandler {
  return (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const origin = header(incoming, 'origin');
    if (origin === undefined) return serveNode(incoming, outgoing);
    const cors: CorsRequest = {
      method: incoming.method ?? 'GET',
      // The path alone (the query cannot change the folder); an odd target is fetch's to judge.
      pathname: (incoming.url ?? '').split('?', 1)[0]!,
      origin,
      requestMethod: header(incoming, 'access-control-request-method'),
    };
    const preflight = preflightAnswer(policy, cors);
    if (preflight) {
      outgoing.writeHead(preflight.status, preflight.headers).end();
      return true;
    }
    // Set before the answer, which may be written at once: Node merges them with the headers
    // writeHead is given, and those win on a clash. Left to fetch, the fetch side adds its own.
    const extra = Object.entries(corsHeadersFor(policy, cors) ?? {});
    for (const [name, value] of extra) outgoing.setHeader(name, value);
    const served = serveNode(incoming, outgoing);
    if (!served) for (const [name] of extra) outgoing.removeHeader(name);
    return served;
  };
}

/** The sandbox's two ways in, with CORS for loopback origins. */
export function withLoopbackCors(
  fetch: FetchHandler,
  serveNode: NodeHandler,
  contract: Contract,
): { fetch: FetchHandler; serveNode: NodeHandler } {
  const policy = corsPolicyOf(contract);
  return { fetch: fetchWithLoopbackCors(fetch, policy), serveNode: nodeWithLoopbackCors(serveNode, policy) };
}
