// The sandbox's next step for a body field the receptionist update does not take (400
// UNKNOWN_FIELD, found by the kernel's validation): the receptionist's read-only fields and its
// prompt are written elsewhere, as the contract's description of the operation says.
const READ_ONLY = new Set(['status', 'is_default', 'agent.status', 'agent.is_default']);

export function unknownFieldSuggestion(code: string, param: string | undefined): string | undefined {
  if (code !== 'UNKNOWN_FIELD' || param === undefined) return undefined;
  if (READ_ONLY.has(param))
    return `Remove ${param} from the body: it is read-only here (the receptionist is turned on or off by a separate operation).`;
  if (param === 'prompt')
    return 'Remove prompt from the body: the prompt is written by the separate set-prompt operation, which replaces the whole section list.';
  return `Remove ${param} from the body: unknown fields are refused, never ignored.`;
}
