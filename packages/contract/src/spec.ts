// The contract as the checks see it: the bundled @svc/openapi document loaded through
// @svc/spec-runtime, with the facts the checks use most (header names, the request-id pattern,
// the headers every response carries, the operations not yet specified) at hand. Everything here
// is read from the bundle by spec-runtime.
import { createRequire } from 'node:module';
import {
  apiWideCode,
  componentSchema,
  everyResponseHeaders,
  isObject,
  isSafe,
  loadContract,
  resourceOf,
  serverHeaderNames,
  readUnspecifiedOperations,
  type Contract,
  type JsonObject,
  type Operation,
  type ResponseHeader,
  type UnspecifiedOperation,
} from '@svc/spec-runtime';

export type { UnspecifiedOperation };

export interface Spec {
  contract: Contract;
  title: string;
  version: string;
  /** info.x-svc-limits.request_id_pattern: the form of a generated request id. */
  requestIdPattern: RegExp;
  requestIdHeader: string;
  idempotencyKeyHeader: string;
  idempotencyReplayedHeader: string;
  /** The X-RateLimit-* header names, by the component each refers to. */
  rateLimitHeaders: { limit: string; remaining: string; reset: string };
  /** Headers documented as required on every response of every operation (X-Request-Id, X-RateLimit-*). */
  universalHeaders: ResponseHeader[];
  unspecifiedOperations: UnspecifiedOperation[];
  /** The resource an operation belongs to: its first tag, as a slug. */
  resourceOf(op: Operation): string;
  resources(): string[];
  /** No side effects: a read method, or only *_READ scopes (the read-only POST searches). */
  isSafe(op: Operation): boolean;
  /** The API-wide error code the contract gives for a status (ENDPOINT_NOT_FOUND for 404, METHOD_NOT_ALLOWED for 405). */
  apiWideCode(status: number): string | undefined;
  /** The node at a local pointer with `$ref`s followed. */
  resolve(pointer: string): unknown;
  /** A component schema by name (identity comparisons: is this parameter a PhoneNumber?). */
  schema(name: string): JsonObject | undefined;
}

const specs = new WeakMap<object, Spec>();

/** The contract of a bundle (by default @svc/openapi's), loaded once per bundle. */
export function loadSpec(bundle: unknown = createRequire(import.meta.url)('@svc/openapi/openapi.json')): Spec {
  const cached = specs.get(bundle as object);
  if (cached) return cached;
  const contract = loadContract(bundle);
  const info = isObject(contract.bundle.info) ? contract.bundle.info : {};
  const pattern = contract.limits.raw.request_id_pattern;
  if (typeof pattern !== 'string') throw new Error('info.x-svc-limits.request_id_pattern is missing from the bundle.');
  const headers = serverHeaderNames(contract);
  const spec: Spec = {
    contract,
    title: typeof info.title === 'string' ? info.title : 'API',
    version: typeof info.version === 'string' ? info.version : '',
    requestIdPattern: new RegExp(pattern),
    requestIdHeader: headers.requestId,
    idempotencyKeyHeader: headers.idempotencyKey,
    idempotencyReplayedHeader: headers.idempotencyReplayed,
    rateLimitHeaders: { limit: headers.rateLimitLimit, remaining: headers.rateLimitRemaining, reset: headers.rateLimitReset },
    universalHeaders: everyResponseHeaders(contract),
    unspecifiedOperations: readUnspecifiedOperations(contract.bundle),
    resourceOf,
    resources: () => [...new Set(contract.operations.map(resourceOf))],
    isSafe: (op) => isSafe(contract, op),
    apiWideCode: (status) => apiWideCode(contract, status),
    resolve: (pointer) => contract.resolve(pointer),
    schema: (name) => componentSchema(contract, name),
  };
  specs.set(bundle as object, spec);
  return spec;
}
