// @svc/contract's mock profile against this mock, as CI runs it: a stateless
// server must pass every check that does not need state, and report the rest as skipped.
import { runContract } from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMockServer } from '../src/index.js';

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMockServer({ port: 0 });
});
afterAll(() => mock.close());

describe('the mock profile', () => {
  it('passes against the mock, with and without --allow-writes', async () => {
    for (const allowWrites of [false, true]) {
      const result = await runContract({
        quiet: true,
        print: false,
        rate: 'off',
        profile: 'mock',
        allowWrites,
        baseUrl: mock.url,
        apiKey: 'any-well-formed-key', // the mock accepts any key without --keys
      });
      const failures = [
        ...result.report.failures.map((f) => `${f.operationId} ${f.check}: ${f.message}`),
        ...result.report.errors,
      ];
      expect(failures).toEqual([]);
      expect(result.exitCode).toBe(0);
      expect(result.report.summary.checks.passed).toBeGreaterThan(100);
    }
  });
});
