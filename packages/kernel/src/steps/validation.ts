// The request against its operation's contract (path, query, header parameters and body), refused
// with the documented code the contract chooses. A request the body worker validated is not
// validated again.
import type { Credentials } from '../auth.js';
import type { KernelStep, Services } from '../services.js';
import { headerParams } from './body.js';

export function validationStep<K extends Credentials>({ contract, refuseChoice }: Services<K>): KernelStep<K> {
  return {
    name: 'validation',
    run(x, next) {
      if (x.validated) return next();
      const { operation, params, query, body, bodyValueCount } = x;
      const headers = headerParams(x);
      const violations = contract.validateRequest(operation, { params, query, headers, body, bodyValueCount });
      return violations.length === 0 ? next() : refuseChoice(x.requestId, contract.errorFor(violations, operation));
    },
  };
}
