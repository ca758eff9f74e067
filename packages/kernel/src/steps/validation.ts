// The request against its operation's contract (path, query, header parameters and body), refused
// with the documented code the contract chooses. This step decides where that runs: here, or,
// for a body the body step left as bytes (offloadBodyBytes or more), in the body worker, which
// parses the body and validates the whole request there, so that a hostile body near the cap
// never holds the main thread; the answer is the same either way.
import type { Credentials } from '../auth.js';
import { checkInWorker } from '../body-offload.js';
import type { Exchange } from '../exchange.js';
import type { KernelStep, Services } from '../services.js';
import { headerParams } from './body.js';

function inWorker<K extends Credentials>(services: Services<K>, x: Exchange<K>, bytes: Uint8Array) {
  const { contract, bodyLimits, refuse, refuseChoice } = services;
  const { operation } = x;
  return checkInWorker(contract, {
    operationId: operation.operationId,
    params: x.params,
    query: x.query.toString(),
    headers: headerParams(x),
    bytes,
    contentType: x.incoming.headers.get('content-type'),
    required: operation.requestBody?.required ?? false,
    limits: bodyLimits,
  }).then((checked) => {
    if (checked.ok) {
      x.body = checked.value as Record<string, unknown> | undefined;
      x.bodyValueCount = checked.valueCount;
      return true as const;
    }
    return 'invalid' in checked
      ? refuseChoice(x.requestId, checked.invalid)
      : refuse(x.requestId, { error: checked.code, message: checked.message });
  });
}

export function validationStep<K extends Credentials>(services: Services<K>): KernelStep<K> {
  const { contract, refuseChoice } = services;
  return {
    name: 'validation',
    run(x, next) {
      const { bodyBytes } = x;
      if (bodyBytes !== undefined)
        return inWorker(services, x, bodyBytes).then((valid) => (valid === true ? next() : valid));
      const { operation, params, query, body, bodyValueCount } = x;
      const headers = headerParams(x);
      const violations = contract.validateRequest(operation, { params, query, headers, body, bodyValueCount });
      return violations.length === 0 ? next() : refuseChoice(x.requestId, contract.errorFor(violations, operation));
    },
  };
}
