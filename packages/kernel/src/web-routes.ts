// A server's web routes: a folder of paths it answers with a handler of its own that speaks web
// Requests and Responses (the sandbox's /docs: files, streamed). They sit in the kernel's routing
// beside the API and the own routes, so both ways in (fetch, node:http) reach them alike; none of
// the API's steps runs for them (they need no key, and a page's many files would spend a key's
// budget: /docs paces itself by bytes).
import type { Maybe } from './maybe.js';

export interface WebRoute {
  /** The path it answers, and every path under it (`/docs`, `/docs/...`); '' answers every path. */
  readonly path: string;
  serve(request: Request): Maybe<Response>;
}

/** The web route of a path, if any. */
export function webRouteFor(routes: readonly WebRoute[], pathname: string): WebRoute | undefined {
  for (const route of routes) {
    const { path } = route;
    if (pathname.startsWith(path) && (pathname.length === path.length || pathname[path.length] === '/' || path === ''))
      return route;
  }
  return undefined;
}
