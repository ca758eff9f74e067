// CORS for loopback origins only, so that a console served from another local port (the docs'
// `pnpm docs:serve`, a page on http://localhost:3000) can call this sandbox. Never `*`, never
// another host: an Origin that is not http://127.0.0.1, http://localhost or http://[::1] (any
// port) gets no Access-Control-* header at all, so the browser keeps the answer from its page.
// Pure functions of the contract and the request's headers; the CORS step (steps/cors.ts) puts
// them on the pipeline, before the rate limit, so a preflight is counted against no budget.
// What is allowed and exposed is read from the bundle: the API's folder and methods from its
// operations, the request headers from its header parameters and the apiKey scheme, the exposed
// headers from the names @svc/spec-runtime reads for every server.
import { type Contract, serverHeaderNames } from '@svc/spec-runtime';
import { sharedFolder } from './node-request.js';

/** Hosts of a loopback origin as WHATWG URL writes them. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
/** No real origin is longer (scheme, the longest host above, a port): longer input is not parsed. */
const MAX_ORIGIN_LENGTH = 32;
/** Seconds a browser may reuse a preflight's answer. */
export const PREFLIGHT_MAX_AGE_SECONDS = 600;

export interface CorsPolicy {
  /** The folder every operation's path lies in (`/v2/api/`): CORS applies under it only. */
  apiFolder: string;
  allowMethods: string;
  allowHeaders: string;
  exposeHeaders: string;
}

/** Whether `origin` is exactly a loopback origin over http (any port), as a browser sends it. */
export function isLoopbackOrigin(origin: string | null | undefined): origin is string {
  if (!origin || origin.length > MAX_ORIGIN_LENGTH) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  // A browser's Origin is already canonical: anything URL would rewrite (a path, a trailing dot,
  // upper case, user info) is not one.
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname) && url.origin === origin;
}

/** The header names an apiKey scheme of the bundle is sent in (`Authorization`). */
function schemeHeaders(contract: Contract): string[] {
  const components = contract.bundle.components as { securitySchemes?: Record<string, unknown> } | undefined;
  return Object.values(components?.securitySchemes ?? {}).flatMap((scheme) => {
    const { type, in: where, name } = (scheme ?? {}) as { type?: unknown; in?: unknown; name?: unknown };
    return type === 'apiKey' && where === 'header' && typeof name === 'string' ? [name] : [];
  });
}

/** What a loopback origin may send and read, from the contract. */
export function corsPolicyOf(contract: Contract): CorsPolicy {
  const { operations } = contract;
  const methods = new Set(operations.map((operation) => operation.method.toUpperCase()));
  if (methods.has('GET')) methods.add('HEAD');
  const headerParameters = operations.flatMap((operation) =>
    operation.parameters.filter((parameter) => parameter.in === 'header').map((parameter) => parameter.name),
  );
  // Content-Type: the JSON bodies' media type is not CORS-safelisted, so it must be allowed too.
  const requestHeaders = new Set(['Content-Type', ...schemeHeaders(contract), ...headerParameters]);
  return {
    apiFolder: sharedFolder(operations.map((operation) => operation.path)),
    allowMethods: [...methods].join(', '),
    allowHeaders: [...requestHeaders].join(', '),
    exposeHeaders: [...new Set(Object.values(serverHeaderNames(contract)))].join(', '),
  };
}

/** What CORS needs of a request. */
export interface CorsRequest {
  method: string;
  pathname: string;
  origin: string | null | undefined;
  /** Access-Control-Request-Method, which only a preflight carries. */
  requestMethod: string | null | undefined;
}

/** Headers to add to an answer (its own headers win on a clash); undefined: add none. */
export function corsHeadersFor(policy: CorsPolicy, request: CorsRequest): Record<string, string> | undefined {
  if (!request.pathname.startsWith(policy.apiFolder) || !isLoopbackOrigin(request.origin)) return undefined;
  return {
    'Access-Control-Allow-Origin': request.origin,
    'Access-Control-Expose-Headers': policy.exposeHeaders,
    Vary: 'Origin',
  };
}

/**
 * The answer to a CORS preflight from a loopback origin on the API's folder: 204 with what may be
 * sent. Undefined for every other request, a plain OPTIONS (no Access-Control-Request-Method)
 * included: that one keeps the documented 405 METHOD_NOT_ALLOWED with Allow, and a preflight
 * from any other origin gets that same 405, without a CORS header, which the browser refuses.
 */
export function preflightAnswer(
  policy: CorsPolicy,
  request: CorsRequest,
): { status: number; headers: Record<string, string> } | undefined {
  if (request.method.toUpperCase() !== 'OPTIONS' || !request.requestMethod) return undefined;
  const headers = corsHeadersFor(policy, request);
  if (!headers) return undefined;
  return {
    status: 204,
    headers: {
      'Access-Control-Allow-Origin': headers['Access-Control-Allow-Origin']!,
      'Access-Control-Allow-Methods': policy.allowMethods,
      'Access-Control-Allow-Headers': policy.allowHeaders,
      'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_SECONDS),
      Vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
    },
  };
}
