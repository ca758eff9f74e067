// The reference's samples and servers panel name the address serving them. The static build
// names the contract's default server (the sandbox on its documented port, 4010); a sandbox
// started on another port serves the same page at its own /docs, where 4010 would be wrong. Only
// the page knows where it was served from, so the page swaps the default origin for its own before
// Redoc starts (an emptied container: Redoc renders it anew instead of hydrating the prerendered
// text), and only when a sandbox serves it (a path under the sandbox's /docs): the static
// docs server and a file opened from disk keep the documented default.
import { servedDocsUrl } from '@svc/sandbox';

/** The global the page's script defines and Redoc's hydrate call goes through. */
const SERVED_ORIGIN_FUNCTION = '__svcServedOrigin';
/** Redoc's own start, as build-docs writes it: the one call the page's definition passes through. */
const REDOC_HYDRATE = 'hydrate(__redoc_definition,';

/** JSON that is safe inside a <script> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** The classic script (run before Redoc's module) that rewrites a definition for the origin serving it. */
export function servedOriginScript(defaultOrigin: string): string {
  const docsPath = new URL(servedDocsUrl('http://sandbox.invalid')).pathname;
  return `window.${SERVED_ORIGIN_FUNCTION} = function (definition) {
  var origin = window.location.origin;
  var fallback = ${scriptJson(defaultOrigin)};
  if (window.location.pathname.indexOf(${scriptJson(docsPath)}) !== 0 || origin === fallback) return definition;
  // The prerendered page names the default: emptied, Redoc's hydrate renders it anew from the definition.
  var container = window.document.getElementById('redoc');
  if (container) container.replaceChildren();
  return JSON.parse(JSON.stringify(definition).split(fallback).join(origin));
};`;
}

/** The built page with the script in its head and Redoc's hydrate call going through it. */
export function withServedOrigin(html: string, defaultOrigin: string): string {
  const calls = html.split(REDOC_HYDRATE).length - 1;
  if (calls !== 1) throw new Error(`The built page has ${calls} Redoc hydrate calls (${REDOC_HYDRATE}); expected one`);
  if (!html.includes('</head>')) throw new Error('The built page has no </head>');
  return html
    .replace('</head>', () => `<script>${servedOriginScript(defaultOrigin)}</script>\n</head>`)
    .replace(REDOC_HYDRATE, () => `hydrate(window.${SERVED_ORIGIN_FUNCTION}(__redoc_definition),`);
}
