// The error catalogue as data: the `ErrorCode` schema's enum, one entry per code, with its meaning
// (x-enum-descriptions) and the x-svc-* facts the contract attaches to each in x-svc-codes
// (status, type, suggestion, retryable, markers).
import { resolve, type JsonObject, type OpenApiDocument, type Response, type Schema } from './openapi.js';

export interface CatalogueEntry {
  code: string;
  status: number;
  type: string;
  meaning: string;
  suggestion?: string;
  retryable?: boolean;
  apiWide: boolean;
  unspecified?: string;
  inferred?: string;
}

export function errorCatalogue(doc: OpenApiDocument): CatalogueEntry[] {
  const schema = doc.components?.schemas?.ErrorCode;
  const facts = schema?.['x-svc-codes'] as Record<string, JsonObject> | undefined;
  if (!Array.isArray(schema?.enum) || !facts) throw new Error('The bundle has no components.schemas.ErrorCode catalogue');
  const descriptions = (schema['x-enum-descriptions'] ?? []) as string[];
  return schema.enum.map((code, index) => {
    const entry: JsonObject = { ...facts[String(code)], const: code, description: descriptions[index] };
    const status = entry['x-svc-status'];
    if (typeof entry.const !== 'string' || typeof status !== 'number') {
      throw new Error(`ErrorCode entry without const or x-svc-status: ${JSON.stringify(entry).slice(0, 120)}`);
    }
    return {
      code: entry.const,
      status,
      type: String(entry['x-svc-error-type']),
      meaning: typeof entry.description === 'string' ? entry.description : '',
      ...(typeof entry['x-svc-suggestion'] === 'string' ? { suggestion: entry['x-svc-suggestion'] } : {}),
      ...(typeof entry['x-svc-retryable'] === 'boolean' ? { retryable: entry['x-svc-retryable'] } : {}),
      apiWide: entry['x-svc-api-wide'] === true,
      ...(typeof entry['x-svc-unspecified'] === 'string' ? { unspecified: entry['x-svc-unspecified'] } : {}),
      ...(typeof entry['x-svc-inferred'] === 'string' ? { inferred: entry['x-svc-inferred'] } : {}),
    };
  });
}

/**
 * The link to a code's section of the Errors guide (its `### CODE` heading, which Redoc routes by
 * the heading in lower case): the fragment of its `doc_url` when the sandbox serves these docs.
 * The browser test follows the sandbox's doc_url for every code, so the two stay in step.
 */
export function errorAnchor(code: string): string {
  return `#/guide-errors/${code.toLowerCase()}`;
}

export function catalogueEntry(doc: OpenApiDocument, code: string): CatalogueEntry {
  const entry = errorCatalogue(doc).find((candidate) => candidate.code === code);
  if (!entry) throw new Error(`Error code ${code} is not in the catalogue`);
  return entry;
}

/**
 * The error codes a response can carry: the `error.code` enum (or const) its schema narrows to,
 * found through $refs and allOf members.
 */
export function codesOfResponse(doc: OpenApiDocument, responseOrRef: Response | { $ref: string }): string[] {
  const response = resolve(doc, responseOrRef);
  const codes = new Set<string>();
  const visit = (schemaOrRef: Schema | undefined, depth: number): void => {
    if (!schemaOrRef || depth > 12) return;
    const schema = resolve(doc, schemaOrRef);
    const error = schema.properties?.error as Schema | undefined;
    if (error) visitError(error, depth + 1);
    for (const member of [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) visit(member, depth + 1);
  };
  // A named error (GetThreadNotFoundError) narrows code in an allOf member, beside ApiErrorFields.
  const visitError = (errorOrRef: Schema, depth: number): void => {
    if (depth > 12) return;
    const error = resolve(doc, errorOrRef);
    const code = error.properties?.code;
    if (code) {
      const narrowed = resolve(doc, code);
      if (narrowed !== doc.components?.schemas?.ErrorCode) {
        for (const value of narrowed.enum ?? []) codes.add(String(value));
        if (narrowed.const !== undefined) codes.add(String(narrowed.const));
      }
    }
    for (const member of error.allOf ?? []) visitError(member, depth + 1);
  };
  for (const media of Object.values(response.content ?? {})) visit((media as JsonObject).schema as Schema, 0);
  return [...codes];
}
