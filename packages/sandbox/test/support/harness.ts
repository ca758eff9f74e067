// Every request of the behaviour suites goes through Harness.send (the kernel's KernelHarness),
// which checks the response against the bundled contract (status documented, headers, body schema,
// error code listed for the operation and status) and records (operation, status, code) for the
// coverage check. A response that does not conform, or any 5xx, fails the test on the spot.
import { KernelHarness } from '@svc/server-kernel/testing';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/index.js';

export const KEYS = {
  full: 'sbx_demo_full_access',
  conversationsRead: 'sbx_demo_conversations_read',
  threadsRead: 'sbx_demo_threads_read',
  crmRead: 'sbx_demo_crm_read',
  receptionistRead: 'sbx_demo_receptionist_read',
  directoryRead: 'sbx_demo_directory_read',
  billingOnly: 'sbx_demo_billing_only',
  mainLineOnly: 'sbx_demo_main_line_only',
  revoked: 'sbx_demo_revoked',
  trial: 'sbx_demo_trial',
  legacy: 'sbx_demo_legacy_workspace',
  otherTeam: 'sbx_demo_other_team',
} as const;

export type { SendOptions, Sent } from '@svc/server-kernel/testing';

/** (operationId or '-') + status + code, e.g. "getThread 404 THREAD_NOT_FOUND" or "getThread 200". */
export type CoverageEntry = string;

/** The kernel's harness (every answer checked against the contract), on a sandbox answered in process. */
export class Harness extends KernelHarness {
  readonly sandbox: Sandbox;

  constructor(options: SandboxOptions = {}, coverage?: Set<CoverageEntry>) {
    const sandbox = createSandbox({ rateLimit: false, ...options });
    // A shared coverage set, when given: the coverage check reads what every suite saw.
    super(sandbox.contract, (request) => sandbox.fetch(request), KEYS.full, 'http://sandbox.test', coverage);
    this.sandbox = sandbox;
  }
}
