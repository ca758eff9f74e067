// Error bodies in the API's dialect, built only from the catalogue: status and type come from the
// code, retryable from the catalogue (or the rule for rate limits and 5xx), the suggestion from
// x-svc-suggestion unless the caller has a better one.
import { type Catalogue, isRetryable } from './catalogue.js';
import type { Operation } from './operations.js';
import { headerText } from './request-id.js';
import { previewValue, type Violation } from './violations.js';

export interface FieldError {
  field: string;
  code: string;
  message: string;
}

export interface ApiErrorBody {
  error: {
    type: string;
    code: string;
    message: string;
    retryable: boolean;
    request_id: string;
    doc_url: string;
    param?: string;
    suggestion?: string;
    errors?: FieldError[];
    retry_after_seconds?: number;
  };
}

export interface BuildErrorOptions {
  requestId: string;
  message?: string;
  param?: string;
  /** Overrides the catalogue's suggestion; null leaves the suggestion out. */
  suggestion?: string | null;
  errors?: FieldError[];
  retryAfterSeconds?: number;
}

export interface BuiltError {
  status: number;
  body: ApiErrorBody;
}

export function buildError(
  catalogue: Catalogue,
  docUrlBase: string,
  code: string,
  options: BuildErrorOptions,
): BuiltError {
  const entry = catalogue.get(code);
  if (!entry) throw new Error(`Unknown error code ${code}: it is not in the contract's catalogue.`);
  const suggestion = options.suggestion === null ? undefined : (options.suggestion ?? entry.suggestion);
  return {
    status: entry.status,
    body: {
      error: {
        type: entry.type,
        code,
        message: options.message ?? entry.description,
        retryable: isRetryable(entry),
        request_id: headerText(options.requestId),
        doc_url: `${docUrlBase}${code}`,
        ...(options.param !== undefined ? { param: options.param } : {}),
        ...(suggestion !== undefined ? { suggestion } : {}),
        ...(options.errors && options.errors.length > 0 ? { errors: options.errors } : {}),
        ...(options.retryAfterSeconds !== undefined ? { retry_after_seconds: options.retryAfterSeconds } : {}),
      },
    },
  };
}

/**
 * errors[] lists at most this many fields, so an error body stays small whatever the request
 * held; when more failed, the message says how many (the entries keep the documented
 * { field, code, message } shape, and no entry is invented to carry the note).
 */
export const MAX_FIELD_ERRORS = 20;

export interface ErrorChoice {
  code: string;
  status: number;
  message: string;
  param?: string;
  errors?: FieldError[];
}

function listed(catalogue: Catalogue, operation: Operation, code: string | null): code is string {
  if (code === null) return false;
  const entry = catalogue.get(code);
  return entry !== undefined && (operation.codesByStatus.get(entry.status)?.has(code) ?? false);
}

function single(catalogue: Catalogue, violation: Violation & { code: string }): ErrorChoice {
  const entry = catalogue.get(violation.code)!;
  // A parameter-level code may turn a malformed id into a 404: say so in the resource's words.
  const message =
    entry.status === 400 || !('value' in violation)
      ? `${violation.message}.`
      : `${entry.description.replace(/\.$/, '')}: ${violation.field} ${previewValue(violation.value)}.`;
  return { code: violation.code, status: entry.status, message, param: violation.field };
}

/** The code of a request whose fields fail, and of each failing field that names no code of its own. */
export const INVALID_REQUEST = 'INVALID_REQUEST';

/**
 * Picks the one error to answer a list of violations with, among the codes the operation lists:
 * 1. a path parameter whose code is a listed 404 (the resource cannot exist; the rest is moot);
 * 2. a single violation whose code the operation lists for that code's status;
 * 3. INVALID_REQUEST with errors[] (each field with its own code, else INVALID_REQUEST);
 * 4. without INVALID_REQUEST on the operation, the first violation whose code it lists;
 * 5. violations only in the path and nothing listed: the URL names no documented resource,
 *    which is the API-wide ENDPOINT_NOT_FOUND.
 */
export function errorFor(catalogue: Catalogue, violations: readonly Violation[], operation: Operation): ErrorChoice {
  if (violations.length === 0) throw new Error('errorFor needs at least one violation.');
  const isListed = (v: Violation): v is Violation & { code: string } => listed(catalogue, operation, v.code);
  const notFound = violations.find(
    (v) => v.location === 'path' && isListed(v) && catalogue.get(v.code!)?.status === 404,
  );
  if (notFound && isListed(notFound)) return single(catalogue, notFound);
  const [first] = violations;
  if (violations.length === 1 && first && isListed(first)) return single(catalogue, first);
  const listedErrors = violations.slice(0, MAX_FIELD_ERRORS);
  const invalidRequest: ErrorChoice = {
    code: INVALID_REQUEST,
    status: catalogue.get(INVALID_REQUEST)?.status ?? 400,
    message:
      violations.length > MAX_FIELD_ERRORS
        ? `Request validation failed; errors lists the first ${MAX_FIELD_ERRORS} of ${violations.length} failing fields`
        : 'Request validation failed',
    errors: listedErrors.map((v) => ({ field: v.field, code: v.code ?? INVALID_REQUEST, message: v.message })),
  };
  if (listed(catalogue, operation, INVALID_REQUEST)) return invalidRequest;
  const firstListed = violations.find(isListed);
  if (firstListed) return single(catalogue, firstListed);
  if (violations.every((v) => v.location === 'path') && catalogue.has('ENDPOINT_NOT_FOUND')) {
    return {
      code: 'ENDPOINT_NOT_FOUND',
      status: catalogue.get('ENDPOINT_NOT_FOUND')!.status,
      message: `No endpoint at this URL: ${violations.map((v) => v.message).join('; ')}.`,
    };
  }
  // Nothing the operation documents fits: answer INVALID_REQUEST anyway (response validation
  // reports it as undocumented for this operation, which is what a contract gap looks like).
  return invalidRequest;
}
