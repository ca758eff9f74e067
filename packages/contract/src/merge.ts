// svc-contract merge <dirs…>: the shard files of a --shard matrix, one per job, combined into the
// report one run would have made: the records joined (each job's exchange numbers moved past the
// previous job's, so every failure keeps its own curl) and passed through buildReport with the
// gates of the run. Every shard 1..n must be there exactly once: a lost job must not pass; and
// the shards must be of one run (merge-agreement.ts).
import { resolve } from 'node:path';
import { assertKnownOutcomes, assertOneRun } from './merge-agreement.js';
import type { ContractOptions } from './options.js';
import { createRedactor } from './redact.js';
import { deliver, invokedFrom, type RunResult } from './report/deliver.js';
import { buildReport } from './report/model.js';
import { readShardFile, type ShardFile } from './report/shard-file.js';
import { withheldOperations } from './rules/operation-checks.js';
import { loadSpec } from './spec.js';
import { UsageError } from './tool.js';
import type { TestRecord } from './types.js';
import { nothingRan } from './verdict.js';

export type MergeOptions = Pick<ContractOptions, 'reporters' | 'output' | 'env' | 'stdout' | 'print'> & {
  dirs: string[];
};

/** The shards in order, once each of 1..n, all of one run's kind; otherwise a usage error. */
function completeSet(files: ShardFile[]): ShardFile[] {
  const count = files[0]?.shard.count;
  const sorted = [...files].sort((a, b) => a.shard.index - b.shard.index);
  const indexes = sorted.map((f) => f.shard.index).join(',');
  const expected = Array.from({ length: count ?? 0 }, (_, k) => k + 1).join(',');
  if (count === undefined || files.some((f) => f.shard.count !== count) || indexes !== expected)
    throw new UsageError(
      `merge needs each shard 1..n of one matrix exactly once, got ${sorted.map((f) => `${f.shard.index}/${f.shard.count}`).join(', ') || 'none'}`,
    );
  return sorted;
}

/** Each job numbered its exchanges from 1: move them past the previous jobs' so they stay apart. */
function renumbered(files: ShardFile[]): TestRecord[] {
  const records: TestRecord[] = [];
  let offset = 0;
  for (const file of files) {
    let highest = 0;
    for (const r of file.records) {
      for (const e of r.exchanges) highest = Math.max(highest, e.seq);
      records.push({
        ...r,
        exchanges: r.exchanges.map((e) => ({ ...e, seq: e.seq + offset })),
        outcomes: r.outcomes.map((o) => (o.exchange === undefined ? o : { ...o, exchange: o.exchange + offset })),
      });
    }
    offset += highest;
  }
  return records;
}

export function mergeShards(options: MergeOptions): RunResult {
  const base = invokedFrom(options.env ?? process.env);
  const files = completeSet(options.dirs.map((dir) => readShardFile(resolve(base, dir))));
  const spec = loadSpec();
  assertOneRun(files);
  assertKnownOutcomes(files, spec);
  const first = files[0] as ShardFile;
  const records = renumbered(files);
  const problem = nothingRan(records, first.meta.only);
  const report = buildReport({
    spec,
    records,
    errors: problem ? [problem] : [],
    maxSkipped: first.maxSkipped,
    withheld: withheldOperations(),
    minInputCoverage: first.minInputCoverage,
    meta: {
      ...first.meta,
      startedAt: files.map((f) => f.meta.startedAt).sort()[0] ?? first.meta.startedAt,
      // The jobs' time summed: the pacing ratio then compares, as for one run, against the floor
      // of the whole request mix at one key's limits.
      durationMs: files.reduce((n, f) => n + f.meta.durationMs, 0),
    },
  });
  // The shard files were redacted when written; nothing secret is known here.
  return deliver(report, createRedactor([]), options);
}
