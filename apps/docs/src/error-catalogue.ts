// The error catalogue as data: @svc/spec-runtime's reading of the `ErrorCode` schema (each code's
// meaning, status, type, suggestion, retryable) with the honesty markers the docs also show
// (x-svc-unspecified, x-svc-inferred in the code's x-svc-codes entry).
import type { CatalogueEntry } from '@svc/spec-runtime';
import { findCodeEnum, readCatalogue } from '@svc/spec-runtime/walk';
import { asJson, type OpenApiDocument, type Reference, type Response, resolve } from './openapi.js';

export type { CatalogueEntry };

export function errorCatalogue(doc: OpenApiDocument): CatalogueEntry[] {
  return [...readCatalogue(asJson(doc)).values()];
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
 * The error codes a response can carry: the `error.code` enum its schema narrows to (through $refs
 * and allOf members, as @svc/spec-runtime reads it).
 */
export function codesOfResponse(doc: OpenApiDocument, responseOrRef: Response | Reference): string[] {
  const codes = new Set<string>();
  for (const media of Object.values(resolve(doc, responseOrRef).content ?? {})) {
    for (const code of findCodeEnum(asJson(doc), media.schema) ?? []) codes.add(code);
  }
  return [...codes];
}
