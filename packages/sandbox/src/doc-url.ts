// Where an error's doc_url points. The docs (apps/docs) give every code of the catalogue its own
// section in the Errors guide, which Redoc routes as `#/guide-errors/<code in lower case>`; the
// docs' browser test follows this URL for every code, so the two cannot drift apart.
import { DOCS_PATH } from './docs-route.js';

/** The doc_url of `code` in the docs published at `docsUrl` (the page's URL, e.g. `https://…/docs/`). */
export function docsErrorUrl(docsUrl: string, code: string): string {
  return `${docsUrl.replace(/#.*$/s, '')}#/guide-errors/${code.toLowerCase()}`;
}

/** The docs this sandbox serves itself, at `origin` + /docs/. */
export function servedDocsUrl(origin: string): string {
  return `${origin}${DOCS_PATH}/`;
}
