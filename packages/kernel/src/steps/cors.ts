// CORS for loopback origins (loopback-cors.ts), when the server asks for it (the sandbox): a
// preflight from a loopback page under the API's folder is answered here, 204 with what may be
// sent, before the rate limit counts it; any other request from such a page passes on with the
// headers that let the page read its answer. Every other request passes untouched: a foreign
// origin gets no Access-Control-* header, and an OPTIONS that is no preflight its documented 405.
import type { Credentials } from '../auth.js';
import { corsHeadersFor, preflightAnswer } from '../loopback-cors.js';
import type { KernelStep, Services } from '../services.js';

export function corsStep<K extends Credentials>({ cors }: Services<K>): KernelStep<K> {
  return {
    name: 'CORS (loopback origins)',
    run(x, next) {
      if (cors === undefined) return next();
      const origin = x.incoming.headers.get('origin');
      if (origin === null) return next();
      const request = {
        method: x.method,
        pathname: x.pathname,
        origin,
        requestMethod: x.incoming.headers.get('access-control-request-method'),
      };
      const preflight = preflightAnswer(cors, request);
      if (preflight) {
        Object.assign(x.responseHeaders, preflight.headers);
        return { status: preflight.status, text: null };
      }
      Object.assign(x.responseHeaders, corsHeadersFor(cors, request));
      return next();
    },
  };
}
