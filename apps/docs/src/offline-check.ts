// Finds what a built page would fetch from the network before it can render: external scripts,
// stylesheets, preloads, fonts and CSS imports. The docs must render with the network off, so
// the build fails on any of these. (Links a reader may click, such as doc_url examples, are not
// loads and are not reported.)

export interface ExternalLoad {
  kind: 'script' | 'link' | 'image' | 'css-url' | 'css-import' | 'module-import';
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

export function findExternalLoads(html: string): ExternalLoad[] {
  const found: ExternalLoad[] = [];
  for (const { kind, pattern } of PATTERNS) {
    for (const match of html.matchAll(pattern)) found.push({ kind, url: match[1]! });
  }
  return found;
}
