// Who calls: 401 UNAUTHORIZED (no or a malformed Authorization), API_KEY_INVALID or
// API_KEY_REVOKED. The key was looked up once, when the rate limit counted it (Exchange.caller).
import type { Credentials } from '../auth.js';
import { isRefusal } from '../exchange.js';
import type { KernelStep, Services } from '../services.js';

export function authenticationStep<K extends Credentials>({ refuse }: Services<K>): KernelStep<K> {
  return {
    name: 'authentication',
    run(x, next) {
      const caller = x.caller();
      if (isRefusal(caller)) return refuse(x.requestId, { ...caller, error: caller.code });
      x.key = caller;
      return next();
    },
  };
}
