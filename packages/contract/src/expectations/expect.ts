// What the contract says a request must get, computed by spec-runtime from the request itself:
// validateRequest finds the violations (with the codes x-svc-error-code attaches to them) and
// errorFor picks the one error the operation answers with. No table of expected codes exists in
// this package; only the operation's documented responses and the catalogue are consulted.
import type { Operation } from '@svc/spec-runtime';
import { sharedResponseCodes } from '@svc/spec-runtime/facts';
import { type Exchange, errorOf } from '../http/exchange.js';
import type { Spec } from '../spec.js';

/** A request addressed to one operation: path parameters (decoded), query and JSON body. */
export interface OpRequest {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}

export interface Expected {
  status: number;
  /** Any of these codes conforms. */
  codes: string[];
  /** Why this is expected (the violation, the documented response). */
  why: string;
  /**
   * Other readings the contract allows for the same request (x-svc-ambiguity): an answer matching
   * any of them conforms as well.
   */
  or?: Expected[];
  /**
   * The one path or query parameter the request breaks, where it breaks one alone: an error that
   * names a parameter ("param: Offending parameter, when applicable") names this one.
   */
  param?: string;
}

/** Every reading an expectation accepts: itself, then its alternatives. */
export function readingsOf(expected: Expected): Expected[] {
  return [expected, ...(expected.or ?? []).flatMap(readingsOf)];
}

/** The expected error for a request that violates the contract, or undefined when it does not. */
export function expectedFor(
  spec: Spec,
  op: Operation,
  request: OpRequest,
  headers: Record<string, string> = {},
): Expected | undefined {
  const violations = spec.contract.validateRequest(op, {
    params: request.params ?? {},
    query: request.query ?? {},
    headers,
    body: request.body,
  });
  if (violations.length === 0) return undefined;
  const choice = spec.contract.errorFor(violations, op);
  const [only] = violations;
  const param =
    violations.length === 1 && only && (only.location === 'query' || only.location === 'path') ? only.field : undefined;
  return {
    status: choice.status,
    codes: [choice.code],
    why: violations.map((v) => v.message).join('; '),
    ...(param ? { param } : {}),
  };
}

/**
 * Where the request broke one parameter alone and the error names a parameter, the name is that one
 * (as a word of `param`: "size", or "query.size"); an error naming none is not judged here.
 */
function paramProblems(error: Record<string, unknown> | undefined, expected: Expected): string[] {
  const named = error?.param;
  if (!expected.param || typeof named !== 'string' || named === '') return [];
  const words = named.split(/[^A-Za-z0-9_]+/);
  return words.includes(expected.param)
    ? []
    : [`error.param is ${JSON.stringify(named)}, but the parameter the request broke alone is ${expected.param}`];
}

/** The codes the operation lists for a status; API-wide codes of that status when it lists none. */
export function documentedCodes(spec: Spec, op: Operation, status: number): string[] {
  const listed = op.codesByStatus.get(status);
  if (listed && listed.size > 0) return [...listed];
  const apiWide = spec.apiWideCode(status);
  return apiWide ? [apiWide] : [];
}

/** Problems of a response against an expected error (empty: it conforms). */
export function errorProblems(exchange: Exchange, expected: Expected): string[] {
  if (exchange.error !== undefined) return [`no response: ${exchange.error}`];
  const error = errorOf(exchange);
  const code = typeof error?.code === 'string' ? error.code : undefined;
  const readings = readingsOf(expected);
  const matches = (r: Expected) => exchange.status === r.status && code !== undefined && r.codes.includes(code);
  const matched = readings.find(matches);
  if (matched) return paramProblems(error, matched);
  const want = readings.map((r) => `${r.status} ${r.codes.join(' or ')} (${r.why})`).join(', or ');
  return [`expected ${want}, got ${exchange.status}${code ? ` ${code}` : ''}`];
}

/**
 * The codes an operation lists for a status other than the idempotency conflicts every write
 * shares: for a 409 that is the operation's own state conflict (THREAD_ALREADY_EXISTS,
 * TAG_ALREADY_EXISTS, ATTRIBUTE_MANAGED_BY_INTEGRATION).
 */
export function ownCodes(spec: Spec, op: Operation, status: number): string[] {
  const shared = new Set(sharedResponseCodes(spec.contract, 'IdempotencyConflict'));
  return documentedCodes(spec, op, status).filter((c) => !shared.has(c));
}

/** A code the contract names for a scenario, checked to be one the operation lists. */
export function listedCode(spec: Spec, op: Operation, code: string): Expected {
  const entry = spec.contract.catalogue.get(code);
  if (!entry || !(op.codesByStatus.get(entry.status)?.has(code) ?? false))
    throw new Error(`${op.operationId} does not list ${code}; the scenario no longer matches the contract.`);
  return { status: entry.status, codes: [code], why: entry.description };
}
