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
    // Every documented input was sent in a request that succeeded and every rule broken alone,
    // and a complete run with writes is gated on it by default.
    expect(result.report.coverage.inputs).toMatchObject({ percent: 100, min: 100 });
    expect(result.report.coverage.inputs.rows.flatMap((r) => r.missing)).toEqual([]);
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

    it('passes twice, then again on the state those runs left: no check fails, and what they used up is named', async () => {
      const options = {
        ...quiet,
        allowWrites: true,
        baseUrl: target.url,
        apiKey: target.apiKey,
        config: target.config,
      };
      const first = await runContract(options);
      expect(failuresOf(first)).toEqual([]);
      expect(first.report.coverage.inputs.percent).toBe(100);
      // Items are found on the conversation list of each line too: the seed holds free items
      // (without a thread) for two complete runs.
      const second = await runContract(options);
      expect(failuresOf(second)).toEqual([]);
      expect(second.report.coverage.inputs.percent).toBe(100);
      const third = await runContract(options);
      // No check fails. What the runs used up shows, by name: items without a thread are
      // fixtures a run consumes, and after two full runs none is left (the README's "Writes"
      // says so): the thread creations are skipped for the configuration and their inputs unsent.
      expect(third.report.failures).toEqual([]);
      const missing = third.report.coverage.inputs.rows.flatMap((r) => r.missing.map((m) => `${r.operationId} ${m}`));
      expect(missing).toEqual(expect.arrayContaining(['createThread sent: body entity_type=CALL']));
      expect(missing.every((m) => m.startsWith('createThread sent: '))).toBe(true);
      expect(third.report.summary.skipped.reasons.filter((r) => r.kind !== 'option').map((r) => r.reason)).toEqual([
        '2 items without a thread are needed, 0 found: set fixtures.threadless_item_ids',
        'no item without a thread is known of CALL, TEXT_MESSAGE, CONVERSATION_NOTE (fixtures.threadless_item_ids)',
      ]);
      // The last run found the threads the others created and still checked creation or the 409 path.
      const created = third.report.operations
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
