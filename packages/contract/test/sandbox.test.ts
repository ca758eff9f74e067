// The suite against the reference server: the checks that use fixtures up pass run after run
// against one sandbox (that the full profile with writes passes against the embedded sandbox is
// asserted in shard.test.ts, on the whole run its shards are compared with).

import { loadSeedFile, startSandboxServer, withContractReserve, withScopeKeys } from '@svc/sandbox';
import { describe, expect, it } from 'vitest';
import { runContract } from '../src/run.js';
import { loadSpec } from '../src/spec.js';
import { forgetfulServer, sandbox } from './support/servers.js';

const quiet = { quiet: true, print: false, rate: 'off' as const };

function failuresOf(result: Awaited<ReturnType<typeof runContract>>): string[] {
  return [...result.report.failures.map((f) => `${f.operationId} ${f.check}: ${f.message}`), ...result.report.errors];
}

describe('the full profile with --allow-writes', () => {
  // That one whole run passes against the embedded sandbox is shard.test.ts's: the run its three
  // shards are compared with is that run, made once for both.

  describe('again and again against one sandbox', () => {
    // The checks that use up what the API cannot give back (threads on free items, a template
    // deactivated), with the config the sandbox serves, as `pnpm start` serves it.
    const consuming = {
      ...quiet,
      allowWrites: true,
      apiKey: 'sbx_demo_full_access',
      only: ['threads', 'summary-templates'],
    };

    async function servingSandbox(reserve: boolean) {
      const keyed = withScopeKeys(loadSeedFile(), loadSpec().contract);
      const seed = reserve ? withContractReserve(keyed, 'team-harbor') : keyed;
      return startSandboxServer({ port: 0, host: '127.0.0.1', seed, rateLimit: false, serveContractConfig: true });
    }

    it('passes five times in a row on the reserve svc-sandbox holds, each run creating threads and deactivating a template', async () => {
      const running = await servingSandbox(true);
      try {
        const team = () => running.sandbox.store.team('team-harbor');
        for (let run = 1; run <= 5; run++) {
          const threadsBefore = team().threads.length;
          const activeBefore = team().summary_templates.filter((t) => t.active).length;
          const result = await runContract({ ...consuming, baseUrl: running.url });
          expect(failuresOf(result), `run ${run}`).toEqual([]);
          expect(result.report.summary.skipped.counted, `run ${run}`).toBe(0);
          expect(result.exitCode, `run ${run}`).toBe(0);
          // What the run used up: three items (one of each kind) and one template.
          expect(team().threads.length - threadsBefore, `run ${run}`).toBe(3);
          expect(activeBefore - team().summary_templates.filter((t) => t.active).length, `run ${run}`).toBe(1);
        }
      } finally {
        await running.close();
      }
    });

    it('says in one line, once the free items run out, how to get them back from a sandbox', async () => {
      const running = await servingSandbox(false);
      try {
        let last: Awaited<ReturnType<typeof runContract>> | undefined;
        for (let run = 1; run <= 4; run++) last = await runContract({ ...consuming, baseUrl: running.url });
        // No check fails: the thread creations are skipped for the configuration, with the fix.
        expect(last?.report.failures).toEqual([]);
        const reasons = last?.report.summary.skipped.reasons.filter((r) => r.kind !== 'option').map((r) => r.reason);
        expect(reasons).toContain(
          "2 items without a thread are needed, 0 found: the sandbox's reserve is used up; restart the sandbox, or reset it (POST /__sandbox/reset, served when it runs with --enable-reset)",
        );
        expect(reasons?.some((r) => r.startsWith('every known template is already deactivated'))).toBe(true);
        expect(last?.exitCode).toBe(1);
      } finally {
        await running.close();
      }
    });

    it('names the config fixture to add against any other server', async () => {
      const target = await sandbox();
      try {
        const options = { ...consuming, baseUrl: target.url, apiKey: target.apiKey, config: target.config };
        let last: Awaited<ReturnType<typeof runContract>> | undefined;
        for (let run = 1; run <= 4; run++) last = await runContract(options);
        expect(last?.report.summary.skipped.reasons.map((r) => r.reason)).toContain(
          '2 items without a thread are needed, 0 found: name more in fixtures.threadless_item_ids of --config',
        );
      } finally {
        await target.close();
      }
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
      // Besides writes and the opt-in burst, only the budget check that needs the documented pace
      // (this run's rate is off) is skipped, by option.
      const unpaced = (r: string) => r.startsWith('the run does not pace its requests');
      expect(
        [...reasons].filter((r) => !r.startsWith('changes data') && !r.startsWith('opt-in') && !unpaced(r)),
      ).toEqual([]);
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
