// What the key may do: 403 API_KEY_TRIAL_NOT_ALLOWED on a trial plan, API_KEY_INSUFFICIENT_SCOPE
// without a scope the operation requires (auth.ts says it in the API's words).
import { authorize, type Credentials } from '../auth.js';
import type { KernelStep, Services } from '../services.js';

export function authorizationStep<K extends Credentials>({ refuse }: Services<K>): KernelStep<K> {
  return {
    name: 'scopes and plan',
    run(x, next) {
      const refusal = authorize(x.operation, x.key);
      return refusal ? refuse(x.requestId, { ...refusal, error: refusal.code }) : next();
    },
  };
}
