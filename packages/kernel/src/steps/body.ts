// The JSON body of an operation that takes one: 415 for a Content-Type that is not JSON and a
// body over the cap, both refused unread (the answer closes the connection, so the rest of the
// upload is never read); INVALID_REQUEST_BODY for bytes that are not a JSON object within the
// nesting limit. A body of at least offloadBodyBytes is left as bytes: the validation step
// decides where it is parsed and validated (in the body worker, with the whole request).
import { parseJsonBody } from '@svc/spec-runtime';
import type { Credentials } from '../auth.js';
import type { Exchange } from '../exchange.js';
import { readBodyBytes } from '../json-body.js';
import type { KernelStep, Services } from '../services.js';

/** The header parameters the operation documents, as sent (empty values count as not sent). */
export function headerParams<K extends Credentials>({ operation, incoming }: Exchange<K>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const param of operation.parameters) {
    if (param.in !== 'header') continue;
    const value = incoming.headers.get(param.name);
    if (value !== null && value !== '') headers[param.name] = value;
  }
  return headers;
}

export function bodyStep<K extends Credentials>(services: Services<K>): KernelStep<K> {
  const { bodyLimits, offloadBodyBytes, refuse } = services;
  return {
    name: 'body',
    run(x, next) {
      const { operation } = x;
      if (!operation.requestBody) return next();
      const { required } = operation.requestBody;
      return readBodyBytes(x.incoming, bodyLimits).then((read) => {
        if (read.ok && read.bytes !== 'too-large' && read.bytes.byteLength >= offloadBodyBytes) {
          x.bodyBytes = read.bytes;
          return next();
        }
        const parsed = read.ok
          ? parseJsonBody(read.bytes, x.incoming.headers.get('content-type'), required, bodyLimits)
          : read;
        if (parsed.ok) {
          x.body = parsed.value as Record<string, unknown> | undefined;
          x.bodyValueCount = parsed.valueCount;
          return next();
        }
        if (parsed.unread) x.responseHeaders.Connection = 'close';
        return refuse(x.requestId, { error: parsed.code, message: parsed.message });
      });
    },
  };
}
