// The prefix of a resource's ids, as the contract writes it: an id schema's pattern `^cth-.+$`
// (ThreadId) says ids start with `cth-`. Servers that issue or tell ids apart read it here.
import type { Contract } from './contract.js';
import { isObject } from './json-pointer.js';

const LITERAL_PREFIX = /^[a-z0-9]+-$/;

export function idPrefixOf(contract: Contract, schemaName: string): string {
  const schema = contract.resolve(`#/components/schemas/${schemaName}`);
  const pattern = isObject(schema) ? schema.pattern : undefined;
  const prefix = typeof pattern === 'string' && pattern.startsWith('^') && pattern.endsWith('.+$') ? pattern.slice(1, -3) : '';
  if (!LITERAL_PREFIX.test(prefix)) throw new Error(`components.schemas.${schemaName} has no id pattern of the form ^prefix-.+$.`);
  return prefix;
}
