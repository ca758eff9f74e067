// response.error-details: what the description says a field of an error body says, checked on
// every error the suite receives, whichever check provoked it. Per code, from the catalogue's
// x-svc-detail-rules (through spec-runtime), never typed here: the message of
// API_KEY_INSUFFICIENT_SCOPE names the scope the operation requires (any of its readings where it
// has several; where the scope itself is only inferred, any scope of the contract, since which one
// is missing is not known); the message of a not-found code quotes the value that names no
// resource (the value of the parameter `param` names, else any value the request sent), and its
// `param` names one the request sent; the message of UNKNOWN_FIELD names a field the body sent; the
// suggestion of INVALID_PHONE_FORMAT names E.164 (in any case and punctuation: E164 too). On
// every error, from the error body's own field table: `param`, "the offending parameter", names a
// parameter or body field of the operation or one the request sent; endpoints a `suggestion`
// names ("may name endpoints") are paths of the contract (with the method, where one is given);
// `doc_url`, "link to the error's documentation", names no other code of the catalogue unless it
// names its own (where the link shows a code at all: its host and form are not shown).
import { type DetailRule, isObject, type Operation, propertiesOf } from '@svc/spec-runtime';
import { isScopeInferred } from '@svc/spec-runtime/facts';
import { type Exchange, errorOf, wireOf } from '../http/exchange.js';
import type { Spec } from '../spec.js';

/** The text names the word as a whole token (CONTACTS_READ is not named by CONTACTS_READ_WRITE). */
function namesToken(text: string, token: string): boolean {
  let at = text.indexOf(token);
  const partOfWord = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_]/.test(c);
  while (at >= 0) {
    if (!partOfWord(text[at - 1]) && !partOfWord(text[at + token.length])) return true;
    at = text.indexOf(token, at + 1);
  }
  return false;
}

/** The scopes any reading of the operation's security requires; every scope of the contract where it is only inferred. */
function requiredScopes(spec: Spec, op: Operation | null): string[] {
  if (!op || op.security.length === 0) return [];
  if (isScopeInferred(op)) return Object.keys(spec.contract.scopes);
  return [...new Set(op.security.flat())];
}

/** Letters and digits only, lower case: "E.164", "e164" and "E-164" read the same. */
const spelling = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

function scopeProblem(spec: Spec, rule: DetailRule, value: unknown, op: Operation | null): string | undefined {
  const stated = `the description says: "${rule.says}"`;
  const scopes = requiredScopes(spec, op);
  if (scopes.length === 0) return undefined;
  if (typeof value === 'string' && scopes.some((scope) => namesToken(value, scope))) return undefined;
  const wanted = op && isScopeInferred(op) ? 'any scope (its own is only inferred)' : scopes.join(' or ');
  return `error.${rule.field} ${JSON.stringify(value ?? null)} does not name the scope ${op?.operationId} requires, ${wanted} (${stated})`;
}

const decoded = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/** What the request sent, by name: path parameters (decoded), query parameters, top-level body strings. */
export function sentValues(exchange: Exchange): Map<string, string> {
  const values = new Map<string, string>();
  const op = exchange.operation;
  if (op) {
    const actual = (exchange.request.path.split('?')[0] ?? '').split('/');
    op.path.split('/').forEach((segment, i) => {
      const name = /^\{(.+)\}$/.exec(segment)?.[1];
      const value = actual[i];
      if (name !== undefined && value !== undefined) values.set(name, decoded(value));
    });
  }
  for (const [name, value] of Object.entries(exchange.request.query ?? {})) values.set(name, value);
  const body = exchange.request.body;
  if (isObject(body))
    for (const [name, value] of Object.entries(body)) if (typeof value === 'string') values.set(name, value);
  return values;
}

/** The fields of a body, at any depth, each as its path (`agent.name`) and as its own name (`name`). */
function bodyFieldNames(body: unknown, prefix = '', depth = 0): string[] {
  if (!isObject(body) || depth > 4) return [];
  return Object.entries(body).flatMap(([name, value]) => [
    `${prefix}${name}`,
    name,
    ...bodyFieldNames(value, `${prefix}${name}.`, depth + 1),
  ]);
}

/** The value a nested `param` (`options[0].label`) points at in the body, where it is a string. */
function stringAt(body: unknown, param: string): string | undefined {
  let at: unknown = body;
  for (const segment of param.split(/[.[\]]/).filter((s) => s !== '')) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string, unknown>)[segment];
  }
  return typeof at === 'string' ? at : undefined;
}

/** The first segment of a `param` (`options[0].label`: options). */
const firstSegment = (param: string) => param.split(/[.[]/)[0] ?? param;

/** Whether the request sent the parameter `param` names: a path parameter, a query parameter, a body field of any type, a header. */
function sentParameter(spec: Spec, exchange: Exchange, param: string): boolean {
  const name = firstSegment(param);
  const { request, operation } = exchange;
  if (operation?.parameters.some((p) => p.in === 'path' && p.name === name)) return true;
  const query = new URLSearchParams(request.path.split('?')[1] ?? '');
  if (query.has(name) || Object.hasOwn(request.query ?? {}, name)) return true;
  if (isObject(request.body) && Object.hasOwn(request.body, name)) return true;
  const { headers } = wireOf(request, '', spec);
  return Object.keys(headers).some((h) => h.toLowerCase() === name.toLowerCase());
}

/**
 * The failing value: the value of the parameter `param` names (nested ones too), else any value
 * sent; the message quotes one. The value that failed is one the request sent, so a `param`
 * naming a parameter of the operation the request did not send (the user_id of a teammate looked
 * up by email) points at the wrong one. (A `param` naming no parameter at all is paramProblem's.)
 */
function failingValueProblem(
  spec: Spec,
  rule: DetailRule,
  error: Record<string, unknown>,
  exchange: Exchange,
): string | undefined {
  const param = typeof error.param === 'string' && error.param !== '' ? error.param : undefined;
  if (
    param !== undefined &&
    operationNames(spec, exchange).has(firstSegment(param)) &&
    !sentParameter(spec, exchange, param)
  )
    return `error.param ${JSON.stringify(param.slice(0, 100))} names a parameter the request did not send, while the failing value of ${String(error.code)} is one it sent (the description says: "${rule.says}"; "param: offending parameter")`;
  const sent = sentValues(exchange);
  const named = param !== undefined ? (sent.get(param) ?? stringAt(exchange.request.body, param)) : undefined;
  const candidates = (named !== undefined ? [named] : [...sent.values()]).filter((v) => v !== '');
  if (candidates.length === 0) return undefined;
  const text = error[rule.field];
  const quotes = (v: string) => typeof text === 'string' && (text.includes(v) || text.includes(encodeURIComponent(v)));
  if (candidates.some(quotes)) return undefined;
  const which =
    named !== undefined
      ? `${JSON.stringify(named)} (param ${String(param)})`
      : candidates.map((v) => JSON.stringify(v)).join(' or ');
  return `error.${rule.field} ${JSON.stringify(text ?? null)} does not quote the failing value ${which} (the description says: "${rule.says}")`;
}

/**
 * The failing field: a field of the body the request sent, by its path or its own name, as a whole
 * word (an unknown field is its own failing value; which field a server refuses may depend on a
 * reading of the body's form, so any field sent may be the one).
 */
function failingFieldProblem(rule: DetailRule, error: Record<string, unknown>, exchange: Exchange): string | undefined {
  const names = [...new Set(bodyFieldNames(exchange.request.body))];
  if (names.length === 0) return undefined;
  const text = error[rule.field];
  if (typeof text === 'string' && names.some((name) => namesToken(text, name))) return undefined;
  return `error.${rule.field} ${JSON.stringify(text ?? null)} names no field the request sent (${names
    .slice(0, 6)
    .map((n) => JSON.stringify(n))
    .join(', ')}${names.length > 6 ? ', …' : ''}) (the description says: "${rule.says}")`;
}

function ruleProblem(
  spec: Spec,
  rule: DetailRule,
  error: Record<string, unknown>,
  exchange: Exchange,
): string | undefined {
  if (rule.contains !== undefined) {
    const text = error[rule.field];
    // An optional field (the suggestion of a code whose meaning gives a next step) is judged where given.
    if (rule.optional && text === undefined) return undefined;
    if (typeof text === 'string' && spelling(text).includes(spelling(rule.contains))) return undefined;
    return `error.${rule.field} ${JSON.stringify(text ?? null)} does not name ${rule.contains} (the description says: "${rule.says}")`;
  }
  if (rule.names === 'failing-value') return failingValueProblem(spec, rule, error, exchange);
  if (rule.names === 'failing-field') return failingFieldProblem(rule, error, exchange);
  return scopeProblem(spec, rule, error[rule.field], exchange.operation);
}

/** The operation's own parameters and body fields (header names in lower case). */
function operationNames(spec: Spec, exchange: Exchange): Set<string> {
  const op = exchange.operation;
  const names = new Set<string>();
  if (op) for (const p of op.parameters) names.add(p.in === 'header' ? p.name.toLowerCase() : p.name);
  if (op?.requestBody)
    for (const name of Object.keys(propertiesOf(spec.contract, spec.resolve(op.requestBody.schemaPointer))))
      names.add(name);
  return names;
}

/** The names `param` may give: the operation's parameters and body fields, and what the request sent. */
function parameterNames(spec: Spec, exchange: Exchange): Set<string> {
  const names = new Set<string>([...sentValues(exchange).keys(), ...operationNames(spec, exchange)]);
  const body = exchange.request.body;
  if (isObject(body)) for (const name of Object.keys(body)) names.add(name);
  for (const header of ['authorization', spec.requestIdHeader.toLowerCase(), spec.idempotencyKeyHeader.toLowerCase()])
    names.add(header);
  return names;
}

/** `param`, where given, names a parameter of the request: its first segment (`options[0].label`: options). */
function paramProblem(spec: Spec, error: Record<string, unknown>, exchange: Exchange): string | undefined {
  const param = error.param;
  if (typeof param !== 'string' || param === '' || !exchange.operation) return undefined;
  const first = firstSegment(param);
  const names = parameterNames(spec, exchange);
  if (names.has(first) || names.has(first.toLowerCase())) return undefined;
  return `error.param ${JSON.stringify(param.slice(0, 100))} names no parameter or body field of ${exchange.operation.operationId} (the description says: "param: offending parameter, when applicable")`;
}

/** A doc_url that names another code of the catalogue and not the error's own links to another error's page. */
function docUrlProblem(spec: Spec, error: Record<string, unknown>, code: string): string | undefined {
  if (typeof error.doc_url !== 'string') return undefined;
  // thread-not-found and THREAD_NOT_FOUND read the same.
  const link = error.doc_url.slice(0, 2000).toUpperCase().replace(/-/g, '_');
  if (namesToken(link, code)) return undefined;
  const other = [...spec.contract.catalogue.keys()].find((c) => c !== code && namesToken(link, c));
  if (other === undefined) return undefined;
  return `error.doc_url ${JSON.stringify(error.doc_url.slice(0, 200))} links to the page of ${other}, not of ${code} (the description says: "doc_url: Link to the error's documentation")`;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** An endpoint named in a text: an optional method, then a path under /vN/api (template braces allowed). */
const ENDPOINT = /(?:\b(GET|POST|PUT|PATCH|DELETE)\s+)?(\/v\d{1,3}\/api(?:\/[A-Za-z0-9_.%{}+-]*)*)/g;

/** Endpoints a suggestion names that are no path of the contract (for the method, where one is named). */
function suggestionProblems(spec: Spec, error: Record<string, unknown>): string[] {
  const suggestion = error.suggestion;
  if (typeof suggestion !== 'string') return [];
  const problems: string[] = [];
  for (const [, method, raw] of suggestion.slice(0, 2000).matchAll(ENDPOINT)) {
    const named = (raw ?? '').replace(/[.]+$/, '');
    const path = named.replace(/\{[^}]*\}/g, 'x');
    const live = (method ? [method] : METHODS).some((m) => 'operation' in spec.contract.matchRoute(m, path));
    if (!live)
      problems.push(
        `error.suggestion names ${method ? `${method} ` : ''}${named}, which is no ${method ? 'operation' : 'path'} of the contract (the description says: "suggestion: next step; may name endpoints")`,
      );
  }
  return problems;
}

/** undefined where no rule applies to the response; else its problems (empty: it says what it must). */
export function errorDetailProblems(spec: Spec, exchange: Exchange): string[] | undefined {
  const error = errorOf(exchange);
  if (!error || exchange.status < 400 || typeof error.code !== 'string') return undefined;
  const rules = spec.contract.catalogue.get(error.code)?.detailRules ?? [];
  const applies =
    rules.length > 0 ||
    typeof error.param === 'string' ||
    typeof error.suggestion === 'string' ||
    typeof error.doc_url === 'string';
  if (!applies) return undefined;
  return [
    ...rules.flatMap((rule) => ruleProblem(spec, rule, error, exchange) ?? []),
    ...[paramProblem(spec, error, exchange), docUrlProblem(spec, error, error.code)].filter(
      (p): p is string => p !== undefined,
    ),
    ...suggestionProblems(spec, error),
  ];
}
