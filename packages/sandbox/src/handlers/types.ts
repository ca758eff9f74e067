// What an operation handler receives and returns. Handlers run after authentication,
// authorisation, idempotency and contract validation: params, query and body are known to
// conform to the contract, so a handler only checks what the contract cannot (existence,
// uniqueness, line access, state).

import type { Failure, Outcome } from '@svc/server-kernel';
import type { FieldError } from '@svc/spec-runtime';
import type { ApiKeyRecord, TeamRecord } from '../store/model.js';

export type { Failure };

export interface HandlerContext {
  team: TeamRecord;
  key: ApiKeyRecord;
  /** Path parameters, URL-decoded. */
  params: Record<string, string>;
  query: URLSearchParams;
  /** The JSON body (an object) of operations that take one. */
  body: Record<string, unknown>;
  /** The current time as an ISO 8601 timestamp (from the injectable clock). */
  now(): string;
  /** A new id with this prefix, unique within the team. */
  newId(prefix: string): string;
}

export type Handler = (ctx: HandlerContext) => Outcome;

/** A status and a JSON body (none for 204). */
export const ok = (body: unknown, status = 200): Outcome => ({ status, body });
export const noContent = (): Outcome => ({ status: 204 });
export const fail = (error: string, message: string, extra: Omit<Failure, 'error' | 'message'> = {}): Failure => ({
  error,
  message,
  ...extra,
});

/** INVALID_REQUEST with one entry per field, for checks the contract's schemas cannot express. */
export function invalid(errors: FieldError[]): Failure {
  return fail('INVALID_REQUEST', 'Request validation failed', { errors });
}
