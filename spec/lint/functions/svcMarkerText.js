// svc-marker-text: every x-svc-unspecified, x-svc-ambiguity and x-svc-inferred value is a
// non-empty string, or a non-empty list or map of non-empty strings. Checked on every node as
// written in its file, $ref siblings included.
import { houseRule, isNonEmptyString, isObject, walkWritten } from './lib/oas.js';

/** What is wrong with a marker's value ('an empty list', 'null', ...), or null when it is valid. */
function problem(v) {
  if (typeof v === 'string') return isNonEmptyString(v) ? null : 'an empty string';
  const entries = Array.isArray(v) ? v : isObject(v) ? Object.values(v) : null;
  if (entries === null) return v === null ? 'null' : typeof v;
  if (entries.length === 0) return Array.isArray(v) ? 'an empty list' : 'an empty map';
  if (entries.every(isNonEmptyString)) return null;
  return Array.isArray(v) ? 'a list with an empty or non-string entry' : 'a map with an empty or non-string value';
}

export default houseRule(
  { markers: { type: 'array', items: { type: 'string' } } },
  function svcMarkerText(doc, options, context) {
    const markers = options?.markers ?? ['x-svc-unspecified', 'x-svc-ambiguity', 'x-svc-inferred'];
    const results = [];
    const check = (value, marker, path, where) => {
      const wrong = problem(value);
      if (wrong === null) return;
      results.push({
        message: `${marker}${where} must be a non-empty string, or a non-empty list or map of non-empty strings; it is ${wrong}.`,
        path,
      });
    };
    walkWritten(context, doc, (node, pathOf, where) => {
      for (const m of markers) if (m in node) check(node[m], m, pathOf(m), where);
    });
    return results;
  },
);
