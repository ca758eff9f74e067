// $ref resolver for Spectral, for this multi-file spec:
//
//   spectral lint openapi.yaml --ruleset lint/ruleset.yaml --resolver lint/resolver.cjs --fail-severity=warn
//
// Why: Spectral's default resolver (@stoplight/json-ref-resolver 3.x) shares one resolve runner per
// file, and every $ref to that file appends to the runner's "uri stack". Once a file is referenced
// from about 100 places (our response headers and ErrorResponse are referenced from hundreds), the
// $refs INSIDE that file are silently left unresolved at the remaining places (the crawler skips
// remote refs when the stack reaches 100). Rules then see `{ $ref }` instead of schemas: spurious
// oas3-schema "must not have unevaluated properties" errors on every path item, and no error
// catalogue (stoplightio/spectral#2790, #2640). This resolver turns that sharing off (a cache that
// never hits), so each $ref site resolves its own chain; the circular-reference guard still works.
//
// It also reads a $ref to a Markdown file as one string (as Redocly does for
// `info.description: {$ref: ./info/description.md}`), instead of parsing Markdown as YAML.
//
// Only local files are resolved: the contract is self-contained.
'use strict';

const fs = require('node:fs');
const { createRequire } = require('node:module');

// @stoplight/spectral-ref-resolver is a dependency of spectral-core, not of this package.
const fromCore = createRequire(require.resolve('@stoplight/spectral-core'));
const { Resolver } = fromCore('@stoplight/spectral-ref-resolver');

const neverCached = {
  stats: { hits: 0, misses: 0 },
  has: () => false,
  get: () => undefined,
  set: () => undefined,
  purge: () => undefined,
};

async function readFile(ref) {
  const file = ref.href();
  const text = await fs.promises.readFile(file, 'utf8');
  // Spectral parses every referenced file as YAML (JSON for .json). A JSON string literal is a valid
  // YAML double-quoted scalar, so a Markdown file comes back as its text.
  return /\.(md|markdown)$/i.test(file) ? JSON.stringify(text) : text;
}

module.exports = new Resolver({
  uriCache: neverCached,
  resolvers: { file: { resolve: readFile } },
});
