// The one prefix of a resource's ids, as the contract states it (`x-svc-id-prefix: cth-` on
// ThreadId). Servers that issue ids read it here; schemas with several prefixes (a union of id
// kinds, such as ConversationItemId) have no single one and are refused.
import type { Contract } from './contract.js';
import { isObject } from './json-pointer.js';
import { idPrefixes } from './schema-walk.js';

export function idPrefixOf(contract: Contract, schemaName: string): string {
  const schema = contract.resolve(`#/components/schemas/${schemaName}`);
  const prefixes = isObject(schema) ? idPrefixes(schema) : [];
  if (prefixes.length !== 1) throw new Error(`components.schemas.${schemaName} has no single x-svc-id-prefix.`);
  return prefixes[0]!;
}
