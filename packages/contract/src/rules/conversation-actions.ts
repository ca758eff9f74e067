// The conversation actions as the contract lists them: ConversationAction's enum, and its
// x-svc-transitions (which action leads to which state). Read by every check that acts on a
// conversation, so that no action name is typed in a check.
import type { CheckContext } from './harness.js';

export interface Transition {
  trigger: string;
  to: string;
}

export function actionSchema(t: CheckContext): { actions: string[]; transitions: Transition[] } {
  const schema = t.spec.schema('ConversationAction');
  const actions = Array.isArray(schema?.enum) ? schema.enum.map(String) : [];
  const transitions = Array.isArray(schema?.['x-svc-transitions'])
    ? (schema['x-svc-transitions'] as unknown as Transition[])
    : [];
  return { actions, transitions };
}

/** The action whose transition leads to a state (read, unread, archived), from ConversationAction's x-svc-transitions. */
export function actionTo(t: CheckContext, state: string): string | undefined {
  return actionSchema(t)
    .transitions.find((tr) => tr.to === state)
    ?.trigger.replace(/^action /, '');
}
