// svc-marker-text: every x-svc-unspecified, x-svc-ambiguity and x-svc-inferred value is a
// non-empty string, or a non-empty list or map of non-empty strings. Checked on every node as
// written in its file, $ref siblings included.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { isNonEmptyString, isObject, walkNodes } from './lib/oas.js';

function valid(v) {
  if (isNonEmptyString(v)) return true;
  if (Array.isArray(v)) return v.length > 0 && v.every(isNonEmptyString);
  if (isObject(v)) return Object.keys(v).length > 0 && Object.values(v).every(isNonEmptyString);
  return false;
}

const describe = v =>
  v === null ? 'null' : typeof v === 'string' ? (v.trim() === '' ? 'an empty string' : 'a string') : Array.isArray(v) ? 'a list with an empty or non-string entry' : isObject(v) ? 'a map with an empty or non-string value' : typeof v;

export default createRulesetFunction(
  {
    input: null,
    options: {
      type: ['object', 'null'],
      properties: { markers: { type: 'array', items: { type: 'string' } } },
      additionalProperties: false,
    },
  },
  function svcMarkerText(doc, options, context) {
    const markers = options?.markers ?? ['x-svc-unspecified', 'x-svc-ambiguity', 'x-svc-inferred'];
    const results = [];
    const check = (value, marker, path, where) => {
      if (valid(value)) return;
      results.push({
        message: `${marker}${where} must be a non-empty string, or a non-empty list or map of non-empty strings; it is ${
          Array.isArray(value) && value.length === 0 ? 'an empty list' : isObject(value) && Object.keys(value).length === 0 ? 'an empty map' : describe(value)
        }.`,
        path,
      });
    };
    walkNodes(context, doc, (_node, raw, path) => {
      for (const m of markers) if (m in raw) check(raw[m], m, [...path, m], '');
      for (const [k, v] of Object.entries(raw)) {
        const items = Array.isArray(v) ? v.map((x, i) => [x, [...path, k], ` (next to the $ref at ${k}[${i}])`]) : [[v, path, ` (next to the $ref at '${k}')`]];
        for (const [x, at, where] of items) {
          if (!isObject(x) || typeof x.$ref !== 'string') continue;
          for (const m of markers) if (m in x) check(x[m], m, at, where);
        }
      }
    });
    return results;
  },
);
