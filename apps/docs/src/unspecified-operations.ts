// info.x-svc-unspecified-operations: operations and events the description names without a
// method and path (or a payload). The docs list them; they never get an invented path.
import { readUnspecifiedOperations, type UnspecifiedOperation } from '@svc/spec-runtime';
import { asJson, type OpenApiDocument } from './openapi.js';

export type { UnspecifiedOperation };

export function unspecifiedOperations(doc: OpenApiDocument): UnspecifiedOperation[] {
  return readUnspecifiedOperations(asJson(doc));
}
