// Where the docs package keeps things, independent of the working directory.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
export const DIST_DIR = join(PACKAGE_DIR, 'dist');
export const DOCS_HTML = join(DIST_DIR, 'index.html');
/** The docs copy of the bundle (code samples, guides) that build-docs renders. */
export const DOCS_SPEC = join(DIST_DIR, 'openapi.docs.json');
/** The HTML page build-docs fills (Redoc's default page plus the guides' layout). */
export const PAGE_TEMPLATE = join(PACKAGE_DIR, 'src', 'page-template.hbs');
