// The contract as the checks see it: the bundled @svc/openapi document loaded through
// @svc/spec-runtime, with the facts the checks use most (header names, the request-id pattern,
// the headers every response carries, the operations not yet specified) at hand. Everything here
// is read from the bundle by spec-runtime.
import { createRequire } from 'node:module';
import {
  type Contract,
  idPrefixes,
  isObject,
  loadContract,
  type Operation,
  serverHeaderNames,
} from '@svc/spec-runtime';
import {
  apiWideCode,
  componentSchema,
  everyResponseHeaders,
  isSafe,
  readUnspecifiedOperations,
  resourceOf,
  type UnspecifiedOperation,
} from '@svc/spec-runtime/facts';

export type { UnspecifiedOperation };
export type Spec = ReturnType<typeof specOf>;

function specOf(contract: Contract) {
  const info = isObject(contract.bundle.info) ? contract.bundle.info : {};
  const pattern = contract.limits.raw.request_id_pattern;
  if (typeof pattern !== 'string') throw new Error('info.x-svc-limits.request_id_pattern is missing from the bundle.');
  const headers = serverHeaderNames(contract);
  const pageSizeMax = contract.limits.raw.page_size_max;
  return {
    contract,
    title: typeof info.title === 'string' ? info.title : 'API',
    version: typeof info.version === 'string' ? info.version : '',
    /** The form of a generated request id (info.x-svc-limits.request_id_pattern). */
    requestIdPattern: new RegExp(pattern),
    /** The largest page a list answers (info.x-svc-limits.page_size_max), as a query value. */
    pageSizeMax: String(typeof pageSizeMax === 'number' ? pageSizeMax : 20),
    requestIdHeader: headers.requestId,
    idempotencyKeyHeader: headers.idempotencyKey,
    idempotencyReplayedHeader: headers.idempotencyReplayed,
    rateLimitHeaders: {
      limit: headers.rateLimitLimit,
      remaining: headers.rateLimitRemaining,
      reset: headers.rateLimitReset,
    },
    /** Headers documented as required on every response of every operation (X-Request-Id, X-RateLimit-*). */
    universalHeaders: everyResponseHeaders(contract),
    unspecifiedOperations: readUnspecifiedOperations(contract.bundle),
    resourceOf,
    resources: () => [...new Set(contract.operations.map(resourceOf))],
    isSafe: (op: Operation) => isSafe(contract, op),
    /** A request that could change data: a write method on an operation that is not side-effect free (or on none). */
    changesData: (method: string, path: string) => changesData(contract, method, path),
    apiWideCode: (status: number) => apiWideCode(contract, status),
    /** The node at a local pointer with `$ref`s followed. */
    resolve: (pointer: string) => contract.resolve(pointer),
    schema: (name: string) => componentSchema(contract, name),
    /** Each kind of conversation item with the id prefix that names it ("Identifier prefixes"). */
    entityKinds: entityKinds(contract),
    /** The custom field types whose answers carry options (CustomFieldResponse: if type is DROPDOWN then options). */
    optionFieldTypes: optionFieldTypes(contract),
  };
}

function optionFieldTypes(contract: Contract): string[] {
  const data = componentSchema(contract, 'CustomFieldResponse')?.properties;
  const condition = isObject(data) && isObject(data.data) ? data.data.if : undefined;
  const type = isObject(condition) && isObject(condition.properties) ? condition.properties.type : undefined;
  return isObject(type) && typeof type.const === 'string' ? [type.const] : [];
}

/**
 * ThreadEntityType's values paired with ThreadEntityId's prefixes, which the contract lists in the
 * same order (CALL cll-, TEXT_MESSAGE msg-, CONVERSATION_NOTE not-); none where it does not pair them.
 */
function entityKinds(contract: Contract): Array<{ prefix: string; type: string }> {
  const types = componentSchema(contract, 'ThreadEntityType')?.enum;
  const idSchema = componentSchema(contract, 'ThreadEntityId');
  const prefixes = idSchema ? idPrefixes(idSchema) : [];
  if (!Array.isArray(types) || types.length !== prefixes.length) return [];
  return prefixes.map((prefix, i) => ({ prefix, type: String(types[i]) }));
}

function changesData(contract: Contract, method: string, path: string): boolean {
  if (!contract.limits.writeMethods.includes(method.toUpperCase())) return false;
  const match = contract.matchRoute(method, path.split('?')[0] as string);
  return !('operation' in match && isSafe(contract, match.operation));
}

const specs = new WeakMap<object, Spec>();

/** The contract of a bundle (by default @svc/openapi's), loaded once per bundle. */
export function loadSpec(bundle: unknown = createRequire(import.meta.url)('@svc/openapi/openapi.json')): Spec {
  let spec = specs.get(bundle as object);
  if (!spec) {
    spec = specOf(loadContract(bundle));
    specs.set(bundle as object, spec);
  }
  return spec;
}
