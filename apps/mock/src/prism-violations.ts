// Translates Prism's request violations into spec-runtime's Violation, so that spec-runtime's
// errorFor can choose the documented error exactly as it does for the sandbox.
//
// A Prism violation says where (['body','content'], ['path','id'], ['query','size'], ['query']
// for a missing parameter, nothing for a missing body) and which JSON Schema keyword failed. The
// code comes from the contract, by the same rules as spec-runtime's own validation:
// - a parameter-level x-svc-error-code first (a `not-` id that is not a note: NOTE_NOT_FOUND);
// - else the x-svc-error-code of a schema node describing that place: a code, or a map from
//   keyword to code. Nodes that carry the failing keyword themselves are asked first (Prism
//   reports an anyOf failure as the composite plus each branch, all at the same place);
// - `required` takes a code only from a map with a `required` key, on the missing property's
//   schema or its parent (a plain code describes a bad value, not a missing one); a missing
//   parameter is MISSING_PARAMETER (MISSING_HEADER for a header), a missing body
//   INVALID_REQUEST_BODY;
// - several violations of one field become one, the first coded non-composite one winning.
//
// This is the piece a small export of spec-runtime could provide (a code for an operation,
// location, field path and keyword); until then it works on the contract object it exports.
import type { Contract, Operation, OperationParameter, Violation, ViolationLocation } from '@svc/spec-runtime';
import { codeOf, fieldName, isDecimal, previewValue } from '@svc/spec-runtime';
import type { PrismDiagnostic } from './prism-engine.js';
import { isObject, nodesAt } from './schema-nodes.js';

/** The request as the mock read it, to quote failing values in messages. */
export interface RequestValues {
  params: Readonly<Record<string, string>>;
  query: URLSearchParams;
  headers: Readonly<Record<string, string>>;
  body: unknown;
}

/** A violation and whether its code is the failing constraint's own (see codeAmong). */
type Found = Violation & { exact?: boolean };

const COMPOSITE = new Set(['anyOf', 'oneOf', 'allOf', 'if', 'not']);
const MISSING_CODE: Record<string, string> = { query: 'MISSING_PARAMETER', path: 'MISSING_PARAMETER', header: 'MISSING_HEADER' };


/** Whether `node` holds the very constraint a message quotes (its pattern, limit or enum values). */
function quotes(node: Record<string, unknown>, keyword: string, message: string): boolean {
  const value = node[keyword];
  if (typeof value === 'string' || typeof value === 'number') return message.includes(String(value));
  if (Array.isArray(value)) return value.every((v) => message.includes(String(v)));
  return false;
}

export interface CodeFound {
  code: string | null;
  /** The code belongs to the node whose constraint failed (not a guess from a neighbour). */
  exact: boolean;
}

/**
 * The code for `keyword` failing at a place described by `nodes`. When a node holds the very
 * constraint the message quotes, its code (or its lack of one) is the answer, like Ajv's
 * parentSchema in spec-runtime: a failed `^cll-` branch of an item id says nothing, the item
 * id's own pattern says INVALID_ITEM_ID. Otherwise the first node carrying the keyword and a
 * code, then any node with a code for it.
 */
export function codeAmong(nodes: readonly Record<string, unknown>[], keyword: string, message = ''): CodeFound {
  const quoting = nodes.find((node) => keyword in node && quotes(node, keyword, message));
  if (quoting) return { code: codeOf(quoting, keyword), exact: true };
  for (const node of nodes) {
    if (!(keyword in node)) continue;
    const code = codeOf(node, keyword);
    if (code) return { code, exact: false };
  }
  for (const node of nodes) {
    const code = codeOf(node, keyword);
    if (code) return { code, exact: false };
  }
  return { code: null, exact: false };
}

function valueAt(root: unknown, segments: readonly string[]): unknown {
  let node = root;
  for (const segment of segments) {
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isObject(node)) node = node[segment];
    else return undefined;
  }
  return node;
}

/** Query and path values arrive as strings; quote them as the number they were meant to be. */
function wireValue(raw: string, param: OperationParameter): unknown {
  const type = param.schema.type;
  const types = Array.isArray(type) ? type : [type];
  if ((types.includes('integer') || types.includes('number')) && isDecimal(raw.trim())) return Number(raw);
  return raw;
}

// Prism's messages start with where the problem is ("Request body property content must ...",
// "Request query parameter size must ..."); the field is named again, as the client wrote it.
const PRISM_PREFIX = /^Request (?:body(?: property \S+)?|(?:query|path|header|cookie) parameter \S+|query|header|path)\s*/;

function messageFrom(field: string, diagnostic: PrismDiagnostic, value: unknown, hasValue: boolean): string {
  const rest = diagnostic.message.replace(PRISM_PREFIX, '').replace(/\.$/, '');
  return `${field} ${rest}${hasValue ? `; got ${previewValue(value)}` : ''}`;
}

function quoted(message: string, after: string): string | undefined {
  return new RegExp(`${after} '([^']*)'`).exec(message)?.[1];
}

export function translateViolations(contract: Contract, operation: Operation, diagnostics: readonly PrismDiagnostic[], values: RequestValues): Violation[] {
  const bundle = contract.bundle as Record<string, unknown>;
  const found: Found[] = [];
  for (const diagnostic of diagnostics) {
    const keyword = String(diagnostic.code ?? 'invalid');
    const [where, ...segments] = diagnostic.path ?? [];

    if (keyword === '415') {
      found.push({ location: 'header', field: 'Content-Type', keyword, message: diagnostic.message, code: 'UNSUPPORTED_MEDIA_TYPE' });
      continue;
    }
    if (keyword === '401') {
      found.push({ location: 'header', field: 'Authorization', keyword, message: diagnostic.message, code: 'UNAUTHORIZED' });
      continue;
    }

    if (where === undefined || where === 'body') {
      const pointer = operation.requestBody?.schemaPointer;
      if (where === undefined || pointer === undefined) {
        // No path: Prism's "Body parameter is required".
        found.push({ location: 'body', field: 'body', keyword: 'required', message: 'A JSON request body is required', code: contract.catalogue.has('INVALID_REQUEST_BODY') ? 'INVALID_REQUEST_BODY' : null });
        continue;
      }
      found.push(bodyViolation(contract, bundle, pointer, segments, keyword, diagnostic, values.body));
      continue;
    }

    const location = where as ViolationLocation;
    const [name, ...rest] = segments;
    if (name === undefined) {
      // ['query'] + required: a missing parameter, named in the message.
      const missing = quoted(diagnostic.message, 'required property') ?? '?';
      const param = findParameter(operation, location, missing);
      const field = param?.name ?? missing;
      const kind = location === 'header' ? 'header' : `${location} parameter`;
      const code = MISSING_CODE[location];
      // Prism counts a present but empty value (`entity_id=`) as missing; say which it was.
      const empty = location === 'query' ? values.query.has(field) : location === 'header' ? values.headers[field.toLowerCase()] !== undefined : false;
      found.push({ location, field, keyword: 'required', message: `Required ${kind} ${field} is ${empty ? 'empty' : 'missing'}`, code: code && contract.catalogue.has(code) ? code : null });
      continue;
    }
    const param = findParameter(operation, location, name);
    const field = fieldName([param?.name ?? name, ...rest]);
    const raw = location === 'query' ? values.query.get(param?.name ?? name) ?? undefined : location === 'path' ? values.params[param?.name ?? name] : values.headers[name.toLowerCase()];
    const value = raw === undefined ? undefined : param ? wireValue(raw, param) : raw;
    // A parameter-level code overrides whatever the schema says.
    const override = param?.errorCode === undefined ? null : codeOf({ 'x-svc-error-code': param.errorCode }, keyword);
    const { code, exact } = override !== null ? { code: override, exact: true } : param ? codeAmong(nodesAt(bundle, param.schemaPointer, rest), keyword, diagnostic.message) : { code: null, exact: false };
    found.push({ location, field, keyword, message: messageFrom(field, diagnostic, value, raw !== undefined), code, exact, ...(raw !== undefined ? { value } : {}) });
  }
  return mergeByField(found);
}

function findParameter(operation: Operation, location: string, name: string): OperationParameter | undefined {
  // Header names are case-insensitive (Prism reports them lower-cased).
  const wanted = location === 'header' ? name.toLowerCase() : name;
  return operation.parameters.find((p) => p.in === location && (location === 'header' ? p.name.toLowerCase() : p.name) === wanted);
}

function bodyViolation(
  contract: Contract,
  bundle: Record<string, unknown>,
  pointer: string,
  segments: readonly string[],
  keyword: string,
  diagnostic: PrismDiagnostic,
  body: unknown,
): Found {
  const named = (parts: readonly string[]) => (parts.length === 0 ? 'body' : fieldName(parts));
  const parent = nodesAt(bundle, pointer, segments);
  if (keyword === 'required') {
    const missing = quoted(diagnostic.message, 'required property');
    const at = missing === undefined ? segments : [...segments, missing];
    const field = named(at);
    const own = missing === undefined ? [] : nodesAt(bundle, pointer, at);
    const code = [...own, ...parent].map((node) => codeOf(node, 'required', true)).find((c) => c !== null) ?? null;
    return { location: 'body', field, keyword, message: `${field} is required`, code, exact: true };
  }
  if (keyword === 'additionalProperties') {
    const extra = quoted(diagnostic.message, 'found');
    const field = named(extra === undefined ? segments : [...segments, extra]);
    return { location: 'body', field, keyword, message: `${field} is not a known field`, ...codeAmong(parent, keyword, diagnostic.message) };
  }
  const field = named(segments);
  const value = valueAt(body, segments);
  return { location: 'body', field, keyword, message: messageFrom(field, diagnostic, value, true), ...codeAmong(parent, keyword, diagnostic.message), value };
}

/** One violation per field: Prism reports a failed anyOf as the composite plus each branch. */
function mergeByField(violations: readonly Found[]): Violation[] {
  const groups = new Map<string, Found[]>();
  for (const v of violations) {
    const id = `${v.location} ${v.field}`;
    const group = groups.get(id) ?? [];
    group.push(v);
    groups.set(id, group);
  }
  return [...groups.values()].map((group) => {
    const coded =
      group.find((v) => v.code !== null && v.exact && !COMPOSITE.has(v.keyword)) ??
      group.find((v) => v.code !== null && !COMPOSITE.has(v.keyword)) ??
      group.find((v) => v.code !== null);
    const { exact: _exact, ...specific } = coded ?? group.find((v) => !COMPOSITE.has(v.keyword)) ?? (group[0] as Found);
    return specific;
  });
}
