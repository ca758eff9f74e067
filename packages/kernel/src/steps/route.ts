// The operation a request calls, from its method and path: 404 ENDPOINT_NOT_FOUND for a path the
// contract does not document, 405 METHOD_NOT_ALLOWED with Allow for a method the path does not
// serve. HEAD is answered as GET is (the adapters send no body), so Allow lists HEAD wherever it
// lists GET (RFC 9110 9.3.2: a general-purpose server supports GET and HEAD).
import type { Credentials } from '../auth.js';
import { clip } from '../error-answer.js';
import type { KernelStep, Services } from '../services.js';

/** The methods a path serves, as Allow lists them: HEAD wherever GET is. */
export function allowHeader(allowed: readonly string[]): string {
  return (allowed.includes('GET') && !allowed.includes('HEAD') ? [...allowed, 'HEAD'] : allowed).join(', ');
}

export function routeStep<K extends Credentials>({ contract, refuse }: Services<K>): KernelStep<K> {
  return {
    name: 'route',
    run(x, next) {
      const { pathname } = x;
      // HEAD is GET without the body: the same status and headers, Content-Length included, so
      // the messages quote GET as well (RFC 9110 9.3.2).
      const method = x.method === 'HEAD' ? 'GET' : x.method;
      const route = contract.matchRoute(method, pathname);
      if (!('error' in route)) {
        x.operation = route.operation;
        x.params = route.params;
        return next();
      }
      if (route.error === 'ENDPOINT_NOT_FOUND')
        return refuse(x.requestId, { error: route.error, message: `No endpoint at ${method} ${clip(pathname)}.` });
      const allow = allowHeader(route.allowed);
      x.responseHeaders.Allow = allow;
      return refuse(x.requestId, {
        error: route.error,
        message: `${method} is not supported on ${clip(pathname)}; allowed: ${allow}.`,
      });
    },
  };
}
