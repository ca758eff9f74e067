// Facts that readers of the contract beyond the request pipeline need (the contract tests, their
// reports): the headers every documented response carries, each operation's resource, whether it
// is free of side effects, whether its scope is inferred, the API-wide code of a status, a
// component schema by name and the codes of a shared error response. All read from the bundle.
import type { Contract } from './contract.js';
import { childPointer, follow, getByPointer, isObject, type JsonObject } from './json-pointer.js';
import { findCodeEnum, type Operation, responsePointer } from './operations.js';
import { serverHeaderNames } from './server-headers.js';

export interface ResponseHeader {
  name: string;
  /** Its schema says integer or number. */
  numeric: boolean;
}

/** The headers required on every documented response of every operation (X-Request-Id, X-RateLimit-*). */
export function everyResponseHeaders(contract: Contract): ResponseHeader[] {
  let common: Map<string, ResponseHeader> | undefined;
  for (const op of contract.operations) {
    for (const key of op.statuses) {
      const response = contract.resolve(responsePointer(op, key));
      if (!isObject(response)) continue;
      const here = new Map<string, ResponseHeader>();
      for (const [name, raw] of Object.entries(isObject(response.headers) ? response.headers : {})) {
        const header = follow(contract.bundle, raw, '#').node;
        if (!isObject(header) || header.required !== true) continue;
        const schema = follow(contract.bundle, header.schema, '#').node;
        const type = isObject(schema) ? schema.type : undefined;
        here.set(name, { name, numeric: type === 'integer' || type === 'number' });
      }
      common = common ? new Map([...common].filter(([name]) => here.has(name))) : here;
    }
  }
  return [...(common ?? new Map()).values()];
}

/** The resource an operation belongs to: its first tag, as a slug (`Custom Fields` → custom-fields). */
export function resourceOf(op: Operation): string {
  const tag = Array.isArray(op.raw.tags) && typeof op.raw.tags[0] === 'string' ? op.raw.tags[0] : 'untagged';
  return tag
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** No side effects: a read method, or every scope alternative holds only *_READ scopes (the read-only POST searches). */
export function isSafe(contract: Contract, op: Operation): boolean {
  if (contract.limits.readMethods.includes(op.method)) return true;
  return (
    op.security.length > 0 &&
    op.security.every((alt) => alt.length > 0 && alt.every((scope) => scope.endsWith('_READ')))
  );
}

/** The operation's scope is inferred (x-svc-inferred.scope) rather than stated by the description. */
export function isScopeInferred(op: Operation): boolean {
  const inferred = op.raw['x-svc-inferred'];
  return isObject(inferred) && 'scope' in inferred;
}

/**
 * The operation's `x-svc-ambiguity` about one aspect (`line-access`, ...), when the marker is a map
 * of aspects: the description's conflicting statements, each a reading a server may take.
 */
export function ambiguityOf(op: Operation, aspect: string): string | undefined {
  const marker = op.raw['x-svc-ambiguity'];
  return isObject(marker) && typeof marker[aspect] === 'string' ? marker[aspect] : undefined;
}

/**
 * Whether the contract promises that a repeated Idempotency-Key replays the operation's stored
 * response: a write that takes the key, unless its parameter says replay is not promised
 * (`x-svc-inferred.replay`: the description promises it for POST, PUT and DELETE, not PATCH).
 */
export function isReplayPromised(contract: Contract, op: Operation): boolean {
  const name = serverHeaderNames(contract).idempotencyKey.toLowerCase();
  const raw = Array.isArray(op.raw.parameters) ? op.raw.parameters : [];
  const key = raw
    .map((p) => follow(contract.bundle, p, '#').node)
    .find((p) => isObject(p) && p.in === 'header' && String(p.name).toLowerCase() === name);
  if (op.class !== 'write' || !isObject(key)) return false;
  const inferred = key['x-svc-inferred'];
  return !(isObject(inferred) && 'replay' in inferred);
}

/**
 * How a set of scopes stands against an operation's security requirement. Several alternatives are
 * several readings of the description (x-svc-ambiguity, or an inferred scope): 'sufficient' when
 * the scopes satisfy every reading, 'insufficient' when they satisfy none, 'depends' when the
 * readings disagree (a key holding one reading's scope only). [] (no scope needed) is sufficient.
 */
export function scopeStanding(op: Operation, scopes: readonly string[]): 'sufficient' | 'insufficient' | 'depends' {
  if (op.security.length === 0) return 'sufficient';
  const met = op.security.filter((alt) => alt.every((scope) => scopes.includes(scope))).length;
  if (met === op.security.length) return 'sufficient';
  return met === 0 ? 'insufficient' : 'depends';
}

/** The API-wide code the catalogue gives a status (ENDPOINT_NOT_FOUND for 404, METHOD_NOT_ALLOWED for 405). */
export function apiWideCode(contract: Contract, status: number): string | undefined {
  return [...contract.catalogue.values()].find((entry) => entry.apiWide && entry.status === status)?.code;
}

/** A component schema by name, as written (identity comparisons: is this parameter's schema PhoneNumber?). */
export function componentSchema(contract: Contract, name: string): JsonObject | undefined {
  const schema = getByPointer(contract.bundle, childPointer('#/components/schemas', name));
  return isObject(schema) ? schema : undefined;
}

/** The codes of a shared error response (components.responses), e.g. IdempotencyConflict. */
export function sharedResponseCodes(contract: Contract, name: string): string[] {
  const response = contract.resolve(`#/components/responses/${name}`);
  const media = isObject(response) && isObject(response.content) ? response.content['application/json'] : undefined;
  return (isObject(media) && findCodeEnum(contract.bundle, media.schema)) || [];
}
