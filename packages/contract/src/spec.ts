// The contract as the checks see it: the bundled @svc/openapi document loaded through
// @svc/spec-runtime, plus the facts the checks need that spec-runtime does not name (request-id
// pattern, the headers every response carries, the operations not yet specified, which
// operations are free of side effects). Everything here is read from the bundle.
import { createRequire } from 'node:module';
import { loadContract, type Contract, type Operation } from '@svc/spec-runtime';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface UniversalHeader {
  name: string;
  /** The header's schema says integer or number. */
  numeric: boolean;
}

export interface UnspecifiedOperation {
  name: string;
  tag?: string;
  scope?: string;
  unspecified: string[];
}

export interface ScopeReadings {
  /** Alternative requirements: any one list of scopes suffices. */
  alternatives: string[][];
  /** The spec marks the scope as inferred (x-svc-inferred.scope) or lists several alternatives. */
  uncertain: boolean;
}

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
  universalHeaders: UniversalHeader[];
  unspecifiedOperations: UnspecifiedOperation[];
  /** The resource (test file) an operation belongs to: its first tag, as a slug. */
  resourceOf(op: Operation): string;
  resources(): string[];
  /** No side effects: a read method, or every scope alternative is a *_READ scope (the read-only POST searches). */
  isSafe(op: Operation): boolean;
  scopeReadings(op: Operation): ScopeReadings;
  /** The API-wide error code the contract gives for a status (ENDPOINT_NOT_FOUND for 404, METHOD_NOT_ALLOWED for 405). */
  apiWideCode(status: number): string | undefined;
  /** The schema at a local pointer with `$ref`s followed. */
  resolve(pointer: string): unknown;
  /** A component schema by name (identity comparisons: is this parameter a PhoneNumber?). */
  schema(name: string): Json | undefined;
}

export function slug(tag: string): string {
  return tag
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

let cachedBundle: unknown;

/** The parsed bundle of @svc/openapi (read once per process). */
export function bundledDocument(): unknown {
  cachedBundle ??= createRequire(import.meta.url)('@svc/openapi/openapi.json');
  return cachedBundle;
}

const specs = new WeakMap<object, Spec>();

export function loadSpec(bundle: unknown = bundledDocument()): Spec {
  const cached = specs.get(bundle as object);
  if (cached) return cached;
  const contract = loadContract(bundle);
  const doc = contract.bundle as Json;
  const info = isObject(doc.info) ? doc.info : {};
  const components = isObject(doc.components) ? doc.components : {};
  const limits = contract.limits.raw;
  const pattern = typeof limits.request_id_pattern === 'string' ? limits.request_id_pattern : undefined;
  if (!pattern) throw new Error('info.x-svc-limits.request_id_pattern is missing from the bundle.');

  const parameterName = (component: string): string => {
    const params = isObject(components.parameters) ? components.parameters : {};
    const p = params[component];
    if (!isObject(p) || typeof p.name !== 'string') throw new Error(`components.parameters.${component} is missing from the bundle.`);
    return p.name;
  };

  // The name a response gives to a header component (headers are keyed by name in each response).
  const headerRef = (component: string) => `#/components/headers/${component}`;
  const responses = contract.operations.flatMap((op) =>
    op.statuses.map((key) => contract.resolve(`${op.pointer}/responses/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`)),
  );
  const headerNameOf = (component: string): string => {
    for (const response of responses) {
      if (!isObject(response) || !isObject(response.headers)) continue;
      for (const [name, h] of Object.entries(response.headers)) if (isObject(h) && h.$ref === headerRef(component)) return name;
    }
    throw new Error(`No response uses components.headers.${component}.`);
  };

  // Headers required on every documented response: the contract's "on every response" headers.
  let universal: Map<string, UniversalHeader> | undefined;
  for (const response of responses) {
    if (!isObject(response)) continue;
    const here = new Map<string, UniversalHeader>();
    const headers = isObject(response.headers) ? response.headers : {};
    for (const [name, raw] of Object.entries(headers)) {
      const h = isObject(raw) && typeof raw.$ref === 'string' ? contract.resolve(raw.$ref) : raw;
      if (!isObject(h) || h.required !== true) continue;
      const schema = isObject(h.schema) && typeof h.schema.$ref === 'string' ? contract.resolve(h.schema.$ref) : h.schema;
      const type = isObject(schema) ? schema.type : undefined;
      here.set(name, { name, numeric: type === 'integer' || type === 'number' });
    }
    universal = universal ? new Map([...universal].filter(([name]) => here.has(name))) : here;
  }

  const unspecifiedOperations: UnspecifiedOperation[] = (Array.isArray(info['x-svc-unspecified-operations']) ? info['x-svc-unspecified-operations'] : [])
    .filter(isObject)
    .map((entry) => ({
      name: String(entry.name),
      ...(typeof entry.tag === 'string' ? { tag: entry.tag } : {}),
      ...(typeof entry.scope === 'string' ? { scope: entry.scope } : {}),
      unspecified: Array.isArray(entry.unspecified) ? entry.unspecified.map(String) : [],
    }));

  const resourceOf = (op: Operation): string => {
    const tags = Array.isArray(op.raw.tags) ? op.raw.tags : [];
    return slug(typeof tags[0] === 'string' ? tags[0] : 'untagged');
  };

  const spec: Spec = {
    contract,
    title: typeof info.title === 'string' ? info.title : 'API',
    version: typeof info.version === 'string' ? info.version : '',
    requestIdPattern: new RegExp(pattern),
    requestIdHeader: parameterName('RequestIdParameter'),
    idempotencyKeyHeader: parameterName('IdempotencyKeyParameter'),
    idempotencyReplayedHeader: headerNameOf('IdempotencyReplayedHeader'),
    rateLimitHeaders: { limit: headerNameOf('RateLimitLimitHeader'), remaining: headerNameOf('RateLimitRemainingHeader'), reset: headerNameOf('RateLimitResetHeader') },
    universalHeaders: [...(universal ?? new Map()).values()],
    unspecifiedOperations,
    resourceOf,
    resources: () => [...new Set(contract.operations.map(resourceOf))],
    isSafe: (op) =>
      contract.limits.readMethods.includes(op.method) ||
      (op.security.length > 0 && op.security.every((alt) => alt.length > 0 && alt.every((scope) => scope.endsWith('_READ')))),
    scopeReadings: (op) => {
      const inferred = isObject(op.raw['x-svc-inferred']) && 'scope' in op.raw['x-svc-inferred'];
      return { alternatives: op.security, uncertain: inferred || op.security.length > 1 };
    },
    apiWideCode: (status) => [...contract.catalogue.values()].find((e) => e.apiWide && e.status === status)?.code,
    resolve: (pointer) => contract.resolve(pointer),
    schema: (name) => {
      const schemas = isObject(components.schemas) ? components.schemas : {};
      const s = schemas[name];
      return isObject(s) ? s : undefined;
    },
  };
  specs.set(bundle as object, spec);
  return spec;
}
