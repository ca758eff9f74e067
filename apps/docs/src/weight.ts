// What a reader's browser fetches on the first load of each entry page, in brotli (what the
// sandbox's /docs sends a browser): the reference page (Redoc and the docs copy of the bundle, all
// inline) and the console page with its script and its copy of the bundle. Both together are
// held within FIRST_LOAD_BUDGET_BYTES: the build prints the figure and fails past it, and a test
// holds it too. The browser test checks that these lists name everything the pages fetch.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { CONSOLE_PAGE, CONSOLE_SCRIPT, CONSOLE_SPEC } from './console/page.js';

/** 1.6 MB (decimal megabytes) of brotli for both entry pages' first loads together. */
export const FIRST_LOAD_BUDGET_BYTES = 1_600_000;

/** Each entry page and the files of the docs folder its first load fetches besides itself. */
export const ENTRY_PAGES: readonly { page: string; loads: readonly string[] }[] = [
  { page: 'index.html', loads: [] },
  { page: CONSOLE_PAGE, loads: [CONSOLE_SCRIPT, CONSOLE_SPEC] },
];

export interface FirstLoadWeight {
  pages: { page: string; brotliBytes: number }[];
  totalBytes: number;
}

/** Brotli bytes of each entry page's first load, read from the `.br` copies the build wrote. */
export function firstLoadWeight(distDir: string): FirstLoadWeight {
  const pages = ENTRY_PAGES.map(({ page, loads }) => ({
    page,
    brotliBytes: [page, ...loads].reduce((sum, file) => sum + statSync(join(distDir, `${file}.br`)).size, 0),
  }));
  return { pages, totalBytes: pages.reduce((sum, page) => sum + page.brotliBytes, 0) };
}

const megabytes = (bytes: number) => `${(bytes / 1_000_000).toFixed(2)} MB`;

export function describeWeight(weight: FirstLoadWeight): string {
  const parts = weight.pages.map((page) => `${page.page} ${megabytes(page.brotliBytes)}`).join(', ');
  return `first load ${megabytes(weight.totalBytes)} brotli (${parts}; budget ${megabytes(FIRST_LOAD_BUDGET_BYTES)})`;
}
