import type { ErrorCode, ErrorType, FieldError } from '@svc/api-types';
import { ERROR_CATALOGUE, ERROR_TYPES, HEADERS } from './generated/contract.js';

/** Base class of every error this client throws itself (caller aborts stay the platform's `AbortError`). */
export class SvcError extends Error {
  override name = 'SvcError';
}

/** The fields of an {@link SvcApiError}, in the client's camelCase. */
export interface SvcApiErrorFields {
  /** HTTP status of the response. */
  status: number;
  /** Error category (`validation_error`, `rate_limit_error`, …); `undefined` when the body is not the API's error dialect. */
  type: ErrorType | undefined;
  /** Stable machine-readable code from the contract's catalogue; `undefined` when the body carries none the catalogue knows. */
  code: ErrorCode | undefined;
  /** Human-readable explanation (the API key, if echoed, is redacted). */
  message: string;
  /** Whether repeating the same request may succeed. */
  retryable: boolean;
  /** The request id: `error.request_id`, else the `X-Request-Id` response header, else the id the caller sent. */
  requestId: string | undefined;
  /** The offending parameter, when the API names one. */
  param: string | undefined;
  /** The next step the API suggests. */
  suggestion: string | undefined;
  /** Link to the error's documentation. */
  docUrl: string | undefined;
  /** Field-level failures (code INVALID_REQUEST); empty otherwise. */
  errors: readonly FieldError[];
  /** Seconds to wait before retrying (rate limits only). */
  retryAfterSeconds: number | undefined;
}

// The fields of SvcApiError are declared once, in SvcApiErrorFields (read-only there), and set
// by its constructor (`message` is Error's own): its base is SvcError typed with them (a cast
// through unknown, as TypeScript sees fields no constructor of SvcError sets).
const SvcErrorWithFields = SvcError as unknown as new (
  message?: string,
  options?: ErrorOptions,
) => SvcError & Readonly<Omit<SvcApiErrorFields, 'message'>>;

/**
 * An error response of the API, with every field of its `{ "error": { … } }` body.
 *
 * Thrown by `unwrap()`, by clients created with `throwOnError: true` and by the paginators; build
 * one yourself from any `{ error, response }` result with {@link SvcApiError.fromResponse}.
 */
export class SvcApiError extends SvcErrorWithFields {
  override name = 'SvcApiError';

  constructor(fields: SvcApiErrorFields) {
    super(fields.message);
    Object.assign(this, fields);
  }

  /**
   * Builds the error from a response and its parsed body (any body: one that is not the API's
   * error dialect, such as a proxy's HTML page, still gives the status and a message).
   */
  static fromResponse(response: Response, body: unknown, requestId?: string | undefined): SvcApiError {
    const error = errorObjectOf(body);
    const code = isErrorCode(error.code) ? error.code : undefined;
    const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
    return new SvcApiError({
      status: response.status,
      type: ERROR_TYPES.includes(error.type as ErrorType) ? (error.type as ErrorType) : undefined,
      code,
      message: text(error.message) ?? (typeof body === 'string' && body ? body : `HTTP ${response.status}`),
      // The body's own flag wins; the catalogue fills in where the body is silent; a bare 429 or
      // 5xx (a gateway's, say) is presumed transient.
      retryable:
        typeof error.retryable === 'boolean'
          ? error.retryable
          : ((code && ERROR_CATALOGUE[code].retryable) ?? (response.status === 429 || response.status >= 500)),
      requestId: text(error.request_id) ?? response.headers.get(HEADERS.requestId) ?? requestId,
      param: text(error.param),
      suggestion: text(error.suggestion),
      docUrl: text(error.doc_url),
      errors: Array.isArray(error.errors) ? (error.errors as FieldError[]) : [],
      retryAfterSeconds: typeof error.retry_after_seconds === 'number' ? error.retry_after_seconds : undefined,
    });
  }
}

/** The request ran out of time (the per-attempt `timeoutMs`); a caller's own abort is never reported as this. */
export class SvcTimeoutError extends SvcError {
  override name = 'SvcTimeoutError';
  constructor(
    /** The time limit that was exceeded, in milliseconds. */
    readonly timeoutMs: number,
    /** The `X-Request-Id` the caller sent, if any (the service never answered, so it generated none we know). */
    readonly requestId: string | undefined,
  ) {
    super(`The request timed out after ${timeoutMs} ms`);
  }
}

/** The request never got a response: connection refused, reset or dropped. */
export class SvcConnectionError extends SvcError {
  override name = 'SvcConnectionError';
  constructor(
    cause: unknown,
    /** The `X-Request-Id` the caller sent, if any. */
    readonly requestId: string | undefined,
  ) {
    super(`The request failed before a response arrived: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
  }
}

/** Whether a value is a code of the contract's error catalogue. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CATALOGUE, value);
}

function errorObjectOf(body: unknown): Record<string, unknown> {
  const error = body && typeof body === 'object' ? (body as { error?: unknown }).error : undefined;
  return error && typeof error === 'object' ? (error as Record<string, unknown>) : {};
}
