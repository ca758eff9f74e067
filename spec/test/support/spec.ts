// Shared access to the bundled contract for the spec's own tests: the document, its operations,
// $ref resolution and one Ajv (JSON Schema 2020-12) instance that knows the whole document.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export const specDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const distDir = join(specDir, 'dist');

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export const bundle: Json = JSON.parse(readFileSync(join(distDir, 'openapi.json'), 'utf8'));

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export const WRITE_METHODS = new Set(['post', 'put', 'patch', 'delete']);

export interface Operation {
  method: string;
  path: string;
  op: Json;
  /** JSON pointer of the operation inside the bundle. */
  pointer: string;
}

export const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

function operationsOf(section: Json, sectionName: string): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries<Json>(section ?? {})) {
    const resolved = resolve(item);
    for (const method of HTTP_METHODS) {
      if (resolved[method]) {
        out.push({ method, path, op: resolved[method], pointer: `#/${sectionName}/${escapePointer(path)}/${method}` });
      }
    }
  }
  return out;
}

export const operations: Operation[] = operationsOf(bundle.paths, 'paths');
export const webhookOperations: Operation[] = operationsOf(bundle.webhooks, 'webhooks');

/** Follows internal `$ref`s of the bundle until a non-reference node is reached. */
export function resolve(node: Json): Json {
  let current = node;
  for (let hops = 0; current && typeof current === 'object' && typeof current.$ref === 'string'; hops++) {
    if (hops > 20) throw new Error(`reference cycle at ${node.$ref}`);
    current = atPointer(current.$ref);
  }
  return current;
}

export function atPointer(ref: string): Json {
  if (!ref.startsWith('#/')) throw new Error(`not an internal reference: ${ref}`);
  return ref
    .slice(2)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((node: Json, key) => {
      if (node === undefined || !(key in node)) throw new Error(`unresolvable reference ${ref}`);
      return node[key];
    }, bundle);
}

export interface CatalogueEntry {
  code: string;
  status: number;
  type: string;
  unspecified?: string;
}

const errorCode = bundle.components.schemas.ErrorCode;
export const catalogue: CatalogueEntry[] = errorCode.enum.map((code: string) => ({
  code,
  status: errorCode['x-svc-codes']?.[code]?.['x-svc-status'],
  type: errorCode['x-svc-codes']?.[code]?.['x-svc-error-type'],
  unspecified: errorCode['x-svc-codes']?.[code]?.['x-svc-unspecified'],
}));

export const statusesOfType: Record<string, number[]> = bundle.components.schemas.ErrorType['x-svc-status-of-type'];

/**
 * The type const and code schema of an error schema's narrowing: allOf [ApiErrorFields, { properties:
 * { type: {const}, code: {$ref: <Name>Code} } }] (or ApiError's own, where code is the catalogue).
 */
export function errorNarrowing(error: Json): { code: Json; type: Json } {
  const members: Json[] = (resolve(error)?.allOf ?? []).map(resolve);
  // The last member with a code: ApiErrorFields (code a plain string) comes first.
  const own = members.filter((m) => m?.properties?.code !== undefined).at(-1)?.properties ?? {};
  return { code: resolve(own.code), type: resolve(own.type) };
}

/** The codes (and type) an error response admits, read from its narrowing inside `error`. */
export function errorResponseConstraint(response: Json): { codes: string[]; type: string | undefined } {
  const schema = response.content?.['application/json']?.schema;
  const { code, type } = errorNarrowing(schema?.properties?.error);
  return { codes: code?.enum ?? [], type: type?.const };
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(bundle, 'openapi.json');
const validators = new Map<string, ValidateFunction>();

/** A validator for the schema at a JSON pointer of the bundle (compiled once). */
export function validatorAt(pointer: string): ValidateFunction {
  let validate = validators.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `openapi.json${pointer}` });
    validators.set(pointer, validate);
  }
  return validate;
}

export const schemaPointer = (name: string) => `#/components/schemas/${name}`;
