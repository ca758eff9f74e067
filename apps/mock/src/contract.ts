// The contract of this repository, as the mock reads it: spec-runtime's parsed object comes from
// the kernel's bundledContract (one per process, shared with the sandbox); Prism loads the same
// file by path, since it parses and dereferences it itself.
import { createRequire } from 'node:module';

export { bundledContract } from '@svc/server-kernel';

/** Absolute path of spec/dist/openapi.json, as installed for this package. */
export const BUNDLE_PATH: string = createRequire(import.meta.url).resolve('@svc/openapi/openapi.json');
