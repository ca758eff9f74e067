// Walks a baseline schema and its current counterpart side by side (properties, array items,
// additionalProperties), handing each pair of views to the rules of one side: request-schemas.mjs
// (what clients send) or response-schemas.mjs (what clients read). The walk itself judges
// nothing; it only decides where to go and when to stop.
import { accepts } from './schema-view.mjs';

/**
 * @typedef {import('./schema-view.mjs').View} View
 * @typedef {import('./rules.mjs').Context} Context
 * @typedef {{
 *   name: 'request' | 'response',
 *   node(ctx: Context, base: View, head: View, location: string[]): void,
 *   fields(ctx: Context, base: View, head: View, location: string[]): void,
 *   skipsField(view: View): boolean,
 * }} Side
 */

// A bound on depth on top of cycle detection, for documents that nest absurdly deep.
const MAX_DEPTH = 64;

/** @type {WeakMap<View, number>} */
const ids = new WeakMap();
let nextId = 0;
/** @param {View} view */
function idOf(view) {
  let id = ids.get(view);
  if (id === undefined) {
    id = nextId++;
    ids.set(view, id);
  }
  return id;
}

/**
 * Compares two raw schemas (each of its own document) with one side's rules, recursively.
 * The trail holds the pairs of views being compared above this one: a recursive schema comes
 * back to a pair already on it (views are cached per schema object), and the walk stops there;
 * whatever changed inside the cycle has been reported on the way in.
 * @param {Context} ctx
 * @param {Side} side
 * @param {unknown} baseSchema
 * @param {unknown} headSchema
 * @param {string[]} location
 * @param {Set<string>} [trail]
 */
export function walkSchemas(ctx, side, baseSchema, headSchema, location, trail = new Set()) {
  const base = ctx.base.view(baseSchema);
  const head = ctx.head.view(headSchema);
  const key = `${idOf(base)}:${idOf(head)}`;
  if (trail.has(key) || trail.size >= MAX_DEPTH) return;
  trail.add(key);

  side.node(ctx, base, head, location);

  // Fields and items are compared only where both versions admit objects (arrays): when the type
  // itself changed, that is the finding, and comparing the fields of a type that no longer
  // applies would only add noise.
  if (accepts(base, 'object') && accepts(head, 'object')) {
    side.fields(ctx, base, head, location);
    for (const [name, baseField] of base.properties) {
      if (!head.properties.has(name) || side.skipsField(ctx.base.view(baseField))) continue;
      walkSchemas(ctx, side, baseField, head.properties.get(name), [...location, name], trail);
    }
    // Schemas of additional properties (maps): an absent schema is `true`. A closed object (false)
    // is a rule of its own (request-additional-properties-closed), not a schema to walk.
    if (base.additional !== false && head.additional !== false && (base.additional || head.additional)) {
      walkSchemas(ctx, side, base.additional ?? true, head.additional ?? true, [...location, '*'], trail);
    }
  }
  if (accepts(base, 'array') && accepts(head, 'array') && (base.items !== null || head.items !== null)) {
    walkSchemas(ctx, side, base.items ?? true, head.items ?? true, [...location, '[]'], trail);
  }
  trail.delete(key);
}
