// The normalized view of a JSON Schema that the rules compare: `$ref`, `allOf`, `oneOf` and `anyOf`
// are folded into one flat description (types, enum values, properties, required names, items,
// additionalProperties and the bounds), so that moving a field into an `allOf` member, a shared
// component or a `oneOf` branch is not itself reported as a change.
//
// How composition folds:
// - `$ref` (with or without sibling keywords) and `allOf` are a conjunction: types and enum values
//   intersect, properties and required names accumulate, bounds take the tightest value.
// - `oneOf` and `anyOf` are a disjunction: types and values unite, a property exists if any branch
//   has it (its schema is the anyOf of the branches' schemas), a name is required only if every
//   object branch requires it, and a bound holds only if every branch that accepts that kind of
//   value has it (the loosest wins). A `{ type: 'null' }` branch therefore makes a value nullable
//   without erasing the other branch's enum, pattern or bounds.
// - `not`, `if`/`then`/`else`, `dependent*`, `prefixItems`, `patternProperties` and `discriminator`
//   are not compared: they describe conditional or positional rules whose changes this gate
//   cannot judge soundly; review them by hand.
//
// Property, item and additionalProperties schemas stay raw (unresolved) in a view and are viewed
// lazily by the walk; a view is cached per raw schema object (Contract#views), which makes a
// recursive schema reach the same view again and lets the walk stop there.

/**
 * @typedef {any} Json
 * @typedef {{ value: number, exclusive: boolean }} Bound
 * @typedef {{
 *   types: Set<string> | null,              // JSON types ("integer" apart from "number"); null: any type
 *   values: Map<string, unknown> | null,     // enum/const values by canonical JSON; null: unrestricted
 *   properties: Map<string, Json>,           // name → raw schema (a synthetic allOf/anyOf when composed)
 *   required: Set<string>,
 *   items: Json | null,                      // null: items unconstrained
 *   additional: false | Json | null,         // false: closed object; null: open, unconstrained
 *   readOnly: boolean,
 *   writeOnly: boolean,
 *   minLength?: number, maxLength?: number,
 *   minItems?: number, maxItems?: number,
 *   minProperties?: number, maxProperties?: number,
 *   lower?: Bound, upper?: Bound,
 *   multipleOf: Set<number>,
 *   uniqueItems: boolean,
 *   patterns: Set<string>,
 *   formats: Set<string>,
 * }} View
 * @typedef {{ pointer(ref: string): Json, views: WeakMap<object, View> }} ViewSource
 */

/** @returns {View} */
function emptyView() {
  return {
    types: null,
    values: null,
    properties: new Map(),
    required: new Set(),
    items: null,
    additional: null,
    readOnly: false,
    writeOnly: false,
    multipleOf: new Set(),
    uniqueItems: false,
    patterns: new Set(),
    formats: new Set(),
  };
}

/** The view of `true`, `{}` or a missing schema: anything goes. */
export const ANY = emptyView();
/** The view of `false`: nothing is valid. */
export const NOTHING = { ...emptyView(), types: new Set(), values: new Map() };

/** Canonical JSON (sorted keys), so that enum values compare by value. @param {unknown} value */
export function canonical(value) {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

/** The JSON type of a value, "integer" for integral numbers. @param {unknown} value */
export function jsonType(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Whether a type set admits a type; "number" admits "integer". @param {Set<string> | null} types @param {string} type */
export function admitsType(types, type) {
  return types === null || types.has(type) || (type === 'integer' && types.has('number'));
}

/**
 * Whether a view admits values of one kind, the kinds the bounds apply to.
 * @param {View} view
 * @param {'string' | 'number' | 'array' | 'object'} kind
 */
export function accepts(view, kind) {
  if (view.types === null) return true;
  return kind === 'number' ? view.types.has('number') || view.types.has('integer') : view.types.has(kind);
}

/** Every field name a view knows: its properties and its required names. @param {View} view */
export function propertyNames(view) {
  return new Set([...view.properties.keys(), ...view.required]);
}

const ANNOTATIONS = new Set([
  'description',
  'summary',
  'title',
  'examples',
  'example',
  '$comment',
  'default',
  'deprecated',
]);
const isAnnotation = (/** @type {string} */ key) => ANNOTATIONS.has(key) || key.startsWith('x-');

/** @param {unknown[]} list */
const valueMap = (list) => new Map(list.map((value) => [canonical(value), value]));

/**
 * The view of one schema object's own keywords, composition aside.
 * @param {Json} raw
 * @returns {View}
 */
function ownView(raw) {
  const view = emptyView();
  if (typeof raw.type === 'string' || Array.isArray(raw.type)) {
    view.types = new Set(Array.isArray(raw.type) ? raw.type : [raw.type]);
    // OpenAPI 3.0 spelling of a nullable type; harmless in 3.1 where it means nothing.
    if (raw.nullable === true) view.types.add('null');
  }
  if (Array.isArray(raw.enum)) view.values = valueMap(raw.enum);
  if ('const' in raw) view.values = intersectValues(view.values, valueMap([raw.const]));
  if (raw.properties && typeof raw.properties === 'object') {
    for (const [name, schema] of Object.entries(raw.properties)) view.properties.set(name, schema);
  }
  if (Array.isArray(raw.required))
    view.required = new Set(raw.required.filter((/** @type {unknown} */ name) => typeof name === 'string'));
  if (raw.items !== undefined && !Array.isArray(raw.items)) view.items = raw.items;
  if (raw.additionalProperties === false || raw.unevaluatedProperties === false) view.additional = false;
  else if (raw.additionalProperties && typeof raw.additionalProperties === 'object')
    view.additional = raw.additionalProperties;
  for (const key of /** @type {const} */ ([
    'minLength',
    'maxLength',
    'minItems',
    'maxItems',
    'minProperties',
    'maxProperties',
  ])) {
    if (typeof raw[key] === 'number') view[key] = raw[key];
  }
  // 3.1 spells exclusive bounds as numbers, 3.0 as booleans beside minimum/maximum: read both.
  if (typeof raw.minimum === 'number') view.lower = { value: raw.minimum, exclusive: raw.exclusiveMinimum === true };
  if (typeof raw.exclusiveMinimum === 'number')
    view.lower = tighterLower(view.lower, { value: raw.exclusiveMinimum, exclusive: true });
  if (typeof raw.maximum === 'number') view.upper = { value: raw.maximum, exclusive: raw.exclusiveMaximum === true };
  if (typeof raw.exclusiveMaximum === 'number')
    view.upper = tighterUpper(view.upper, { value: raw.exclusiveMaximum, exclusive: true });
  if (typeof raw.multipleOf === 'number') view.multipleOf.add(raw.multipleOf);
  view.uniqueItems = raw.uniqueItems === true;
  if (typeof raw.pattern === 'string') view.patterns.add(raw.pattern);
  if (typeof raw.format === 'string') view.formats.add(raw.format);
  view.readOnly = raw.readOnly === true;
  view.writeOnly = raw.writeOnly === true;
  return view;
}

/** @param {Bound | undefined} a @param {Bound | undefined} b */
export function tighterLower(a, b) {
  if (!a || !b) return a ?? b;
  if (a.value !== b.value) return a.value > b.value ? a : b;
  return a.exclusive ? a : b;
}
/** @param {Bound | undefined} a @param {Bound | undefined} b */
export function tighterUpper(a, b) {
  if (!a || !b) return a ?? b;
  if (a.value !== b.value) return a.value < b.value ? a : b;
  return a.exclusive ? a : b;
}
/** The looser of two bounds; a missing one is no bound at all. @param {Bound | undefined} a @param {Bound | undefined} b */
const looserLower = (a, b) => (a && b ? (tighterLower(a, b) === a ? b : a) : undefined);
/** @param {Bound | undefined} a @param {Bound | undefined} b */
const looserUpper = (a, b) => (a && b ? (tighterUpper(a, b) === a ? b : a) : undefined);

/** @param {Set<string> | null} a @param {Set<string> | null} b */
function intersectTypes(a, b) {
  if (a === null || b === null) return a ?? b;
  const out = new Set();
  for (const type of a) {
    if (b.has(type)) out.add(type);
    else if (type === 'number' && b.has('integer')) out.add('integer');
    else if (type === 'integer' && b.has('number')) out.add('integer');
  }
  return out;
}

/** @param {Map<string, unknown> | null} a @param {Map<string, unknown> | null} b */
function intersectValues(a, b) {
  if (a === null || b === null) return a ?? b;
  return new Map([...a].filter(([key]) => b.has(key)));
}

/** @template T @param {Set<T>[]} sets */
function intersectAll(sets) {
  if (sets.length === 0) return new Set();
  return new Set([...sets[0]].filter((item) => sets.every((set) => set.has(item))));
}

/** Two schemas that must both hold, as one raw schema. @param {Json} a @param {Json} b */
const both = (a, b) => (a === null ? b : b === null || b === a ? a : { allOf: [a, b] });

/** @param {number | undefined} a @param {number | undefined} b @param {(x: number, y: number) => number} pick */
const combine = (a, b, pick) => (a === undefined ? b : b === undefined ? a : pick(a, b));

/**
 * Conjunction of two views ($ref target and siblings, allOf members).
 * @param {View} a
 * @param {View} b
 * @returns {View}
 */
function and(a, b) {
  const view = emptyView();
  view.types = intersectTypes(a.types, b.types);
  view.values = intersectValues(a.values, b.values);
  view.properties = new Map(a.properties);
  for (const [name, schema] of b.properties) view.properties.set(name, both(view.properties.get(name) ?? null, schema));
  view.required = new Set([...a.required, ...b.required]);
  view.items = both(a.items, b.items);
  view.additional = a.additional === false || b.additional === false ? false : both(a.additional, b.additional);
  view.readOnly = a.readOnly || b.readOnly;
  view.writeOnly = a.writeOnly || b.writeOnly;
  for (const key of /** @type {const} */ (['minLength', 'minItems', 'minProperties']))
    view[key] = combine(a[key], b[key], Math.max);
  for (const key of /** @type {const} */ (['maxLength', 'maxItems', 'maxProperties']))
    view[key] = combine(a[key], b[key], Math.min);
  view.lower = tighterLower(a.lower, b.lower);
  view.upper = tighterUpper(a.upper, b.upper);
  view.multipleOf = new Set([...a.multipleOf, ...b.multipleOf]);
  view.uniqueItems = a.uniqueItems || b.uniqueItems;
  view.patterns = new Set([...a.patterns, ...b.patterns]);
  view.formats = new Set([...a.formats, ...b.formats]);
  return view;
}

/**
 * Disjunction of views (oneOf, anyOf branches). Each bound is judged among the branches that
 * accept its kind of value, and holds only if all of them have it.
 * @param {View[]} views
 * @returns {View}
 */
function or(views) {
  if (views.length === 0) return ANY;
  if (views.length === 1) return views[0];
  const view = emptyView();
  view.types = views.some((v) => v.types === null) ? null : new Set(views.flatMap((v) => [...(v.types ?? [])]));
  const values = views.map(valuesOf);
  view.values = values.some((v) => v === null) ? null : new Map(values.flatMap((v) => [...(v ?? [])]));

  const strings = views.filter((v) => accepts(v, 'string'));
  const numbers = views.filter((v) => accepts(v, 'number'));
  const arrays = views.filter((v) => accepts(v, 'array'));
  const objects = views.filter((v) => accepts(v, 'object'));
  /** @param {View[]} among @param {'minLength' | 'maxLength' | 'minItems' | 'maxItems' | 'minProperties' | 'maxProperties'} key @param {(...n: number[]) => number} pick */
  const loosest = (among, key, pick) =>
    among.length > 0 && among.every((v) => v[key] !== undefined)
      ? pick(...among.map((v) => /** @type {number} */ (v[key])))
      : undefined;

  view.minLength = loosest(strings, 'minLength', Math.min);
  view.maxLength = loosest(strings, 'maxLength', Math.max);
  view.patterns = intersectAll(strings.map((v) => v.patterns));
  view.formats = intersectAll(strings.map((v) => v.formats));

  view.lower = numbers.length ? numbers.map((v) => v.lower).reduce(looserLower) : undefined;
  view.upper = numbers.length ? numbers.map((v) => v.upper).reduce(looserUpper) : undefined;
  view.multipleOf = intersectAll(numbers.map((v) => v.multipleOf));

  view.minItems = loosest(arrays, 'minItems', Math.min);
  view.maxItems = loosest(arrays, 'maxItems', Math.max);
  view.uniqueItems = arrays.length > 0 && arrays.every((v) => v.uniqueItems);
  view.items = arrays.length > 0 && arrays.every((v) => v.items !== null) ? anyOf(arrays.map((v) => v.items)) : null;

  for (const name of new Set(objects.flatMap((v) => [...v.properties.keys()]))) {
    view.properties.set(name, anyOf(objects.filter((v) => v.properties.has(name)).map((v) => v.properties.get(name))));
  }
  view.required = intersectAll(objects.map((v) => v.required));
  if (objects.length > 0 && objects.every((v) => v.additional === false)) view.additional = false;
  else if (objects.length > 0 && objects.every((v) => v.additional))
    view.additional = anyOf(objects.map((v) => v.additional));
  view.minProperties = loosest(objects, 'minProperties', Math.min);
  view.maxProperties = loosest(objects, 'maxProperties', Math.max);

  view.readOnly = views.every((v) => v.readOnly);
  view.writeOnly = views.every((v) => v.writeOnly);
  return view;
}

/** @param {Json[]} schemas */
const anyOf = (schemas) => (new Set(schemas).size === 1 ? schemas[0] : { anyOf: schemas });

/** Types implied by an enum when `type` is absent (`{ const: 'A' }` is a string). @param {View} view */
function finalize(view) {
  if (view.types === null && view.values !== null) view.types = new Set([...view.values.values()].map(jsonType));
  return view;
}

/** Schemas being viewed right now: meeting one again means it composes itself (allOf: [$ref: self]). */
const inProgress = new Set();

/**
 * The view of a raw schema of `source`'s document, cached per schema object.
 * @param {ViewSource} source
 * @param {Json} raw
 * @returns {View}
 */
export function buildView(source, raw) {
  if (raw === undefined || raw === null || raw === true) return ANY;
  if (raw === false) return NOTHING;
  if (typeof raw !== 'object' || Array.isArray(raw)) return ANY;
  const cached = source.views.get(raw);
  if (cached) return cached;
  // A composition cycle contributes nothing more than what is already being collected.
  if (inProgress.has(raw)) return ANY;
  inProgress.add(raw);
  try {
    let view;
    if (typeof raw.$ref === 'string' && Object.keys(raw).every((key) => key === '$ref' || isAnnotation(key))) {
      // A plain reference is its target: the same cached view, which is what cycle detection needs.
      view = buildView(source, source.pointer(raw.$ref));
    } else {
      const parts = [ownView(raw)];
      if (typeof raw.$ref === 'string') parts.push(buildView(source, source.pointer(raw.$ref)));
      if (Array.isArray(raw.allOf)) for (const member of raw.allOf) parts.push(buildView(source, member));
      const viewOf = (/** @type {Json} */ branch) => buildView(source, branch);
      if (Array.isArray(raw.oneOf)) parts.push(or(raw.oneOf.map(viewOf)));
      if (Array.isArray(raw.anyOf)) parts.push(or(raw.anyOf.map(viewOf)));
      view = finalize(parts.reduce(and));
    }
    source.views.set(raw, view);
    return view;
  } finally {
    inProgress.delete(raw);
  }
}

/**
 * The values a view admits when it admits finitely many: its enum, or what its types allow when
 * they are only null and boolean (`type: boolean` is { true, false }); null when unrestricted.
 * This lets `type: boolean` → `const: true` count as a narrowed enum, and a `{ type: 'null' }`
 * branch join an enum branch without erasing it.
 * @param {View} view
 * @returns {Map<string, unknown> | null}
 */
export function valuesOf(view) {
  if (view.values !== null) return view.values;
  if (view.types !== null && [...view.types].every((type) => type === 'null' || type === 'boolean')) {
    return valueMap([...view.types].flatMap((type) => (type === 'null' ? [null] : [true, false])));
  }
  return null;
}
