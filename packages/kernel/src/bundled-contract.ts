// The contract of this repository's servers: @svc/openapi's bundle, loaded once per process and
// shared by the sandbox and the mock (a server may pass its own to createKernel instead).
import { createRequire } from 'node:module';
import { type Contract, loadContract } from '@svc/spec-runtime';

const require = createRequire(import.meta.url);
let cached: Contract | undefined;

export function bundledContract(): Contract {
  cached ??= loadContract(require('@svc/openapi/openapi.json'));
  return cached;
}
