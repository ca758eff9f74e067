// The console page (dist/console.html): Scalar's API reference from the docs' own folder (no CDN),
// started with the configuration of configuration.ts. The servers it offers are decided in the
// page, since only the page knows where it was served from: a loopback server named in its address
// (`console.html?server=http://127.0.0.1:4010`), then the sandbox that serves the page when it is
// opened from a sandbox's /docs, then the contract's servers (the local sandbox first).
import { servedDocsUrl } from '@svc/sandbox';

/** Where the build puts Scalar's standalone script, relative to the page. */
export const CONSOLE_SCRIPT = 'scalar-api-reference.js';
/** The console's copy of the bundle, relative to the page. */
export const CONSOLE_SPEC = 'openapi.console.json';
export const CONSOLE_PAGE = 'console.html';
/** The query parameter by which the reference names an operation to the console (its operationId). */
export const OPERATION_PARAMETER = 'operation';
/** The query parameter that names the server to call (loopback origins only). */
export const SERVER_PARAMETER = 'server';

/** A loopback origin over http, as the sandbox's CORS takes them (the pattern cannot backtrack). */
const LOOPBACK_ORIGIN = String.raw`^http:\/\/(?:127\.0\.0\.1|localhost|\[::1\])(?::\d{1,5})?$`;

/** JSON that is safe inside a <script> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** The page's script: the servers it can tell, then Scalar started on #console. */
function startScript(configuration: Record<string, unknown>, routes: Record<string, string>): string {
  const sandboxDocsPath = new URL(servedDocsUrl('http://sandbox.invalid')).pathname;
  return `(function () {
  var configuration = ${scriptJson(configuration)};
  var servers = [];
  var asked = new URLSearchParams(window.location.search).get(${scriptJson(SERVER_PARAMETER)});
  if (asked && new RegExp(${scriptJson(LOOPBACK_ORIGIN)}).test(asked))
    servers.push({ url: asked, description: 'The server named in this page\\u2019s address (?${SERVER_PARAMETER}=)' });
  if (window.location.pathname.indexOf(${scriptJson(sandboxDocsPath)}) === 0)
    servers.push({ url: window.location.origin, description: 'The sandbox that serves this page' });
  configuration.servers = servers.concat(configuration.servers);
  var routes = ${scriptJson(routes)};
  var operation = new URLSearchParams(window.location.search).get(${scriptJson(OPERATION_PARAMETER)});
  if (!window.location.hash && operation && Object.prototype.hasOwnProperty.call(routes, operation))
    window.history.replaceState(null, '', '#' + routes[operation]);
  window.Scalar.createApiReference('#console', configuration);
})();`;
}

export interface ConsolePageOptions {
  title: string;
  description: string;
  /** The reference page, relative to this one. */
  referenceHref: string;
  configuration: Record<string, unknown>;
  /** operationId → Scalar's route: the reference links `console.html?operation=<operationId>`. */
  routes: Record<string, string>;
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function consolePage(options: ConsolePageOptions): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="description" content="${escapeHtml(options.description)}">
<title>${escapeHtml(options.title)}</title>
<style>
  body { margin: 0; }
  .svc-console-bar { font: 14px/1.4 system-ui, sans-serif; padding: 6px 16px; border-bottom: 1px solid #ddd; }
</style>
</head>
<body>
<nav class="svc-console-bar"><a href="${escapeHtml(options.referenceHref)}">Reference and guides</a></nav>
<div id="console"></div>
<noscript>The console needs JavaScript. The reference reads without it: <a href="${escapeHtml(options.referenceHref)}">reference and guides</a>.</noscript>
<script src="${CONSOLE_SCRIPT}"></script>
<script>
${startScript(options.configuration, options.routes)}
</script>
</body>
</html>
`;
}
