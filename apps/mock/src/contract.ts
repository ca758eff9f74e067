// The contract of this repository: @svc/openapi's bundle, read once per process. Prism loads the
// same file by path (it parses and dereferences it itself); spec-runtime gets the parsed object.
import { createRequire } from 'node:module';
import { loadContract, type Contract } from '@svc/spec-runtime';

const require = createRequire(import.meta.url);

/** Absolute path of spec/dist/openapi.json, as installed for this package. */
export const BUNDLE_PATH: string = require.resolve('@svc/openapi/openapi.json');

let cached: Contract | undefined;

export function bundledContract(): Contract {
  cached ??= loadContract(require('@svc/openapi/openapi.json'));
  return cached;
}
