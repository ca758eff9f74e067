// `svc-contract merge` merges the shards of one run or refuses: every shard must have checked the
// same server, with the same profile, writes, burst, filters and gates, by the same version of the
// tool against the same version of the contract, and every outcome must be of a check and an
// operation this version knows. Anything else is a usage error that names the difference, so
// that shards of two runs never merge into a verdict neither of them gave.
import { API_WIDE, knownCheckIds } from './catalogue.js';
import { UsageError } from './options.js';
import type { ShardFile } from './report/shard-file.js';
import type { Spec } from './spec.js';

const clip = (value: string) => (value.length > 120 ? `${value.slice(0, 120)}…` : value);

/** What every shard must agree on, each as a readable value. */
const AGREED: ReadonlyArray<[string, (f: ShardFile) => string]> = [
  ['target', (f) => (f.meta.target.embedded ? '(an embedded sandbox)' : f.meta.target.baseUrl)],
  ['profile', (f) => f.meta.profile],
  ['writes (--allow-writes)', (f) => (f.meta.allowWrites ? 'allowed' : 'off')],
  ['burst (--burst)', (f) => (f.meta.burst ? 'on' : 'off')],
  ['filters (--only)', (f) => [...f.meta.only].sort().join(',') || '(none)'],
  ['gate --max-skipped', (f) => String(f.maxSkipped)],
  ['gate --min-input-coverage', (f) => String(f.minInputCoverage)],
  ['tool version', (f) => `${f.meta.tool.name} ${f.meta.tool.version}`],
  ['contract version', (f) => `${f.contract.title} ${f.contract.version}`],
];

const named = (f: ShardFile) => `${f.shard.index}/${f.shard.count}`;

/** Throws a usage error naming the first thing the shards disagree on. */
export function assertOneRun(files: readonly ShardFile[]): void {
  for (const [what, read] of AGREED) {
    const values = new Map<string, string[]>();
    for (const file of files) {
      const value = clip(read(file));
      values.set(value, [...(values.get(value) ?? []), named(file)]);
    }
    if (values.size > 1)
      throw new UsageError(
        `merge needs the shards of one run, but they differ in the ${what}: ${[...values].map(([v, shards]) => `${shards.join(', ')}: ${v}`).join('; ')}`,
      );
  }
}

/** Throws a usage error on an outcome of a check or an operation this version of the tool does not know. */
export function assertKnownOutcomes(files: readonly ShardFile[], spec: Spec): void {
  const operations = new Set([API_WIDE, ...spec.contract.operations.map((op) => op.operationId)]);
  const checks = new Set(knownCheckIds());
  for (const file of files)
    for (const record of file.records)
      for (const outcome of record.outcomes) {
        const unknown = !checks.has(outcome.check)
          ? `check ${clip(outcome.check)}`
          : !operations.has(outcome.operationId)
            ? `operation ${clip(outcome.operationId)}`
            : undefined;
        if (unknown)
          throw new UsageError(
            `shard ${named(file)} holds an outcome of ${unknown}, which this svc-contract does not know: merge with the version that ran the shards`,
          );
      }
}
