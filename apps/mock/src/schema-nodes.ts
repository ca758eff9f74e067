// Finds the schema nodes that describe one place of a request (a parameter, a body field such as
// options[1].label), so that a Prism violation at that place can be given the contract's code.
// A place can be described by several nodes at once: a `$ref` and its target (both may carry
// x-svc-error-code), and every branch of allOf/anyOf/oneOf. They are returned in that order:
// the node itself, what it refers to, then its branches.
type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function decodeSegment(segment: string): string {
  return decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The node at a local pointer (`#/components/...`), following `$ref`s met on the way. */
export function nodeAt(bundle: JsonObject, pointer: string): unknown {
  if (!pointer.startsWith('#')) return undefined;
  let node: unknown = bundle;
  const segments = pointer.slice(1).split('/').slice(1);
  for (const raw of segments) {
    for (let hops = 0; hops < 16 && isObject(node) && typeof node.$ref === 'string'; hops++) node = nodeAt(bundle, node.$ref);
    const segment = decodeSegment(raw);
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isObject(node)) node = node[segment];
    else return undefined;
  }
  return node;
}

/** The node, the targets of its `$ref` chain and, recursively, its allOf/anyOf/oneOf branches. */
export function expand(bundle: JsonObject, node: unknown, out: JsonObject[] = [], depth = 0): JsonObject[] {
  if (!isObject(node) || out.includes(node) || depth > 32) return out;
  out.push(node);
  if (typeof node.$ref === 'string') expand(bundle, nodeAt(bundle, node.$ref), out, depth + 1);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = node[key];
    if (Array.isArray(list)) for (const branch of list) expand(bundle, branch, out, depth + 1);
  }
  return out;
}

/** The nodes describing the child `segment` (a property name or an array index) of any of `nodes`. */
export function step(bundle: JsonObject, nodes: readonly JsonObject[], segment: string): JsonObject[] {
  const out: JsonObject[] = [];
  const index = /^\d+$/.test(segment) ? Number(segment) : undefined;
  for (const node of nodes) {
    const properties = isObject(node.properties) ? node.properties : undefined;
    if (properties && segment in properties) expand(bundle, properties[segment], out);
    else if (isObject(node.additionalProperties)) expand(bundle, node.additionalProperties, out);
    if (index !== undefined) {
      const prefix = Array.isArray(node.prefixItems) ? node.prefixItems[index] : undefined;
      if (prefix !== undefined) expand(bundle, prefix, out);
      else if (isObject(node.items)) expand(bundle, node.items, out);
    }
  }
  return out;
}

/** Every node describing the place reached from the schema at `pointer` through `segments`. */
export function nodesAt(bundle: JsonObject, pointer: string, segments: readonly string[]): JsonObject[] {
  let nodes = expand(bundle, nodeAt(bundle, pointer));
  for (const segment of segments) nodes = step(bundle, nodes, segment);
  return nodes;
}
