// The JSON body of an operation that takes one: 415 for a Content-Type that is not JSON and a
// body over the cap, both refused unread (the answer closes the connection, so the rest of the
// upload is never read); INVALID_REQUEST_BODY for bytes that are not a JSON object within the
// nesting limit. A body of at least offloadBodyBytes is read in the body worker, which validates
// the whole request there: the validation step then has nothing left to do.
import type { Credentials } from '../auth.js';
import type { Exchange } from '../exchange.js';
import { readJsonBody } from '../json-body.js';
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
  const { contract, bodyLimits, offloadBodyBytes, refuse, refuseChoice } = services;
  return {
    name: 'body',
    run(x, next) {
      const { operation } = x;
      if (!operation.requestBody) return next();
      const offload = {
        contract,
        minBytes: offloadBodyBytes,
        request: () => ({
          operationId: operation.operationId,
          params: x.params,
          query: x.query.toString(),
          headers: headerParams(x),
        }),
      };
      return readJsonBody(x.incoming, operation.requestBody.required, bodyLimits, offload).then((read) => {
        if (read.ok) {
          x.body = read.value as Record<string, unknown> | undefined;
          x.bodyValueCount = read.valueCount;
          x.validated = 'validated' in read;
          return next();
        }
        if ('invalid' in read) return refuseChoice(x.requestId, read.invalid);
        if (read.unread) x.responseHeaders.Connection = 'close';
        return refuse(x.requestId, { error: read.code, message: read.message });
      });
    },
  };
}
