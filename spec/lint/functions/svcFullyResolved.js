// svc-fully-resolved: the document Spectral hands to the rules has no `$ref` left. Spectral's
// default resolver silently stops resolving the $refs inside a file once that file is referenced
// from about 100 places (stoplightio/spectral#2790, #2640); every rule then sees `{ $ref }` where a
// schema should be. lint/resolver.cjs avoids this: run spectral with `--resolver lint/resolver.cjs`.
// A $ref to a missing file is left too; the built-in invalid-ref reports it.
import { houseRule, isObject } from './lib/oas.js';

export default houseRule(null, function svcFullyResolved(doc) {
  const seen = new WeakSet();
  const left = [];
  const walk = (node, path) => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (isObject(node) && typeof node.$ref === 'string') {
      left.push({ ref: node.$ref, path });
      return;
    }
    for (const [k, v] of Object.entries(node)) {
      if (k === 'example' || k === 'examples' || k === 'default' || k === 'const' || k === 'enum') continue;
      walk(v, [...path, k]);
    }
  };
  walk(doc, []);
  if (left.length === 0) return [];
  const refs = [...new Set(left.map((l) => l.ref))];
  return [
    {
      message: `${left.length} $ref(s) were left unresolved (${refs.slice(0, 3).join(', ')}${refs.length > 3 ? ', …' : ''}; the first at '${String(left[0].path[left[0].path.length - 1])}'), so the other rules see { $ref } instead of their targets. Missing files are reported by invalid-ref; otherwise this is Spectral's resolver limit (stoplightio/spectral#2790): lint with --resolver lint/resolver.cjs.`,
      // At the parent: a path through the unresolved $ref itself cannot be mapped to a file.
      path: left[0].path.slice(0, -1),
    },
  ];
});
