// Names the request in its answer, whatever the answer: the client's non-empty X-Request-Id or a
// fresh `req_` id, and the Idempotency-Key echoed on every answer to a request that sent one.
import { requestIdFor } from '@svc/spec-runtime';
import type { Credentials } from '../auth.js';
import type { KernelStep, Services } from '../services.js';

export function requestIdStep<K extends Credentials>({ names }: Services<K>): KernelStep<K> {
  return {
    name: 'request id',
    run(x, next) {
      x.requestId = requestIdFor(x.incoming.headers.get(names.requestId));
      x.responseHeaders[names.requestId] = x.requestId;
      const key = x.incoming.headers.get(names.idempotencyKey);
      if (key !== null && key !== '') {
        x.idempotencyKey = key;
        x.responseHeaders[names.idempotencyKey] = key;
      }
      return next();
    },
  };
}
