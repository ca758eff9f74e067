// loadContract: everything the runtime knows, derived from the bundle passed in (the parsed
// spec/dist/openapi.json). No file access here, so the same code runs in Node, a worker or a browser.
import { type Catalogue, readCatalogue, readStatusesOfType } from './catalogue.js';
import { type BuildErrorOptions, type BuiltError, buildError, type ErrorChoice, errorFor } from './errors.js';
import { follow, getByPointer, isObject, type JsonObject } from './json-pointer.js';
import { type Operation, readOperations } from './operations.js';
import { type HeaderSource, type RequestParts, validateRequest } from './request-validation.js';
import { checkResponse, type ResponseProblem } from './response-validation.js';
import { type RouteMatch, RouteMatcher } from './route-matcher.js';
import { SchemaValidator } from './schema-validator.js';
import type { Violation } from './violations.js';

export interface Limits {
  readRequestsPerSecond: number;
  writeRequestsPerSecond: number;
  readMethods: readonly string[];
  writeMethods: readonly string[];
  idempotencyTtlSeconds: number;
  /** info.x-svc-limits as written, for the limits not named above. */
  raw: JsonObject;
}

export interface LoadContractOptions {
  /** doc_url of an error is this plus the code. */
  docUrlBase?: string;
}

export interface Contract {
  readonly bundle: JsonObject;
  readonly operations: readonly Operation[];
  readonly operationsById: ReadonlyMap<string, Operation>;
  readonly catalogue: Catalogue;
  readonly statusesOfType: ReadonlyMap<string, readonly number[]>;
  readonly limits: Limits;
  /** Every scope with its description (x-svc-scopes of the security scheme). */
  readonly scopes: Readonly<Record<string, string>>;
  matchRoute(method: string, pathname: string): RouteMatch;
  validateRequest(operation: Operation, parts: RequestParts): Violation[];
  errorFor(violations: readonly Violation[], operation: Operation): ErrorChoice;
  buildError(code: string, options: BuildErrorOptions): BuiltError;
  /** Problems found in one response (empty when it conforms). operation null: no route matched. */
  validateResponse(
    operation: Operation | null,
    status: number,
    headers: HeaderSource | undefined,
    body: unknown,
  ): string[];
  /** The same problems as {@link validateResponse}, each with its kind (status, header, body, ...). */
  checkResponse(
    operation: Operation | null,
    status: number,
    headers: HeaderSource | undefined,
    body: unknown,
  ): ResponseProblem[];
  /** The node at a local pointer of the bundle, with `$ref`s followed (for x-svc-* extensions). */
  resolve(pointer: string): unknown;
  /** Compiles every request validator now rather than on first use. */
  precompile(): void;
}

export const DEFAULT_DOC_URL_BASE = 'https://docs.example.com/errors/';

/** info.x-svc-limits: the budgets and classes by name, every other limit in `raw`. */
export function readLimits(bundle: JsonObject): Limits {
  const info = isObject(bundle.info) ? bundle.info : {};
  const raw = isObject(info['x-svc-limits']) ? info['x-svc-limits'] : {};
  const number = (key: string): number => {
    const value = raw[key];
    if (typeof value !== 'number') throw new Error(`info.x-svc-limits.${key} is missing from the bundle.`);
    return value;
  };
  const methods = (key: string): string[] =>
    Array.isArray(raw[key]) ? (raw[key] as unknown[]).filter((m): m is string => typeof m === 'string') : [];
  return {
    readRequestsPerSecond: number('read_requests_per_second'),
    writeRequestsPerSecond: number('write_requests_per_second'),
    readMethods: methods('read_methods'),
    writeMethods: methods('write_methods'),
    idempotencyTtlSeconds: number('idempotency_ttl_seconds'),
    raw,
  };
}

function readScopes(bundle: JsonObject): Record<string, string> {
  const schemes =
    isObject(bundle.components) && isObject(bundle.components.securitySchemes) ? bundle.components.securitySchemes : {};
  const scopes: Record<string, string> = {};
  for (const scheme of Object.values(schemes)) {
    if (!isObject(scheme) || !isObject(scheme['x-svc-scopes'])) continue;
    for (const [scope, description] of Object.entries(scheme['x-svc-scopes'])) scopes[scope] = String(description);
  }
  return scopes;
}

export function loadContract(bundle: unknown, options: LoadContractOptions = {}): Contract {
  if (!isObject(bundle) || typeof bundle.openapi !== 'string' || !isObject(bundle.paths)) {
    throw new Error('loadContract expects the parsed OpenAPI bundle (spec/dist/openapi.json).');
  }
  const catalogue = readCatalogue(bundle);
  const statusesOfType = readStatusesOfType(bundle);
  const limits = readLimits(bundle);
  const operations = readOperations(bundle, catalogue, limits.writeMethods);
  const operationsById = new Map(operations.map((op) => [op.operationId, op]));
  const matcher = new RouteMatcher(operations);
  const validator = new SchemaValidator(bundle);
  const docUrlBase = options.docUrlBase ?? DEFAULT_DOC_URL_BASE;
  const responseContext = { bundle, catalogue, statusesOfType, validator };

  return {
    bundle,
    operations,
    operationsById,
    catalogue,
    statusesOfType,
    limits,
    scopes: readScopes(bundle),
    matchRoute: (method, pathname) => matcher.match(method, pathname),
    validateRequest: (operation, parts) => validateRequest(bundle, catalogue, validator, operation, parts),
    errorFor: (violations, operation) => errorFor(catalogue, violations, operation),
    buildError: (code, buildOptions) => buildError(catalogue, docUrlBase, code, buildOptions),
    validateResponse: (operation, status, headers, body) =>
      checkResponse(responseContext, operation, status, headers, body).map((p) => p.message),
    checkResponse: (operation, status, headers, body) =>
      checkResponse(responseContext, operation, status, headers, body),
    resolve: (pointer) => follow(bundle, getByPointer(bundle, pointer), pointer).node,
    precompile: () => {
      for (const op of operations) {
        for (const param of op.parameters) validator.precompile(param.schemaPointer);
        if (op.requestBody) validator.precompile(op.requestBody.schemaPointer);
      }
    },
  };
}
