// A documented error as the bytes a step answers with: the contract builds the body (type,
// status and retryable from the catalogue); a server may add a suggestion of its own for a code
// (the sandbox's words for the receptionist's read-only fields) and point doc_url elsewhere.
import type { Contract, ErrorChoice } from '@svc/spec-runtime';
import type { Failure } from './call.js';
import type { StoredResponse } from './idempotency.js';

/** A server's own next step for an error the kernel found (undefined: the contract's). */
export type SuggestionFor = (code: string, param: string | undefined, requestId: string) => string | undefined;

export type Refuse = (requestId: string, failure: Failure & { retryAfterSeconds?: number }) => StoredResponse;

export function errorAnswers(
  contract: Contract,
  docUrl?: (code: string) => string,
  suggestionFor?: SuggestionFor,
): { refuse: Refuse; refuseChoice: (requestId: string, choice: ErrorChoice) => StoredResponse } {
  const refuse: Refuse = (requestId, failure) => {
    const { error: code, message, param, errors, retryAfterSeconds } = failure;
    const suggestion = failure.suggestion ?? suggestionFor?.(code, param, requestId);
    // buildError leaves out whatever is undefined (and errors when empty).
    const built = contract.buildError(code, { requestId, message, param, suggestion, errors, retryAfterSeconds });
    if (docUrl) built.body.error.doc_url = docUrl(code);
    return { status: built.status, text: JSON.stringify(built.body) };
  };
  return { refuse, refuseChoice: (requestId, choice) => refuse(requestId, { ...choice, error: choice.code }) };
}

/** A request's own text quoted in a message, cut short: an answer never grows with a hostile URL. */
export function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 197)}... (${text.length} characters)` : text;
}
