// Links from the reference to the console: every operation's description opens with a link to
// the same operation in the console page, where Scalar routes it as `#tag/<tag slug>/<METHOD><path>`
// (its default, with the tag slugged by github-slugger as Scalar slugs it). The browser test
// follows each link to its operation.
import { slug } from 'github-slugger';
import { listOperations, type OpenApiDocument, type OperationEntry } from '../openapi.js';
import { CONSOLE_PAGE, OPERATION_PARAMETER } from './page.js';

export const CONSOLE_LINK_TEXT = 'Send this request from the console';

/** The console's address of an operation, relative to the reference page. */
export function consoleHref(entry: OperationEntry): string {
  const tag = entry.operation.tags?.[0];
  const route = `${entry.method.toUpperCase()}${entry.path}`;
  return `${CONSOLE_PAGE}#${tag === undefined ? route : `tag/${slug(tag)}/${route}`}`;
}

/**
 * The reference's link to an operation in the console. Redoc takes a link with a `#tag/…` fragment
 * for one of its own routes (it rewrote `console.html#tag/threads/…` to `#/threads#threads/…`), so
 * the link names the operation in the query and the console page turns it into Scalar's route.
 */
export function referenceLink(entry: OperationEntry): string {
  return `${CONSOLE_PAGE}?${OPERATION_PARAMETER}=${encodeURIComponent(entry.operation.operationId ?? '')}`;
}

/** operationId → the console's route of it (`tag/threads/POST/v2/api/threads`), for the page's script. */
export function consoleRoutes(spec: OpenApiDocument): Record<string, string> {
  return Object.fromEntries(
    listOperations(spec).map((entry) => [entry.operation.operationId ?? '', consoleHref(entry).split('#')[1]!]),
  );
}

/** Puts the console link at the top of every operation's description (in the docs copy). */
export function addConsoleLinks(spec: OpenApiDocument): void {
  for (const entry of listOperations(spec)) {
    const link = `[${CONSOLE_LINK_TEXT}](${referenceLink(entry)}) (the local sandbox, with the demo key filled in).`;
    const { description } = entry.operation;
    entry.operation.description = description ? `${link}\n\n${description}` : link;
  }
}
