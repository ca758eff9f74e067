// What a server plugs its answers into: the call it is asked to answer, and what it answers.
import type { FieldError, Operation } from '@svc/spec-runtime';
import type { Credentials } from './auth.js';

/** A documented error the server chose (an unknown id, a state conflict, ...). */
export interface Failure {
  error: string;
  message: string;
  param?: string;
  suggestion?: string;
  errors?: FieldError[];
}

/** What a call answers: a status and a JSON body (none for 204), or a documented error. */
export type Outcome = { status: number; body?: unknown } | Failure;

export function isFailure(outcome: Outcome): outcome is Failure {
  return 'error' in outcome;
}

/** One authenticated, authorised, valid call to a documented operation. */
export interface Call<K extends Credentials> {
  /** The request as a web Request (one that came through serveNode: built on first use, bodiless). */
  request: Request;
  /** The path as WHATWG URL gives it (still percent-encoded). */
  pathname: string;
  query: URLSearchParams;
  operation: Operation;
  /** Path parameters, URL-decoded. */
  params: Record<string, string>;
  /** The JSON body (an object) of operations that take one. */
  body: Record<string, unknown> | undefined;
  key: K;
  requestId: string;
  /** The headers the response will carry (request id, rate limits, ...). */
  responseHeaders: Record<string, string>;
}
