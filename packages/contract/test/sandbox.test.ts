// The suite against the reference server: the full profile with writes passes against the
// embedded sandbox, and passes again when run a second time against the same (stateful) sandbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runContract } from '../src/run.js';
import { forgetfulServer, sandbox, type Target } from './support/servers.js';

const quiet = { quiet: true, print: false, rate: 'off' as const };

function failuresOf(result: Awaited<ReturnType<typeof runContract>>): string[] {
  return [...result.report.failures.map((f) => `${f.operationId} ${f.check}: ${f.message}`), ...result.report.errors];
}

describe('the full profile with --allow-writes', () => {
  it('passes against the embedded sandbox', async () => {
    const result = await runContract({ ...quiet, allowWrites: true });
    expect(failuresOf(result)).toEqual([]);
    expect(result.exitCode).toBe(0);
    expect(result.report.target.embedded).toBe(true);
    // Every documented operation was exercised, and nothing is skipped but the opt-in burst.
    expect(result.report.coverage.operations.exercised).toBe(result.report.coverage.operations.documented);
    const skipped = result.report.operations.flatMap((op) =>
      op.checks.filter((c) => c.status === 'skipped').map((c) => c.id),
    );
    expect(skipped).toEqual(['rate-limit.burst']);
  });

  describe('twice in a row against the same sandbox', () => {
    let target: Target;
    beforeAll(async () => {
      target = await sandbox();
    });
    afterAll(() => target.close());

    it('passes both times (state left by the first run does not break the second)', async () => {
      const options = {
        ...quiet,
        allowWrites: true,
        baseUrl: target.url,
        apiKey: target.apiKey,
        config: target.config,
      };
      const first = await runContract(options);
      expect(failuresOf(first)).toEqual([]);
      const second = await runContract(options);
      expect(failuresOf(second)).toEqual([]);
      expect(second.exitCode).toBe(0);
      // The second run found the threads the first created and still checked creation or the 409 path.
      const created = second.report.operations
        .find((op) => op.operationId === 'createThread')
        ?.checks.find((c) => c.id === 'threads.create-then-read');
      expect(created?.status).toBe('passed');
    });
  });

  it('writes nothing without --allow-writes, and says so for every skipped write', async () => {
    const target = await sandbox();
    try {
      const before = JSON.stringify(target.running.sandbox.store.team('team-harbor'));
      const result = await runContract({ ...quiet, baseUrl: target.url, apiKey: target.apiKey, config: target.config });
      expect(failuresOf(result)).toEqual([]);
      expect(result.report.summary.checks.passed).toBeGreaterThan(200);
      expect(JSON.stringify(target.running.sandbox.store.team('team-harbor'))).toBe(before);
      const reasons = new Set(result.report.operations.flatMap((op) => op.checks.flatMap((c) => c.skipReasons)));
      expect([...reasons].filter((r) => !r.startsWith('changes data') && !r.startsWith('opt-in'))).toEqual([]);
    } finally {
      await target.close();
    }
  });

  it('the mock profile passes against the sandbox too (a stateful server is also a valid mock target)', async () => {
    const result = await runContract({ ...quiet, profile: 'mock' });
    expect(failuresOf(result)).toEqual([]);
    expect(result.report.summary.checks.passed).toBeGreaterThan(200);
  });
});

describe('a stateless server checked with the full profile', () => {
  it('is told to try --profile mock, and passes it', async () => {
    const server = await forgetfulServer();
    try {
      const options = { ...quiet, baseUrl: server.url, apiKey: server.apiKey, config: server.config };
      const full = await runContract({ ...options, allowWrites: true, only: ['threads', 'custom-fields'] });
      expect(full.exitCode).toBe(1);
      expect(full.report.summary.hint).toMatch(
        /^this looks like a stateless server: try `--profile mock` \(\d+ of the \d+/,
      );
      expect(full.text).toContain('Hint: this looks like a stateless server: try `--profile mock`');
      const mock = await runContract({ ...options, profile: 'mock', only: ['threads', 'custom-fields'] });
      expect(failuresOf(mock)).toEqual([]);
      expect(mock.report.summary.hint).toBeUndefined();
    } finally {
      await server.closeAll();
    }
  });
});
