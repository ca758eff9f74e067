// The plan: a trial key has no API access (403 API_KEY_TRIAL_NOT_ALLOWED), in the words of
// auth.ts, the same as the API's scopes-and-plan step says it.
import { type Credentials, planRefusal } from '../auth.js';
import type { KernelStep, Services } from '../services.js';

export function planStep<K extends Credentials>({ refuse }: Services<K>): KernelStep<K> {
  return {
    name: 'plan',
    run(x, next) {
      const refusal = planRefusal(x.key);
      return refusal ? refuse(x.requestId, { ...refusal, error: refusal.code }) : next();
    },
  };
}
