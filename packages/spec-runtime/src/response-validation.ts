// Checks one response against the contract: the status is documented for the operation (a request
// that addresses no operation may only get an API-wide routing code), required headers are present and well-formed, the body matches the schema, and
// an error body carries a code the operation lists for that status, with the type of that status.

import type { ErrorObject } from 'ajv/dist/2020.js';
import type { Catalogue } from './catalogue.js';
import { childPointer, follow, getByPointer, isObject, type JsonObject } from './json-pointer.js';
import { type Operation, responseKeyFor, responsePointer } from './operations.js';
import { headerText } from './request-id.js';
import { coerceParameter, type HeaderSource, readHeader } from './request-validation.js';
import type { SchemaValidator } from './schema-validator.js';
import { headerNamesOf } from './server-headers.js';

// The error object every error body carries as `error` (the contract has no separate envelope schema).
const API_ERROR_POINTER = '#/components/schemas/ApiError';

/**
 * What a response problem is about, so that a caller can name the failing check (the contract
 * tests report each kind as its own check) without parsing messages.
 */
export type ResponseProblemKind =
  | 'status' // the status is not documented for the operation (without one: not an API-wide routing code)
  | 'header' // a documented header is missing or invalid (`header` names it)
  | 'content-type' // the body is not application/json
  | 'body' // the body does not match the documented schema, or is missing / unexpected
  | 'error-code' // error.code not in the catalogue, of another status, or not listed by the operation
  | 'error-type' // error.type is not the code's type, or does not go with the status
  | 'retryable' // error.retryable differs from the catalogue
  | 'request-id'; // error.request_id differs from the X-Request-Id header

export interface ResponseProblem {
  kind: ResponseProblemKind;
  message: string;
  /** The header concerned, for kind 'header'. */
  header?: string;
}

function describeErrors(errors: readonly ErrorObject[]): string {
  const shown = errors
    .slice(0, 6)
    .map(
      (e) =>
        `${e.instancePath || '/'} ${e.message ?? e.keyword}${e.keyword === 'enum' ? ` (${JSON.stringify((e.params as { allowedValues?: unknown }).allowedValues)})` : ''}`,
    );
  return shown.join('; ') + (errors.length > 6 ? `; and ${errors.length - 6} more` : '');
}

export interface ResponseContext {
  bundle: JsonObject;
  catalogue: Catalogue;
  statusesOfType: ReadonlyMap<string, readonly number[]>;
  validator: SchemaValidator;
}

type Report = (kind: ResponseProblemKind, message: string, header?: string) => void;

export function checkResponse(
  ctx: ResponseContext,
  operation: Operation | null,
  status: number,
  headers: HeaderSource | undefined,
  body: unknown,
): ResponseProblem[] {
  const problems: ResponseProblem[] = [];
  const problem: Report = (kind, message, header) => {
    problems.push(header === undefined ? { kind, message } : { kind, message, header });
  };
  const where = operation ? `${operation.operationId} ${status}` : `(no operation) ${status}`;
  const key = operation ? responseKeyFor(operation, status) : undefined;
  if (operation && !key) {
    // Every answer an operation can give is listed on it, the API-wide ones included: tools that
    // read one operation (Prism, generators) know nothing else.
    problem('status', `${where}: status ${status} is not documented for ${operation.operationId}`);
    return problems;
  }
  if (!operation || !key) {
    // A request that addresses no operation (no documented path matches) can only get a routing answer.
    checkUndocumented(ctx, where, operation, status, headers, body, problem);
    return problems;
  }
  const pointer = responsePointer(operation, key);
  const { node: response, pointer: responseAt } = follow(ctx.bundle, getByPointer(ctx.bundle, pointer), pointer);
  if (!isObject(response))
    return [{ kind: 'status', message: `${where}: response ${key} cannot be read from the bundle` }];
  checkHeaders(ctx, where, response, responseAt, headers, problem);
  checkBody(ctx, where, response, responseAt, headers, body, problem);
  if (status >= 400) checkErrorBody(ctx, where, operation, status, headers, body, false, problem);
  return problems;
}

/** A status the operation does not document: only an API-wide error, in the error body, may answer. */
function checkUndocumented(
  ctx: ResponseContext,
  where: string,
  operation: Operation | null,
  status: number,
  headers: HeaderSource | undefined,
  body: unknown,
  problem: Report,
): void {
  const errorCode =
    isObject(body) && isObject(body.error) && typeof body.error.code === 'string' ? body.error.code : undefined;
  const entry = errorCode ? ctx.catalogue.get(errorCode) : undefined;
  if (!entry?.apiWide || entry.status !== status) {
    problem(
      'status',
      `${where}: status ${status} is not documented${operation ? ` for ${operation.operationId}` : ''} and is not an API-wide error (got ${errorCode ?? 'no error code'})`,
    );
    return;
  }
  if (!isObject(body) || !('error' in body))
    problem('body', `${where}: body is not an error body { "error": { ... } }`);
  else {
    const errors = ctx.validator.errors(API_ERROR_POINTER, body.error);
    if (errors.length)
      problem('body', `${where}: body does not match { "error": ApiError }: ${describeErrors(errors)}`);
  }
  checkErrorBody(ctx, where, operation, status, headers, body, true, problem);
}

/** The response's documented headers: present when required, valid against their schemas. */
function checkHeaders(
  ctx: ResponseContext,
  where: string,
  response: JsonObject,
  responseAt: string,
  headers: HeaderSource | undefined,
  problem: Report,
): void {
  if (!isObject(response.headers)) return;
  for (const [name, raw] of Object.entries(response.headers)) {
    const { node: spec, pointer: headerAt } = follow(ctx.bundle, raw, childPointer(responseAt, 'headers', name));
    if (!isObject(spec)) continue;
    const value = readHeader(headers, name);
    if (value === undefined) {
      if (spec.required === true) problem('header', `${where}: required header ${name} is missing`, name);
      continue;
    }
    if (spec.schema === undefined) continue;
    const { node: schema } = follow(ctx.bundle, spec.schema, childPointer(headerAt, 'schema'));
    const errors = ctx.validator.errors(
      childPointer(headerAt, 'schema'),
      coerceParameter(value, isObject(schema) ? schema : {}),
    );
    if (errors.length)
      problem(
        'header',
        `${where}: header ${name}=${JSON.stringify(value)} is invalid: ${describeErrors(errors)}`,
        name,
      );
  }
}

/** The body: JSON of the documented schema when one is documented, else none. */
function checkBody(
  ctx: ResponseContext,
  where: string,
  response: JsonObject,
  responseAt: string,
  headers: HeaderSource | undefined,
  body: unknown,
  problem: Report,
): void {
  const media = isObject(response.content) ? response.content['application/json'] : undefined;
  if (!isObject(media) || media.schema === undefined) {
    if (body !== undefined && body !== null && body !== '')
      problem('body', `${where}: the response documents no body but one was sent`);
    return;
  }
  if (body === undefined) {
    problem('body', `${where}: a JSON body is documented but the response has none`);
    return;
  }
  const contentType = readHeader(headers, 'content-type');
  if (contentType !== undefined && !/^application\/json\b/i.test(contentType))
    problem('content-type', `${where}: content-type is ${contentType}, not application/json`);
  const errors = ctx.validator.errors(childPointer(responseAt, 'content', 'application/json', 'schema'), body);
  if (errors.length) problem('body', `${where}: body does not match the documented schema: ${describeErrors(errors)}`);
}

function checkErrorBody(
  ctx: ResponseContext,
  where: string,
  operation: Operation | null,
  status: number,
  headers: HeaderSource | undefined,
  body: unknown,
  apiWide: boolean,
  problem: (kind: ResponseProblemKind, message: string) => void,
): void {
  if (!isObject(body) || !isObject(body.error)) {
    problem('body', `${where}: an error response must have an error object`);
    return;
  }
  const error = body.error;
  const code = typeof error.code === 'string' ? error.code : undefined;
  const entry = code ? ctx.catalogue.get(code) : undefined;
  if (!code || !entry) {
    problem('error-code', `${where}: error code ${String(error.code)} is not in the catalogue`);
    return;
  }
  if (entry.status !== status)
    problem('error-code', `${where}: ${code} belongs to status ${entry.status}, not ${status}`);
  if (error.type !== entry.type)
    problem('error-type', `${where}: ${code} has type ${entry.type}, got ${String(error.type)}`);
  if (!(ctx.statusesOfType.get(String(error.type))?.includes(status) ?? false))
    problem('error-type', `${where}: type ${String(error.type)} does not go with status ${status}`);
  if (!apiWide && operation && !(operation.codesByStatus.get(status)?.has(code) ?? false)) {
    problem('error-code', `${where}: ${code} is not listed by ${operation.operationId} for status ${status}`);
  }
  if (entry.retryable !== undefined && error.retryable !== entry.retryable)
    problem('retryable', `${where}: ${code} must have retryable ${entry.retryable}`);
  const requestIdHeader = headerNamesOf(ctx.bundle).requestId;
  const requestId = readHeader(headers, requestIdHeader);
  if (requestId !== undefined && error.request_id !== requestId && error.request_id !== headerText(requestId))
    problem(
      'request-id',
      `${where}: error.request_id ${String(error.request_id)} differs from ${requestIdHeader} ${requestId}`,
    );
}
