// JSON Pointer helpers for walking the bundle. The bundle keeps internal `$ref`s
// (`#/components/...`), so anything that reads a schema, a parameter or a response must follow
// them while remembering where it ended up: Ajv compiles schemas by their pointer into the bundle.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function escapeSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Appends segments to a `#/...` pointer. */
export function childPointer(pointer: string, ...segments: Array<string | number>): string {
  return segments.reduce<string>((p, s) => `${p}/${escapeSegment(String(s))}`, pointer);
}

/** Reads the value at a local pointer (`#/a/b`); undefined when any step is missing. */
export function getByPointer(doc: unknown, pointer: string): unknown {
  if (pointer === '#' || pointer === '') return doc;
  if (!pointer.startsWith('#/')) throw new Error(`Only local JSON pointers are supported, got ${pointer}`);
  let node: unknown = doc;
  for (const raw of pointer.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isObject(node)) node = node[key];
    else return undefined;
  }
  return node;
}

export interface Located<T = JsonObject> {
  node: T;
  pointer: string;
}

/** Follows a chain of local `$ref`s, returning the final node and its pointer. */
export function follow(doc: unknown, node: unknown, pointer: string): Located<unknown> {
  let current: unknown = node;
  let at = pointer;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops++) {
    if (hops > 32) throw new Error(`$ref cycle at ${pointer}`);
    at = current.$ref;
    current = getByPointer(doc, at);
  }
  return { node: current, pointer: at };
}
