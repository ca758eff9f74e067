// What a run with writes uses up and the API cannot give back (a thread cannot be deleted and no
// operation creates an item; a deactivated summary template cannot be activated again): when it
// runs out, the skip says so in one line with the fix that works for the kind of server checked.
import { RESET_PATH } from '@svc/spec-runtime/sandbox-config';
import type { CheckContext } from './harness.js';

/** The one-line reason of a skip for a used-up fixture: `what` ran out; here is how to get more. */
export function usedUp(t: Pick<CheckContext, 'config'>, what: string, fixture: string): string {
  if (t.config.sandbox)
    return `${what}: the sandbox's reserve is used up; restart the sandbox, or reset it (POST ${RESET_PATH}, served when it runs with --enable-reset)`;
  return `${what}: name more in fixtures.${fixture} of --config`;
}
