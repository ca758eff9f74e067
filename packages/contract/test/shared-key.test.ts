// One key, many shards: three --shard i/3 jobs sharing one key, at once, against one sandbox at
// its documented limits (the key's budget is shared, so 429s come) all pass, and so does the merge.
// Each says it shares its key (--shared-key): its 429s are waited out, never blamed on the server.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mergeShards } from '../src/merge.js';
import { runContract } from '../src/run.js';
import { sandbox } from './support/servers.js';

const root = mkdtempSync(join(tmpdir(), 'svc-contract-shared-key-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('three shards sharing one key', () => {
  it('pass against a sandbox enforcing the documented limits, 429s waited out, and merge into a pass', async () => {
    const target = await sandbox({ rateLimit: {} });
    try {
      const dirs = [1, 2, 3].map((index) => join(root, `shard-${index}`));
      const shards = await Promise.all(
        dirs.map((output, k) =>
          runContract({
            baseUrl: target.url,
            apiKey: target.apiKey,
            config: target.config,
            allowWrites: true,
            only: ['custom-fields', 'dialer-queues', 'tags'],
            shard: { index: k + 1, count: 3 },
            sharedKey: true,
            output,
            quiet: true,
            print: false,
          }),
        ),
      );
      for (const shard of shards) {
        expect(shard.report.failures.map((f) => `${f.operationId} ${f.check}: ${f.message}`)).toEqual([]);
        expect(shard.exitCode).toBe(0);
      }
      // The key's budget was shared: some answers were 429s, waited out (and checked) as each asked.
      const limited = shards.flatMap((s) =>
        s.report.coverage.rows.filter((r) => r.codes.covered.includes('RATE_LIMIT_EXCEEDED')),
      );
      expect(limited.length).toBeGreaterThan(0);
      const merged = mergeShards({ dirs, print: false });
      expect(merged.report.errors).toEqual([]);
      expect(merged.exitCode).toBe(0);
    } finally {
      await target.close();
    }
  });
});
