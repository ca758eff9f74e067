// Links from the reference to the console: every operation's description opens with a link to
// the same operation in the console page, where Scalar routes it as `#tag/<tag slug>/<METHOD><path>`
// (its default, with the tag slugged by github-slugger as Scalar slugs it). The browser test
// follows each link to its operation.
import { slug } from 'github-slugger';
import { listOperations, type OpenApiDocument, type OperationEntry } from '../openapi.js';
import { CONSOLE_PAGE } from './page.js';

export const CONSOLE_LINK_TEXT = 'Send this request from the console';

/** The console's address of an operation, relative to the reference page. */
export function consoleHref(entry: OperationEntry): string {
  const tag = entry.operation.tags?.[0];
  const route = `${entry.method.toUpperCase()}${entry.path}`;
  return `${CONSOLE_PAGE}#${tag === undefined ? route : `tag/${slug(tag)}/${route}`}`;
}

/** Puts the console link at the top of every operation's description (in the docs copy). */
export function addConsoleLinks(spec: OpenApiDocument): void {
  for (const entry of listOperations(spec)) {
    const link = `[${CONSOLE_LINK_TEXT}](${consoleHref(entry)}) (the local sandbox, with the demo key filled in).`;
    const { description } = entry.operation;
    entry.operation.description = description ? `${link}\n\n${description}` : link;
  }
}
