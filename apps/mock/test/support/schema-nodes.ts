// The schema nodes that describe one place of a request (a parameter, a body property), so that
// the invalid-request cases can be derived from the contract: the node, the targets of its
// `$ref`s, and recursively its allOf/anyOf/oneOf branches.
import type { Contract } from '@svc/spec-runtime';

type Json = Record<string, any>;

function expand(contract: Contract, node: unknown, out: Json[]): Json[] {
  if (typeof node !== 'object' || node === null || out.includes(node as Json)) return out;
  const object = node as Json;
  out.push(object);
  if (typeof object.$ref === 'string') expand(contract, contract.resolve(object.$ref), out);
  for (const key of ['allOf', 'anyOf', 'oneOf'])
    if (Array.isArray(object[key])) for (const branch of object[key]) expand(contract, branch, out);
  return out;
}

/** Every node describing the schema at `pointer`, or (with `property`) one of its properties. */
export function nodesAt(contract: Contract, pointer: string, property?: string): Json[] {
  const nodes = expand(contract, contract.resolve(pointer), []);
  if (property === undefined) return nodes;
  const out: Json[] = [];
  for (const node of nodes)
    if (node.properties?.[property] !== undefined) expand(contract, node.properties[property], out);
  return out;
}
