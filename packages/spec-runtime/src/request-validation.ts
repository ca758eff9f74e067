// Validates one request against its operation: path, query and header parameters, then the body.
// Every violation carries the contract's code when it names one (see violations.ts).
import type { Catalogue } from './catalogue.js';
import { isDecimal } from './decimal.js';
import type { JsonObject } from './json-pointer.js';
import type { Operation, OperationParameter } from './operations.js';
import { EVERY_ERROR_MAX_NODES, hasAtMostNodes, type SchemaValidator } from './schema-validator.js';
import { typesOf } from './schema-walk.js';
import { codeOf, type Violation, type ViolationLocation, violationsFromAjv } from './violations.js';

export type HeaderSource = Headers | Record<string, string | undefined>;
export type QuerySource = URLSearchParams | Record<string, string | undefined>;

export interface RequestParts {
  /** Path parameters, already URL-decoded (matchRoute returns them so). */
  params?: Record<string, string>;
  query?: QuerySource;
  headers?: HeaderSource;
  /** The parsed JSON body; undefined when the request had none. */
  body?: unknown;
  /**
   * How many JSON values the body holds, when the caller already knows (parseJsonBody counts
   * them on the text); otherwise the parsed body is walked, as far as the limit, to learn it.
   */
  bodyValueCount?: number;
}

/** A header's value by name, whatever its case, from Headers or a plain record. */
export function readHeader(headers: HeaderSource | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

function readQuery(query: QuerySource | undefined, name: string): string | undefined {
  if (!query) return undefined;
  if (query instanceof URLSearchParams) return query.get(name) ?? undefined;
  return query[name];
}

/** Coerces a wire string by the parameter schema's type; anything else stays a string (and fails). */
export function coerceParameter(raw: string, schema: JsonObject): unknown {
  const types = typesOf(schema);
  if ((types.includes('integer') || types.includes('number')) && isDecimal(raw.trim())) return Number(raw);
  if (types.includes('boolean') && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
}

const MISSING_CODE: Record<string, string> = {
  query: 'MISSING_PARAMETER',
  path: 'MISSING_PARAMETER',
  header: 'MISSING_HEADER',
};

export function validateRequest(
  bundle: JsonObject,
  catalogue: Catalogue,
  validator: SchemaValidator,
  operation: Operation,
  parts: RequestParts,
): Violation[] {
  const violations: Violation[] = [];
  for (const location of ['path', 'query', 'header'] as const) {
    for (const param of operation.parameters.filter((p) => p.in === location)) {
      const raw =
        location === 'path'
          ? parts.params?.[param.name]
          : location === 'query'
            ? readQuery(parts.query, param.name)
            : readHeader(parts.headers, param.name);
      if (raw === undefined) {
        if (param.required) violations.push(missing(catalogue, param, location));
        continue;
      }
      violations.push(...validateParameter(bundle, validator, param, location, raw));
    }
  }
  if (operation.requestBody) {
    if (parts.body === undefined) {
      if (operation.requestBody.required) {
        violations.push({
          location: 'body',
          field: 'body',
          keyword: 'required',
          message: 'A JSON request body is required',
          code: catalogue.has('INVALID_REQUEST_BODY') ? 'INVALID_REQUEST_BODY' : null,
        });
      }
    } else {
      // Walking an object of 18 000 fields only to count them cost more than validating it.
      const small =
        parts.bodyValueCount !== undefined
          ? parts.bodyValueCount <= EVERY_ERROR_MAX_NODES
          : hasAtMostNodes(parts.body, EVERY_ERROR_MAX_NODES);
      const errors = validator.errors(operation.requestBody.schemaPointer, parts.body, small);
      violations.push(...violationsFromAjv(bundle, errors, 'body', (f) => (f === '' ? 'body' : f)));
    }
  }
  return violations;
}

function missing(catalogue: Catalogue, param: OperationParameter, location: ViolationLocation): Violation {
  const code = MISSING_CODE[location];
  const kind = location === 'header' ? 'header' : `${location} parameter`;
  return {
    location,
    field: param.name,
    keyword: 'required',
    message: `Required ${kind} ${param.name} is missing`,
    code: code && catalogue.has(code) ? code : null,
  };
}

function validateParameter(
  bundle: JsonObject,
  validator: SchemaValidator,
  param: OperationParameter,
  location: ViolationLocation,
  raw: string,
): Violation[] {
  const value = location === 'header' ? raw : coerceParameter(raw, param.schema);
  const errors = validator.errors(param.schemaPointer, value);
  if (errors.length === 0) return [];
  const found = violationsFromAjv(bundle, errors, location, (f) => (f === '' ? param.name : `${param.name}.${f}`));
  // A parameter-level x-svc-error-code overrides whatever the schema says.
  return found.map((v) => {
    const override = param.errorCode === undefined ? null : codeOf({ 'x-svc-error-code': param.errorCode }, v.keyword);
    return override ? { ...v, code: override } : v;
  });
}
