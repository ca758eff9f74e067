// Who calls, in two steps, as the rate limit is: the key is looked up first (the rate limit
// counts the request against that key's budget, an unknown key in the shared bucket), and a
// request without a valid key is refused after routing and the budget (so that an unknown path
// is told so, and a flood is told to wait): 401 UNAUTHORIZED (no or a malformed Authorization),
// API_KEY_INVALID or API_KEY_REVOKED.
import type { Credentials } from '../auth.js';
import { isRefusal } from '../exchange.js';
import type { KernelStep, Services } from '../services.js';

export function authenticationStep<K extends Credentials>(_services: Services<K>): KernelStep<K> {
  return {
    name: 'authentication',
    run(x, next) {
      x.identify();
      return next();
    },
  };
}

export function authenticationRefusalStep<K extends Credentials>({ refuse }: Services<K>): KernelStep<K> {
  return {
    name: 'authentication: refuse without a valid key',
    run(x, next) {
      const caller = x.caller();
      if (isRefusal(caller)) return refuse(x.requestId, { ...caller, error: caller.code });
      x.key = caller;
      return next();
    },
  };
}
