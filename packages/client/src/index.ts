/**
 * `@svc/api-client`: the typed client of the Team Communications Service API.
 *
 * `createSvcClient()` wraps openapi-fetch's `createClient<paths>()`: every path, parameter, body
 * and response is typed from the contract, and the client adds authentication, retries,
 * idempotency keys, client-side rate limiting, timeouts, typed errors, request ids, pagination
 * and redacted logging. Web-standard only: Node 20+, Bun, Deno and edge workers.
 *
 * @packageDocumentation
 */

export type { ErrorCode, ErrorType, FieldError, operations, paths, Scope } from '@svc/api-types';
export { createSvcClient, type SvcClient, type SvcClientOptions } from './client.js';
export { MAX_ERROR_BODY_BYTES } from './error-body.js';
export {
  isErrorCode,
  SvcApiError,
  type SvcApiErrorFields,
  SvcConnectionError,
  SvcError,
  SvcTimeoutError,
} from './errors.js';
export type { SvcLogEvent, SvcLogger } from './logging.js';
export type { SvcRateLimitOptions } from './rate-limit.js';
export { type DataOf, unwrap } from './result.js';
export type { FetchLike } from './transport.js';
export type {
  InitArgument,
  OperationResponse,
  SvcListItem,
  SvcListPath,
  SvcMethod,
  SvcMethodName,
  SvcPage,
  SvcPaginateOptions,
  SvcPath,
  SvcRequestOptions,
  SvcResult,
  SvcResultMeta,
  SvcSuccess,
} from './types.js';
