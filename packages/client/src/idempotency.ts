import { HEADERS, WRITE_METHODS } from './generated/contract.js';

/** Whether the contract counts this method as a write (POST, PUT, PATCH, DELETE). */
export function isWriteMethod(method: string): boolean {
  return WRITE_METHODS.includes(method.toUpperCase());
}

/**
 * The Idempotency-Key a write is sent with, decided once per call so that every retry of the
 * call carries the same key (the server then applies the write at most once).
 *
 * A key already on the request (the caller's header) wins; then the per-request option (`false`
 * sends none); then a fresh UUID when automatic keys are on. Reads never get one.
 */
export function chooseIdempotencyKey(
  isWrite: boolean,
  headerValue: string | null,
  requested: string | false | undefined,
  automatic: boolean,
): string | undefined {
  if (!isWrite) return headerValue ?? undefined;
  if (headerValue) return headerValue;
  if (requested !== undefined) return requested || undefined;
  return automatic ? crypto.randomUUID() : undefined;
}

/** Whether the service answered with a stored response instead of executing the write again. */
export function wasReplayed(response: Response): boolean {
  return response.headers.get(HEADERS.idempotencyReplayed) === 'true';
}
