// svc-marker-text: every x-svc-unspecified, x-svc-ambiguity and x-svc-inferred value is a
// non-empty string, or a non-empty list or map of non-empty strings. Checked on every node as
// written in its file, $ref siblings included.
import { houseRule, isNonEmptyString, isObject, walkWritten } from './lib/oas.js';

function valid(v) {
  if (isNonEmptyString(v)) return true;
  if (Array.isArray(v)) return v.length > 0 && v.every(isNonEmptyString);
  if (isObject(v)) return Object.keys(v).length > 0 && Object.values(v).every(isNonEmptyString);
  return false;
}

const describe = v =>
  v === null ? 'null' : typeof v === 'string' ? (v.trim() === '' ? 'an empty string' : 'a string') : Array.isArray(v) ? 'a list with an empty or non-string entry' : isObject(v) ? 'a map with an empty or non-string value' : typeof v;

export default houseRule(
  { markers: { type: 'array', items: { type: 'string' } } },
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
    walkWritten(context, doc, (node, pathOf, where) => {
      for (const m of markers) if (m in node) check(node[m], m, pathOf(m), where);
    });
    return results;
  },
);
