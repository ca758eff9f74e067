// info.x-svc-unspecified-operations: operations and events the description names without a
// method and path (or a payload). The docs list them; they never get an invented path.
import type { OpenApiDocument } from './openapi.js';

export interface UnspecifiedOperation {
  name: string;
  kind: 'operation' | 'event';
  tag?: string;
  scope?: string;
  unspecified: string[];
  error_codes?: string[];
  notes?: string;
}

export function unspecifiedOperations(doc: OpenApiDocument): UnspecifiedOperation[] {
  const list = doc.info['x-svc-unspecified-operations'];
  if (!Array.isArray(list)) throw new Error('info.x-svc-unspecified-operations is missing');
  return list as UnspecifiedOperation[];
}
