import { SvcApiError } from './errors.js';
import { HEADERS } from './generated/contract.js';
import { wasReplayed } from './idempotency.js';
import { redactSecret } from './logging.js';
import type { SvcResultMeta } from './types.js';

/** Any `{ data, error, response }` result: this client's, or openapi-fetch's own. */
export interface ResultLike {
  data?: unknown;
  error?: unknown;
  response: Response;
  requestId?: string | undefined;
}

/** The successful data of a result type (never the error branch). */
export type DataOf<Result> = Result extends { error?: never; data: infer Data } ? Data : never;

/**
 * Returns the data of a successful result, or throws the {@link SvcApiError} of a failed one.
 *
 * @example
 * const thread = unwrap(await svc.GET('/v2/api/threads/{id}', { params: { path: { id } } })).data;
 */
export function unwrap<Result extends ResultLike>(result: Result): DataOf<Result> {
  if (!result.response.ok) throw SvcApiError.fromResponse(result.response, result.error, result.requestId);
  return result.data as DataOf<Result>;
}

/**
 * Adds the client's metadata to openapi-fetch's result, and scrubs the API key from an error
 * body (the service's messages include the failing value, so a 401 may echo the key).
 */
export function withMeta<Result extends ResultLike>(
  result: Result,
  sentRequestId: string | undefined,
  idempotencyKey: string | undefined,
  secret: string,
): Result & SvcResultMeta {
  // openapi-fetch's result is a fresh object of ours to complete: filled in place, not copied.
  const completed = result as Result & SvcResultMeta;
  let bodyRequestId: unknown;
  if (result.error !== undefined) {
    completed.error = redactSecret(result.error, secret);
    bodyRequestId = (completed.error as { error?: { request_id?: unknown } } | undefined)?.error?.request_id;
  }
  completed.requestId =
    result.response.headers.get(HEADERS.requestId) ??
    (typeof bodyRequestId === 'string' ? bodyRequestId : sentRequestId);
  completed.idempotencyKey = idempotencyKey;
  completed.replayed = wasReplayed(result.response);
  return completed;
}
