// Reads every operation of the bundle into a flat, resolved form: parameters (path-level merged
// with operation-level), the request body, security alternatives, documented statuses and, per
// error status, the exact codes the operation lists (the `code.enum` of its error response).
import type { Catalogue } from './catalogue.js';
import { childPointer, escapeSegment, follow, isObject, type JsonObject } from './json-pointer.js';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

export interface OperationParameter {
  name: string;
  in: ParameterLocation;
  required: boolean;
  /** The parameter's schema with `$ref`s followed (for coercion), and where it lives (for Ajv). */
  schema: JsonObject;
  schemaPointer: string;
  /** x-svc-error-code on the parameter object itself: it overrides the schema's own code. */
  errorCode?: string | JsonObject;
}

export interface OperationRequestBody {
  required: boolean;
  schemaPointer: string;
}

export interface Operation {
  operationId: string;
  /** Upper-case HTTP method. */
  method: string;
  /** The path template as documented, e.g. /v2/api/threads/{id}. */
  path: string;
  /** Pointer of the operation object in the bundle. */
  pointer: string;
  parameters: OperationParameter[];
  requestBody?: OperationRequestBody;
  /** Alternative security requirements: any one list of scopes suffices. [] means none needed. */
  security: string[][];
  /** Rate-limit and idempotency class, from info.x-svc-limits read/write methods. */
  class: 'read' | 'write';
  /** Documented response keys as written: '200', '2XX', '404', ... */
  statuses: string[];
  /** Error codes the operation lists, per HTTP status. */
  codesByStatus: ReadonlyMap<number, ReadonlySet<string>>;
  /** The raw operation object, for extensions (x-svc-transitions, x-svc-merge-rules, ...). */
  raw: JsonObject;
}

/** One operation of `paths` (or `webhooks`) as written, with its path item and where it lives. */
export interface OperationEntry {
  /** Lower-case, as the bundle keys it. */
  method: HttpMethod;
  /** The path template (or, under `webhooks`, the event's name). */
  path: string;
  pathItem: JsonObject;
  operation: JsonObject;
  /** Pointer of the operation object in the bundle. */
  pointer: string;
}

/** Every operation under `paths` (or `webhooks`), path items' `$ref`s followed, in document order. */
export function operationEntries(bundle: JsonObject, where: 'paths' | 'webhooks' = 'paths'): OperationEntry[] {
  const entries: OperationEntry[] = [];
  const items = bundle[where];
  for (const [path, rawItem] of Object.entries(isObject(items) ? items : {})) {
    const { node: pathItem, pointer: itemPointer } = follow(bundle, rawItem, childPointer(`#/${where}`, path));
    if (!isObject(pathItem)) continue;
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (isObject(operation))
        entries.push({ method, path, pathItem, operation, pointer: childPointer(itemPointer, method) });
    }
  }
  return entries;
}

/**
 * An operation's parameter objects, `$ref`s followed, each with the pointer it was reached by:
 * the path item's, then the operation's own, which override a path-level one of the same name
 * and location.
 */
export function parameterObjects(
  bundle: JsonObject,
  entry: OperationEntry,
): { parameter: JsonObject; pointer: string }[] {
  const read = (list: unknown, pointer: string) =>
    (Array.isArray(list) ? list : []).flatMap((raw, index) => {
      const { node: parameter, pointer: at } = follow(bundle, raw, childPointer(pointer, index));
      return isObject(parameter) && typeof parameter.name === 'string' && typeof parameter.in === 'string'
        ? [{ parameter, pointer: at }]
        : [];
    });
  const itemPointer = entry.pointer.slice(0, entry.pointer.lastIndexOf('/'));
  const own = read(entry.operation.parameters, childPointer(entry.pointer, 'parameters'));
  const pathLevel = read(entry.pathItem.parameters, childPointer(itemPointer, 'parameters')).filter(
    (p) => !own.some((o) => o.parameter.name === p.parameter.name && o.parameter.in === p.parameter.in),
  );
  return [...pathLevel, ...own];
}

/** The JSON media type object of an operation's request body (`$ref`s followed), if it takes one. */
export function requestBodyMedia(bundle: JsonObject, operation: JsonObject): JsonObject | undefined {
  const { node: body } = follow(bundle, operation.requestBody, '#');
  const media = isObject(body) && isObject(body.content) ? body.content['application/json'] : undefined;
  return isObject(media) ? media : undefined;
}

/** The example a parameter or media type object gives itself: its `example`, else its first `examples` entry's value. */
export function ownExample(bundle: JsonObject, holder: JsonObject | undefined): { value: unknown } | undefined {
  if (holder?.example !== undefined) return { value: holder.example };
  const first = isObject(holder?.examples) ? Object.values(holder.examples)[0] : undefined;
  const { node: example } = follow(bundle, first, '#');
  return isObject(example) ? { value: example.value } : undefined;
}

export function readOperations(bundle: JsonObject, catalogue: Catalogue, writeMethods: readonly string[]): Operation[] {
  const rootSecurity = Array.isArray(bundle.security) ? bundle.security : [];
  return operationEntries(bundle).map((entry) => {
    const { operation: op, path, pointer } = entry;
    const upper = entry.method.toUpperCase();
    return {
      operationId: typeof op.operationId === 'string' ? op.operationId : `${upper} ${path}`,
      method: upper,
      path,
      pointer,
      parameters: parameterObjects(bundle, entry).map(({ parameter, pointer: at }) =>
        readParameter(bundle, parameter, at),
      ),
      ...readRequestBody(bundle, op.requestBody, childPointer(pointer, 'requestBody')),
      security: readSecurity(Array.isArray(op.security) ? op.security : rootSecurity),
      class: writeMethods.includes(upper) ? 'write' : 'read',
      statuses: isObject(op.responses) ? Object.keys(op.responses) : [],
      codesByStatus: readCodesByStatus(bundle, op, pointer, catalogue),
      raw: op,
    };
  });
}

function readParameter(bundle: JsonObject, param: JsonObject, at: string): OperationParameter {
  const schemaAt = childPointer(at, 'schema');
  const { node: schema } = follow(bundle, param.schema, schemaAt);
  const code = param['x-svc-error-code'];
  return {
    name: param.name as string,
    in: param.in as ParameterLocation,
    required: param.required === true,
    schema: isObject(schema) ? schema : {},
    schemaPointer: schemaAt,
    ...(typeof code === 'string' || isObject(code) ? { errorCode: code } : {}),
  };
}

function readRequestBody(bundle: JsonObject, raw: unknown, pointer: string): { requestBody?: OperationRequestBody } {
  if (raw === undefined) return {};
  const { node: body, pointer: at } = follow(bundle, raw, pointer);
  if (!isObject(body) || !isObject(body.content)) return {};
  const media = body.content['application/json'];
  if (!isObject(media) || media.schema === undefined) return {};
  return {
    requestBody: {
      required: body.required === true,
      schemaPointer: childPointer(at, 'content', 'application/json', 'schema'),
    },
  };
}

function readSecurity(requirements: unknown[]): string[][] {
  // One requirement object may name several schemes (all needed); this API has one scheme,
  // so the scopes of every scheme in the object are simply collected together.
  return requirements
    .filter(isObject)
    .map((requirement) =>
      Object.values(requirement).flatMap((s) =>
        Array.isArray(s) ? s.filter((x): x is string => typeof x === 'string') : [],
      ),
    );
}

/**
 * The codes an error response schema admits: every `enum` that constrains `error.code`, through
 * $ref and allOf (of the envelope and of `error` itself), intersected, since allOf is a conjunction.
 * A named error (allOf [ApiErrorFields, { code: <Name>Code }]) gives its own list; ApiError gives the
 * catalogue. The link of a named error to ApiError (dependentSchemas) is not followed: every listed
 * code is a catalogue code (the spec's lint checks it), so it would narrow nothing.
 */
export function findCodeEnum(bundle: JsonObject, schema: unknown, depth = 0): string[] | undefined {
  const lists = envelopeCodeEnums(bundle, schema, depth);
  if (lists.length === 0) return undefined;
  // In the order of the narrowest list (the operation's own), not the catalogue's.
  const [narrowest, ...others] = [...lists].sort((a, b) => a.length - b.length);
  return (narrowest ?? []).filter((code) => others.every((list) => list.includes(code)));
}

function envelopeCodeEnums(bundle: JsonObject, schema: unknown, depth: number): string[][] {
  if (depth > 16) return [];
  const { node } = follow(bundle, schema, '#');
  if (!isObject(node)) return [];
  const lists = isObject(node.properties) ? errorCodeEnums(bundle, node.properties.error, depth + 1) : [];
  if (Array.isArray(node.allOf)) for (const sub of node.allOf) lists.push(...envelopeCodeEnums(bundle, sub, depth + 1));
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = node[key];
    if (lists.length > 0 || !Array.isArray(list)) continue;
    for (const sub of list) {
      const found = envelopeCodeEnums(bundle, sub, depth + 1);
      if (found.length > 0) {
        lists.push(...found);
        break;
      }
    }
  }
  return lists;
}

function errorCodeEnums(bundle: JsonObject, schema: unknown, depth: number): string[][] {
  if (depth > 16) return [];
  const { node: error } = follow(bundle, schema, '#');
  if (!isObject(error)) return [];
  const lists: string[][] = [];
  if (isObject(error.properties)) {
    const code = follow(bundle, error.properties.code, '#').node;
    if (isObject(code) && Array.isArray(code.enum))
      lists.push(code.enum.filter((c): c is string => typeof c === 'string'));
  }
  if (Array.isArray(error.allOf)) for (const sub of error.allOf) lists.push(...errorCodeEnums(bundle, sub, depth + 1));
  return lists;
}

function readCodesByStatus(
  bundle: JsonObject,
  op: JsonObject,
  pointer: string,
  catalogue: Catalogue,
): Map<number, Set<string>> {
  const result = new Map<number, Set<string>>();
  if (!isObject(op.responses)) return result;
  for (const [key, raw] of Object.entries(op.responses)) {
    const status = Number(key);
    if (!Number.isInteger(status) || status < 400) continue;
    const { node: response } = follow(bundle, raw, childPointer(pointer, 'responses', key));
    if (!isObject(response) || !isObject(response.content)) continue;
    const media = response.content['application/json'];
    if (!isObject(media)) continue;
    const listed = findCodeEnum(bundle, media.schema);
    // An error response without a code enum accepts any catalogue code of its status.
    const codes = listed ?? [...catalogue.values()].filter((e) => e.status === status).map((e) => e.code);
    result.set(status, new Set(codes));
  }
  return result;
}

/** Which documented response of an operation a status falls under ('404', then '4XX', then 'default'). */
export function responseKeyFor(op: Operation, status: number): string | undefined {
  const exact = String(status);
  if (op.statuses.includes(exact)) return exact;
  const range = `${Math.floor(status / 100)}XX`;
  if (op.statuses.includes(range)) return range;
  return op.statuses.includes('default') ? 'default' : undefined;
}

export function responsePointer(op: Operation, key: string): string {
  return `${op.pointer}/responses/${escapeSegment(key)}`;
}
