// The OpenAPI 3.1 types the docs build reads the bundle with (openapi3-ts's), and the few helpers
// every generator shares (finding an example). Walking the bundle (operations, parameters, $refs,
// header names, the catalogue) is @svc/spec-runtime's job: asJson() hands it the document, and the
// typed views below only name what it found. The bundle keeps `$ref`s, so a value that may be one
// goes through resolve() before it is read.
import { type JsonObject as BundleJson, follow } from '@svc/spec-runtime';
import {
  type OperationEntry as BundleOperationEntry,
  headerNamesByComponent,
  operationEntries,
  ownExample,
  parameterObjects,
  requestBodyMedia,
} from '@svc/spec-runtime/walk';
import type {
  HeaderObject as Header,
  MediaTypeObject as MediaType,
  OpenAPIObject as OpenApiDocument,
  OperationObject as Operation,
  ParameterObject as Parameter,
  PathItemObject as PathItem,
  ReferenceObject as Reference,
  SchemaObject as Schema,
} from 'openapi3-ts/oas31';

export { HTTP_METHODS } from '@svc/spec-runtime/walk';
export type {
  ResponseObject as Response,
  SecurityRequirementObject as SecurityRequirement,
  TagObject as Tag,
} from 'openapi3-ts/oas31';
export type { Header, MediaType, OpenApiDocument, Operation, Parameter, PathItem, Reference, Schema };

export type JsonObject = { [key: string]: unknown };

/** One operation of `paths` (or `webhooks`), with where it lives: spec-runtime's entry, typed. */
export interface OperationEntry extends Omit<BundleOperationEntry, 'pathItem' | 'operation'> {
  pathItem: PathItem;
  operation: Operation;
}

export function isReference(value: unknown): value is Reference {
  return typeof value === 'object' && value !== null && typeof (value as Reference).$ref === 'string';
}

/** The bundle (or a part of it) as @svc/spec-runtime's readers take it: the same object, typed as plain JSON. */
export function asJson(node: object): BundleJson {
  return node as unknown as BundleJson;
}

/** Follows an internal `$ref` chain (`#/components/...`) to the object it names. */
export function resolve<T>(doc: OpenApiDocument, value: T | Reference): T {
  const { node, pointer } = follow(doc, value, '#');
  if (node === undefined && isReference(value)) throw new Error(`Unresolvable $ref ${pointer}`);
  return node as T;
}

/** A named component (`components.schemas.ApiError`), resolved; the build fails without it. */
export function namedComponent<T>(doc: OpenApiDocument, kind: 'schemas' | 'parameters', name: string): T {
  const value = doc.components?.[kind]?.[name];
  if (!value) throw new Error(`The bundle has no components.${kind}.${name}`);
  return resolve(doc, value as T | Reference);
}

/** The component name a `$ref` points at (`#/components/schemas/Deal` → `Deal`). */
export function refName(value: unknown): string | undefined {
  return isReference(value) ? value.$ref.split('/').pop() : undefined;
}

export function listOperations(doc: OpenApiDocument, where: 'paths' | 'webhooks' = 'paths'): OperationEntry[] {
  return operationEntries(asJson(doc), where) as unknown as OperationEntry[];
}

/** "GET /v2/api/threads" — how the docs name an operation for people. */
export function operationLabel(entry: Pick<OperationEntry, 'method' | 'path'>): string {
  return `${entry.method.toUpperCase()} ${entry.path}`;
}

/** Path-level and operation-level parameters, resolved; the operation's win on (in, name). */
export function parametersOf(doc: OpenApiDocument, entry: OperationEntry): Parameter[] {
  return parameterObjects(asJson(doc), entry as unknown as BundleOperationEntry).map(
    ({ parameter }) => parameter as unknown as Parameter,
  );
}

/** The value a schema offers as its example: examples[0], example, const, enum[0] or default. */
export function schemaExample(doc: OpenApiDocument, schemaOrRef: Schema | Reference | undefined): unknown {
  if (!schemaOrRef) return undefined;
  const schema = resolve(doc, schemaOrRef);
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  for (const member of [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) {
    const value = schemaExample(doc, member);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** The example of a parameter or a media type: its own `example`/`examples` first, then its schema's. */
export function exampleOf(doc: OpenApiDocument, holder: Parameter | MediaType): unknown {
  const own = ownExample(asJson(doc), asJson(holder));
  return own ? own.value : schemaExample(doc, holder.schema);
}

/** The JSON media type of an operation's request body, or undefined when it takes no body. */
export function requestMediaOf(doc: OpenApiDocument, operation: Operation): MediaType | undefined {
  return requestBodyMedia(asJson(doc), asJson(operation)) as MediaType | undefined;
}

/** The first JSON request-body example of an operation, or undefined when it takes no body. */
export function firstRequestBodyExample(doc: OpenApiDocument, operation: Operation): { value: unknown } | undefined {
  const media = requestMediaOf(doc, operation);
  const value = media ? exampleOf(doc, media) : undefined;
  return value === undefined ? undefined : { value };
}

/** The first server's URL with its variables set to their defaults. */
export function defaultServerUrl(doc: OpenApiDocument): string {
  const server = doc.servers?.[0];
  if (!server) throw new Error('The contract names no server');
  return server.url.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const variable = server.variables?.[name];
    if (!variable) throw new Error(`Server variable ${name} has no default`);
    return String(variable.default);
  });
}

/** Every header component with its name on the wire (where responses use it; else the component's name). */
export function namedHeaders(doc: OpenApiDocument): { name: string; header: Header }[] {
  const names = headerNamesByComponent(asJson(doc));
  return Object.entries(doc.components?.headers ?? {}).map(([component, header]) => ({
    name: names.get(component) ?? component,
    header: resolve(doc, header),
  }));
}
