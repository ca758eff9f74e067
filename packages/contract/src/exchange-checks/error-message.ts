// response.error-message: the error body's own field table says of `message` "Human-readable,
// includes the failing value", for every error, whatever its code or the check that provoked it
// (writes and conflicts as much as reads). Two readings need no guess at a server's wording: a
// blank message is neither, and where the error names its cause in `param` and that parameter is
// one value the request sent (a path parameter, a top-level body string, a header it sent other
// than Authorization: the Idempotency-Key a 409 IDEMPOTENCY_KEY_REUSE names), the message quotes
// it, as sent or as it travelled in the URL (where that parameter is a body field the contract does
// not know, UNKNOWN_FIELD's cause, the field itself failed: its name will do); and where no endpoint is at the URL (the contract's route
// matching finds no path: "No endpoint at this URL"), the URL's path is the value that failed, so
// the message quotes that path. Not required where the cause is not one value: no param,
// a param naming a header the request did not send (MISSING_HEADER), a query or a nested field, several fields failing (`errors`), a blank
// value or one too long for a message to carry whole. A mock answers its examples and cannot quote
// what was sent: there only the blank message is read.
import { type Contract, isObject } from '@svc/spec-runtime';
import { type Exchange, errorOf, wireOf } from '../http/exchange.js';

/** The names of the headers a request of the suite may carry (the contract's). */
export interface HeaderNames {
  requestIdHeader: string;
  idempotencyKeyHeader: string;
}

/** A value longer than this need not be quoted whole (as for the failing values of x-svc-response-rules). */
const QUOTABLE = 64;

const decoded = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/**
 * The value of the header named `name` the request sent; never Authorization, whose key no check
 * may look for in an answer (a message quoting it would be read as a leak, not as a value).
 */
function headerSent(exchange: Exchange, name: string, names: HeaderNames): string | undefined {
  const { headers } = wireOf(exchange.request, '', names);
  const sent = Object.entries(headers).find(([header]) => header.toLowerCase() === name.toLowerCase());
  return sent && sent[0].toLowerCase() !== 'authorization' ? sent[1] : undefined;
}

/** The value of the path parameter, top-level body string or header named `name`, as sent. */
function valueNamed(exchange: Exchange, name: string, names: HeaderNames): string | undefined {
  const op = exchange.operation;
  if (op) {
    const actual = (exchange.request.path.split('?')[0] ?? '').split('/');
    const at = op.path.split('/').indexOf(`{${name}}`);
    const segment = at >= 0 ? actual[at] : undefined;
    if (segment !== undefined) return decoded(segment);
  }
  const body = exchange.request.body;
  return isObject(body) && typeof body[name] === 'string' ? body[name] : headerSent(exchange, name, names);
}

/**
 * The path of a request no endpoint answers, where the error is the code the contract gives for
 * that (a method the path lacks fails on the method, not on the path: not read here).
 */
function unroutedPath(exchange: Exchange, error: Record<string, unknown>, contract: Contract): string | undefined {
  if (exchange.operation) return undefined;
  const path = exchange.request.path.split('?')[0] ?? '';
  const match = contract.matchRoute(exchange.request.method, decoded(path));
  return 'error' in match && !('allowed' in match) && error.code === match.error ? path : undefined;
}

/**
 * A body field the contract does not know (UNKNOWN_FIELD's cause): its own validation of the body
 * finds the field failing with no failing value, since the field itself is what failed.
 */
function unknownField(exchange: Exchange, param: string, contract: Contract): boolean {
  const op = exchange.operation;
  return (
    op?.requestBody !== undefined &&
    contract
      .validateRequest(op, { body: exchange.request.body })
      .some((v) => v.location === 'body' && v.field === param && v.value === undefined)
  );
}

/**
 * The one value the error says failed, where it is one a message can quote, and what else the
 * message may quote instead: an unknown field's name (the field failed, whatever value it held).
 */
function failingValue(
  exchange: Exchange,
  error: Record<string, unknown>,
  contract: Contract,
  names: HeaderNames,
): { value: string; or: string[] } | undefined {
  const unrouted = unroutedPath(exchange, error, contract);
  if (unrouted !== undefined) return unrouted.length <= QUOTABLE ? { value: decoded(unrouted), or: [] } : undefined;
  if (typeof error.param !== 'string' || error.param === '') return undefined;
  if (Array.isArray(error.errors) && error.errors.length > 0) return undefined;
  const value = valueNamed(exchange, error.param, names);
  if (value === undefined || value.trim() === '' || value.length > QUOTABLE) return undefined;
  return { value, or: unknownField(exchange, error.param, contract) ? [error.param] : [] };
}

const SAYS = 'the description says of every error: "message: human-readable, includes the failing value"';

/** undefined where the response is no error body; else its problems (empty: the message says what it must). */
export function errorMessageProblems(
  exchange: Exchange,
  stateless: boolean,
  contract: Contract,
  names: HeaderNames,
): string[] | undefined {
  const error = errorOf(exchange);
  if (!error || exchange.status < 400) return undefined;
  const message = error.message;
  if (typeof message !== 'string' || message.trim() === '')
    return [`error.message of ${String(error.code)} is ${JSON.stringify(message ?? null)}: blank (${SAYS})`];
  const failing = stateless ? undefined : failingValue(exchange, error, contract, names);
  if (failing === undefined) return [];
  const { value, or } = failing;
  // As sent or as it travels in a URL: a path parameter encoded whole, a path with its slashes kept.
  if ([value, encodeURIComponent(value), encodeURI(value), ...or].some((form) => message.includes(form))) return [];
  const whose = exchange.operation ? `the value of param ${String(error.param)}` : 'the path no endpoint is at';
  return [
    `error.message of ${String(error.code)} ${JSON.stringify(message.slice(0, 200))} does not quote ${JSON.stringify(value)}, ${whose}${or.length > 0 ? `, nor the unknown field's name ${JSON.stringify(or[0])}` : ''} (${SAYS})`,
  ];
}
