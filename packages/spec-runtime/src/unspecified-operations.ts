// info.x-svc-unspecified-operations: the operations and events the API description names without
// a method and path (or a payload). Readers list them; nobody gives them an invented path.
import { isObject, type JsonObject } from './json-pointer.js';

export interface UnspecifiedOperation {
  name: string;
  kind: 'operation' | 'event';
  tag?: string;
  scope?: string;
  /** What the description leaves out (method, path, payload, ...). */
  unspecified: string[];
  error_codes?: string[];
  notes?: string;
}

export function readUnspecifiedOperations(bundle: JsonObject): UnspecifiedOperation[] {
  const list = isObject(bundle.info) ? bundle.info['x-svc-unspecified-operations'] : undefined;
  if (!Array.isArray(list)) throw new Error('The bundle has no info.x-svc-unspecified-operations.');
  return list.filter(isObject) as unknown as UnspecifiedOperation[];
}
