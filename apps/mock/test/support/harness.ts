// Every request of the suites goes through Harness.send: the kernel's KernelHarness (the answer
// valid against the bundled contract, no 5xx, X-Request-Id and X-RateLimit-* present,
// Idempotency-Key echoed, error.request_id equal to X-Request-Id), over HTTP to a running mock,
// plus what must hold for any answer of the mock: never a Prism problem+json, never a 422, and no
// internal error counted.
import { KernelHarness, type SendOptions, type Sent } from '@svc/server-kernel/testing';
import { type RunningMock, type ServeOptions, startMockServer } from '../../src/index.js';

export const KEY = 'mock_test_key';

export type { SendOptions, Sent };

export class Harness extends KernelHarness {
  /** operationId status code, for every response seen. */
  readonly seen = this.coverage;

  private constructor(readonly running: RunningMock) {
    super(running.mock.contract, (request) => fetch(request), KEY, running.url);
  }

  static async start(options: ServeOptions = {}): Promise<Harness> {
    return new Harness(await startMockServer({ port: 0, host: '127.0.0.1', ...options }));
  }

  close(): Promise<void> {
    return this.running.close();
  }

  override problems(request: Request, sent: Sent, options: SendOptions): string[] {
    const problems = super.problems(request, sent, options);
    if (/problem\+json/.test(sent.headers.get('content-type') ?? '')) problems.push('a Prism problem+json');
    if (sent.status === 422) problems.push('a 422');
    if (this.running.mock.internalErrors !== 0) problems.push(`${this.running.mock.internalErrors} internal errors`);
    return problems;
  }
}
