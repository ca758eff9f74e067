// Finds what a built page would fetch from the network before it can render: external scripts,
// stylesheets, preloads, fonts and CSS imports. The docs must render with the network off, so
// the build fails on any of these. (Links a reader may click, such as doc_url examples, are not
// loads and are not reported.) A script can also load what no tag names yet, such as Redoc's
// badge logo, an <img> it mounts after hydration: so any absolute URL of a script, stylesheet,
// font or image file anywhere in the page (script text included) is reported too.

export interface ExternalLoad {
  kind: 'script' | 'link' | 'image' | 'css-url' | 'css-import' | 'module-import' | 'asset-url';
  url: string;
}

const EXTERNAL = String.raw`(?:https?:)?//[^"'\s)>]+`;

const PATTERNS: { kind: ExternalLoad['kind']; pattern: RegExp }[] = [
  { kind: 'script', pattern: new RegExp(String.raw`<script\b[^>]*\bsrc\s*=\s*["']?(${EXTERNAL})`, 'gi') },
  // Every <link> with an external href loads something (stylesheet, preload, modulepreload, font,
  // icon) except a plain navigation hint such as rel=canonical, which we do not emit anyway.
  { kind: 'link', pattern: new RegExp(String.raw`<link\b[^>]*\bhref\s*=\s*["']?(${EXTERNAL})`, 'gi') },
  { kind: 'image', pattern: new RegExp(String.raw`<img\b[^>]*\bsrc\s*=\s*["']?(${EXTERNAL})`, 'gi') },
  { kind: 'css-url', pattern: new RegExp(String.raw`url\(\s*["']?(${EXTERNAL})`, 'gi') },
  { kind: 'css-import', pattern: new RegExp(String.raw`@import\s+(?:url\()?\s*["'](${EXTERNAL})`, 'gi') },
  // ES module imports (`import … from "https://…"`, `import("https://…")`), not CSS @import.
  { kind: 'module-import', pattern: new RegExp(String.raw`(?<![@\w])(?:import|from)\s*\(?\s*["'](${EXTERNAL})`, 'g') },
];

/** An absolute URL whose path ends in a file type a page loads, wherever it is written. */
const ASSET_URL =
  /(?:https?:)?\/\/[\w.-]+\.[a-z]{2,}(?::\d+)?\/[^"'\s)>\x60]*\.(?:svg|png|jpe?g|gif|webp|avif|ico|woff2?|ttf|otf|css|m?js)(?![\w/])/gi;

export function findExternalLoads(html: string): ExternalLoad[] {
  const found: ExternalLoad[] = [];
  for (const { kind, pattern } of PATTERNS) {
    for (const match of html.matchAll(pattern)) found.push({ kind, url: match[1]! });
  }
  const reported = new Set(found.map((load) => load.url));
  for (const [url] of html.matchAll(ASSET_URL)) {
    if (!reported.has(url)) found.push({ kind: 'asset-url', url });
    reported.add(url);
  }
  return found;
}
