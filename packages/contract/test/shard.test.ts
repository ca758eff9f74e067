// --shard i/n and `svc-contract merge`: the shares of a matrix partition the suite by whole
// resources; one whole run with writes passes against the embedded sandbox, and three shard runs
// merged give its verdict and coverage; a failure or an unsent input in any shard fails the
// merge; bad input is a usage error.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredChecks } from '../src/execute.js';
import { mergeShards } from '../src/merge.js';
import { parseCli } from '../src/options.js';
import type { Report } from '../src/report/model.js';
import { SHARD_FILE, type ShardFile } from '../src/report/shard-file.js';
import { type RunResult, runContract } from '../src/run.js';
import { resourcesOfShard, shardOf } from '../src/shard.js';
import { UsageError } from '../src/tool.js';

const quiet = { quiet: true, print: false, rate: 'off' as const, allowWrites: true };

/** Each check of the report with its status: what "the same verdict" compares. */
const verdicts = (r: Report) =>
  r.operations.flatMap((op) => op.checks.map((c) => `${op.operationId} ${c.id} ${c.status}`)).sort();

describe('--shard on the command line', () => {
  it('takes i/n with 1 <= i <= n', () => {
    expect(parseCli(['--shard', '2/4'])).toMatchObject({ kind: 'run', options: { shard: { index: 2, count: 4 } } });
    expect(parseCli(['--shard', '1/1'])).toMatchObject({ kind: 'run', options: { shard: { index: 1, count: 1 } } });
  });

  it.each(['0/3', '4/3', '1/0', '3', 'a/b', '1/3/4', '-1/3', '1.5/3', '1/65', ''])(
    'refuses %j as a usage error',
    (value) => {
      expect(() => parseCli(['--shard', value])).toThrow(UsageError);
    },
  );
});

describe('the shares of a matrix', () => {
  const resources = [...new Set(registeredChecks().map((c) => c.resource))];

  it.each([1, 2, 3, 4, 20])(
    'partition the resources into %i disjoint shares, each computed alike by every job',
    (n) => {
      const shares = Array.from({ length: n }, (_, k) => resourcesOfShard(resources, { index: k + 1, count: n }));
      const all = shares.flatMap((s) => [...s]).sort();
      expect(all).toEqual([...resources].sort());
      // Deterministic: the order the checks were registered in does not matter.
      expect(resourcesOfShard([...resources].reverse(), { index: 1, count: n })).toEqual(shares[0]);
    },
  );

  it('deals the resources round-robin in name order', () => {
    expect(resourcesOfShard(['c', 'a', 'b', 'd', 'a'], { index: 1, count: 2 })).toEqual(new Set(['a', 'c']));
    expect(resourcesOfShard(['c', 'a', 'b', 'd'], { index: 2, count: 2 })).toEqual(new Set(['b', 'd']));
    expect(shardOf('3/4')).toEqual({ index: 3, count: 4 });
  });
});

describe('one whole run and three shards merged, against the embedded sandbox', () => {
  const root = mkdtempSync(join(tmpdir(), 'svc-contract-shard-'));
  const dirs = [1, 2, 3].map((i) => join(root, `shard-${i}`));
  let single: RunResult;
  let shards: RunResult[];
  let merged: RunResult;

  beforeAll(async () => {
    single = await runContract({ ...quiet });
    shards = [];
    for (const [k, output] of dirs.entries())
      shards.push(await runContract({ ...quiet, shard: { index: k + 1, count: 3 }, reporters: ['json'], output }));
    merged = mergeShards({ dirs, reporters: ['json', 'junit'], output: join(root, 'merged'), print: false });
    // Four whole runs: room for a loaded 2-core machine (it passed 120 s at load 15 to 20).
  }, 600_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('passes whole against the embedded sandbox: every input covered, every operation exercised, only the burst skipped', () => {
    const failures = [
      ...single.report.failures.map((f) => `${f.operationId} ${f.check}: ${f.message}`),
      ...single.report.errors,
    ];
    expect(failures).toEqual([]);
    expect(single.exitCode).toBe(0);
    expect(single.report.target.embedded).toBe(true);
    // Every documented input was sent in a request that succeeded and every rule broken alone,
    // and a complete run with writes is gated on it by default.
    expect(single.report.coverage.inputs).toMatchObject({ percent: 100, min: 100 });
    expect(single.report.coverage.inputs.rows.flatMap((r) => r.missing)).toEqual([]);
    // Every documented operation was exercised, and nothing is skipped but the opt-in bursts (reads, writes) and the
    // budget check that needs the documented pace (this run's rate is off).
    expect(single.report.coverage.operations.exercised).toBe(single.report.coverage.operations.documented);
    const skipped = single.report.operations.flatMap((op) =>
      op.checks.filter((c) => c.status === 'skipped').map((c) => c.id),
    );
    expect(skipped.sort()).toEqual(['rate-limit.burst', 'rate-limit.within-budget', 'rate-limit.write-burst']);
  });

  it('runs each registered check in exactly one shard', () => {
    // Every job finds its own fixtures (fixtures.discovery) and checks every response it gets
    // (response.*): those are no registered check, and repeat by design.
    const own = (v: string) => !v.includes(' response.') && !v.includes(' fixtures.discovery ');
    const perShard = shards.map((s) => verdicts(s.report).filter(own));
    const joined = perShard.flat();
    expect(joined.filter((v, k) => joined.indexOf(v) !== k)).toEqual([]);
    expect(perShard.every((v) => v.length > 0)).toBe(true);
  });

  it('gives the verdict and the coverage of one run', () => {
    expect(single.exitCode).toBe(0);
    expect(merged.exitCode).toBe(0);
    expect(merged.report.summary.outcome).toBe('passed');
    expect(verdicts(merged.report)).toEqual(verdicts(single.report));
    expect(merged.report.summary.checks).toEqual(single.report.summary.checks);
    expect(merged.report.coverage.inputs).toMatchObject({ percent: 100, min: 100 });
    expect(merged.report.coverage.inputs.covered).toBe(single.report.coverage.inputs.covered);
    expect(merged.report.coverage.inputs.documented).toBe(single.report.coverage.inputs.documented);
    expect(merged.report.coverage.percent).toBe(single.report.coverage.percent);
    expect(merged.report.coverage.operations).toEqual(single.report.coverage.operations);
    expect(merged.report.errors).toEqual([]);
  });

  it('writes one JSON and one JUnit report over the union', () => {
    const json = JSON.parse(readFileSync(join(root, 'merged', 'report.json'), 'utf8')) as Report;
    expect(json.summary).toEqual(merged.report.summary);
    const junit = readFileSync(join(root, 'merged', 'junit.xml'), 'utf8');
    const checks = merged.report.summary.checks;
    expect(junit).toContain(`tests="${checks.passed + checks.failed + checks.skipped}" failures="0" errors="0"`);
    expect(junit).toContain('<property name="coverage.inputs.percent" value="100"/>');
  });

  /** A copy of the shard dirs with shard `index`'s file changed by `change`. */
  function tampered(name: string, index: number, change: (file: ShardFile) => void): string[] {
    return dirs.map((dir, k) => {
      const file = JSON.parse(readFileSync(join(dir, SHARD_FILE), 'utf8')) as ShardFile;
      if (k + 1 === index) change(file);
      const copy = join(root, name, `shard-${k + 1}`);
      rmSync(copy, { recursive: true, force: true });
      writeFileSync(join(mkdirOf(copy), SHARD_FILE), JSON.stringify(file));
      return copy;
    });
  }

  it('fails when any shard failed a check', () => {
    const copies = tampered('failed', 2, (file) => {
      const record = file.records.find((r) => r.outcomes.some((o) => o.status === 'passed')) as ShardFile['records'][0];
      const passed = record.outcomes.find((o) => o.status === 'passed') as (typeof record.outcomes)[0];
      record.outcomes.push({ ...passed, status: 'failed', detail: 'broken on purpose' });
    });
    const result = mergeShards({ dirs: copies, print: false });
    expect(result.exitCode).toBe(1);
    expect(result.report.summary.checks.failed).toBe(1);
    expect(result.report.failures.map((f) => f.message)).toEqual(['broken on purpose']);
  });

  it('fails when an input was sent in no shard: coverage is gated over the union', () => {
    const copies = tampered('unsent', 3, (file) => {
      for (const r of file.records) delete r.inputs;
    });
    const result = mergeShards({ dirs: copies, print: false });
    expect(result.exitCode).toBe(1);
    expect(result.report.coverage.inputs.percent).toBeLessThan(100);
    expect(result.report.errors.join('\n')).toContain('below --min-input-coverage 100%');
  });

  it('refuses a matrix with a shard missing or twice, or a dir without a shard file', () => {
    expect(() => mergeShards({ dirs: dirs.slice(0, 2), print: false })).toThrow(/each shard 1..n .* got 1\/3, 2\/3/);
    expect(() => mergeShards({ dirs: [...dirs, dirs[0] as string], print: false })).toThrow(UsageError);
    expect(() => mergeShards({ dirs: [...dirs, root], print: false })).toThrow(UsageError);
  });

  it('refuses a shard file of another shape as a usage error, never a crash', () => {
    const broken = tampered('broken', 1, (file) => {
      (file.records as unknown[]).push(1);
    });
    expect(() => mergeShards({ dirs: broken, print: false })).toThrow(/is not a shard file of svc-contract --shard/);
    const noMeta = tampered('no-meta', 2, (file) => {
      delete (file as Partial<ShardFile>).meta;
    });
    expect(() => mergeShards({ dirs: noMeta, print: false })).toThrow(UsageError);
  });

  /** The usage error a merge of `copies` gives: one line. */
  function refusal(copies: string[]): string {
    try {
      mergeShards({ dirs: copies, print: false });
    } catch (error) {
      expect(error).toBeInstanceOf(UsageError);
      const message = (error as Error).message;
      expect(message).not.toContain('\n');
      return message;
    }
    throw new Error('the merge was not refused');
  }

  it.each<[string, (file: ShardFile) => void, RegExp]>([
    [
      'profile',
      (f) => Object.assign(f.meta, { profile: 'mock' }),
      /differ in the profile: 1\/3, 3\/3: full; 2\/3: mock/,
    ],
    [
      'target',
      (f) => Object.assign(f.meta, { target: { baseUrl: 'http://other.example', embedded: false } }),
      /in the target/,
    ],
    ['writes', (f) => Object.assign(f.meta, { allowWrites: false }), /in the writes \(--allow-writes\)/],
    ['filters', (f) => Object.assign(f.meta, { only: ['threads'] }), /in the filters \(--only\): .*2\/3: threads/],
    ['gates', (f) => Object.assign(f, { maxSkipped: 5 }), /in the gate --max-skipped/],
    [
      'tool version',
      (f) => Object.assign(f.meta.tool, { version: '9.9.9' }),
      /in the tool version: .*svc-contract 9\.9\.9/,
    ],
    ['contract version', (f) => Object.assign(f.contract, { version: '1.0.0' }), /in the contract version/],
  ])('refuses shards of different runs: another %s, named', (name, change, expected) => {
    expect(refusal(tampered(`differ-${name.replace(' ', '-')}`, 2, change))).toMatch(expected);
  });

  it('refuses an outcome on a check or an operation this version does not know, never dropping it', () => {
    const check = tampered('unknown-check', 1, (file) => {
      file.records[0]?.outcomes.push({ check: 'made.up', operationId: 'listTags', status: 'failed', detail: 'x' });
    });
    expect(refusal(check)).toMatch(
      /shard 1\/3 holds an outcome of check made\.up, which this svc-contract does not know/,
    );
    const operation = tampered('unknown-operation', 3, (file) => {
      file.records[0]?.outcomes.push({ check: 'conformance.success', operationId: 'sendSms', status: 'failed' });
    });
    expect(refusal(operation)).toMatch(/outcome of operation sendSms/);
  });

  it('refuses a file edited by hand in one line, sized by nothing in it', () => {
    // A shard count that would have the merge list a billion expected shards.
    const huge = tampered('huge-count', 1, (file) => Object.assign(file.shard, { count: 1_000_000_000 }));
    expect(refusal(huge)).toMatch(/shard\.json is not a shard file .*: \/shard\/count must be <= 64/);
    const counted = tampered('huge-count-of-passes', 2, (file) => {
      const outcome = file.records[0]?.outcomes[0];
      if (outcome) outcome.count = 1e300;
    });
    expect(refusal(counted)).toMatch(/\/records\/0\/outcomes\/0\/count must be <= 1000000000/);
    const truncated = tampered('truncated', 3, () => {});
    const path = join(truncated[2] as string, SHARD_FILE);
    writeFileSync(path, readFileSync(path, 'utf8').slice(0, 1000));
    expect(refusal(truncated)).toMatch(/is not a shard file .*: not JSON/);
  });
});

function mkdirOf(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return dir;
}
