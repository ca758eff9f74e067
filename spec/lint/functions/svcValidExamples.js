// svc-valid-examples: every example validates against its schema, with JSON Schema 2020-12
// semantics (Ajv 2020 + ajv-formats, Unicode regular expressions):
//   - media types (request bodies, responses, parameter content): `example` and each
//     `examples.<name>.value` against the media type's schema; readOnly properties are not required
//     in requests, writeOnly ones not in responses;
//   - parameters and headers with a `schema`: `example` and `examples.<name>.value`;
//   - every schema: its `example`, `default` and each entry of its `examples` list.
// It replaces oas3-valid-media-example and oas3-valid-schema-example, whose Ajv compiles `pattern`
// without the `u` flag (unicodeRegExp: false): valid 2020-12 patterns such as '[\p{L}\p{N}]'
// ("at least one letter or digit") then reject valid examples.
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { houseRule, isObject, schemaHolders, walkDocumentSchemas } from './lib/oas.js';

const AjvClass = Ajv2020.default ?? Ajv2020;
const addFormatsFn = addFormats.default ?? addFormats;

// One Ajv and one cache of compiled validators, keyed by the schema's JSON text, for the process:
// the same schema resolved at many places (and in many runs) is compiled once.
const ajv = new AjvClass({ strict: false, allErrors: false, logger: false, validateFormats: true });
addFormatsFn(ajv);
const byText = new Map();

/** A deep copy of the schema where readOnly (or writeOnly) properties are no longer required. */
function relaxRequired(schema, flag, seen = new Map()) {
  if (Array.isArray(schema)) return schema.map((s) => relaxRequired(s, flag, seen));
  if (!isObject(schema)) return schema;
  if (seen.has(schema)) return seen.get(schema);
  const copy = {};
  seen.set(schema, copy);
  for (const [k, v] of Object.entries(schema)) {
    copy[k] =
      k === 'not' || k === 'const' || k === 'enum' || k === 'examples' || k === 'example' || k === 'default'
        ? v
        : relaxRequired(v, flag, seen);
  }
  if (Array.isArray(copy.required) && isObject(schema.properties)) {
    copy.required = copy.required.filter((name) => schema.properties[name]?.[flag] !== true);
  }
  return copy;
}

function hasFlag(schema, flag, seen = new WeakSet()) {
  if (!isObject(schema) && !Array.isArray(schema)) return false;
  if (seen.has(schema)) return false;
  seen.add(schema);
  if (isObject(schema) && schema[flag] === true) return true;
  return Object.entries(schema).some(
    ([k, v]) => !['const', 'enum', 'examples', 'example', 'default'].includes(k) && hasFlag(v, flag, seen),
  );
}

const describe = (errors) =>
  (errors ?? [])
    .slice(0, 3)
    .map(
      (e) =>
        `${e.instancePath === '' ? 'the value' : `'${e.instancePath}'`} ${e.message}${e.keyword === 'additionalProperties' ? ` ('${e.params.additionalProperty}')` : ''}`,
    )
    .join('; ');

export default houseRule(null, function svcValidExamples(doc) {
  const compiled = new WeakMap();
  const results = [];

  const compile = (schema) => {
    let fn = compiled.get(schema);
    if (fn !== undefined) return fn;
    let text = null;
    try {
      text = JSON.stringify(schema);
    } catch {
      // circular: compiled as it is, not shared
    }
    fn = text !== null ? byText.get(text) : undefined;
    if (fn === undefined) {
      try {
        fn = ajv.compile(schema);
        ajv.removeSchema(schema); // keep the validator, not the document it came from
      } catch (e) {
        fn = { error: e instanceof Error ? e.message : String(e) };
      }
      if (text !== null) byText.set(text, fn);
    }
    compiled.set(schema, fn);
    return fn;
  };
  const validate = (schema, value, path, what) => {
    const fn = compile(schema);
    if (typeof fn !== 'function') {
      // An unresolved $ref is svc-fully-resolved's finding; anything else is reported here.
      if (!/can't resolve reference/.test(fn.error))
        results.push({ message: `The schema of ${what} cannot be compiled: ${fn.error}.`, path });
      return;
    }
    if (fn(value)) return;
    results.push({ message: `${what} does not match its schema: ${describe(fn.errors)}.`, path });
  };

  const checked = new WeakSet(); // a shared (referenced) holder is checked once
  const checkExamples = (holder, schema, path, label) => {
    if (checked.has(holder)) return;
    checked.add(holder);
    if ('example' in holder) validate(schema, holder.example, [...path, 'example'], `Example of ${label}`);
    if (isObject(holder.examples)) {
      for (const [name, ex] of Object.entries(holder.examples)) {
        if (!isObject(ex) || !('value' in ex)) continue;
        validate(schema, ex.value, [...path, 'examples', name, 'value'], `Example '${name}' of ${label}`);
      }
    }
  };

  const relaxedCache = { readOnly: new WeakMap(), writeOnly: new WeakMap() };
  const relaxed = (schema, flag) => {
    if (flag === null || !hasFlag(schema, flag)) return schema;
    let r = relaxedCache[flag].get(schema);
    if (r === undefined) {
      r = relaxRequired(schema, flag);
      relaxedCache[flag].set(schema, r);
    }
    return r;
  };

  for (const { holder, path, label, flag } of schemaHolders(doc)) {
    // Path items of components are checked where paths use them: the messages name the path.
    if (path[1] !== 'pathItems') checkExamples(holder, relaxed(holder.schema, flag), path, label);
  }

  walkDocumentSchemas(doc, (schema, path) => {
    const label = typeof schema.title === 'string' ? `schema ${schema.title}` : 'the schema';
    if ('example' in schema) validate(schema, schema.example, [...path, 'example'], `Example of ${label}`);
    if ('default' in schema) validate(schema, schema.default, [...path, 'default'], `Default of ${label}`);
    if (Array.isArray(schema.examples)) {
      for (const [i, ex] of schema.examples.entries())
        validate(schema, ex, [...path, 'examples', i], `Example ${i} of ${label}`);
    }
  });
  return results;
});
