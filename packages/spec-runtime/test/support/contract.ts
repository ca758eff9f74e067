import { createRequire } from 'node:module';
import { type Contract, loadContract } from '../../src/index.js';

const require = createRequire(import.meta.url);
export const bundle = require('@svc/openapi/openapi.json') as Record<string, unknown>;

let cached: Contract | undefined;
export function contract(): Contract {
  cached ??= loadContract(bundle);
  return cached;
}

export function op(operationId: string) {
  const found = contract().operationsById.get(operationId);
  if (!found) throw new Error(`no operation ${operationId}`);
  return found;
}
