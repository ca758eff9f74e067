// The JSON body of an own route that reads one, by the API's own body reader (json-body.ts): 415
// for a Content-Type that is not JSON and INVALID_REQUEST_BODY for a body over the route's cap,
// both refused unread (the answer closes the connection), or for bytes that are not a JSON object.
// A route that takes no body still needs the JSON Content-Type (a page's text/plain post is
// refused), and its body is never read.
import { unsupportedContentType } from '@svc/spec-runtime';
import type { Credentials } from '../auth.js';
import { readJsonBody } from '../json-body.js';
import type { KernelStep, Services } from '../services.js';

export function ownBodyStep<K extends Credentials>({ bodyLimits, refuse }: Services<K>): KernelStep<K> {
  return {
    name: 'JSON body',
    run(x, next) {
      // Unlike the API's body, a Content-Type is required: a page's form post may send none.
      const contentType = x.incoming.headers.get('content-type');
      const unsupported = unsupportedContentType(contentType ?? 'none');
      if (contentType === null || unsupported) {
        x.responseHeaders.Connection = 'close';
        return refuse(x.requestId, {
          error: 'UNSUPPORTED_MEDIA_TYPE',
          message: unsupported?.message ?? 'The request has no Content-Type; use application/json.',
        });
      }
      const maxBytes = x.ownRoute?.maxBodyBytes;
      if (maxBytes === undefined) return next();
      return readJsonBody(x.incoming, true, { ...bodyLimits, maxBytes }).then((read) => {
        if (read.ok) {
          x.body = read.value as Record<string, unknown> | undefined;
          return next();
        }
        if ('invalid' in read) return refuse(x.requestId, { error: read.invalid.code, message: read.invalid.message });
        if (read.unread) x.responseHeaders.Connection = 'close';
        return refuse(x.requestId, { error: read.code, message: read.message });
      });
    },
  };
}
