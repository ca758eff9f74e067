// --shard i/n: a deterministic share of the suite's checks for one CI job. The unit shared out is
// a resource (all of its checks), never a single check: the checks of one resource build on the
// same fixtures and on one another's writes, so they stay in one job, with one session. Resources
// are dealt round-robin in name order, so every job of a matrix computes the same partition.

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

/** The shards a job may be given at most: more than there are resources would leave jobs empty. */
export const MAX_SHARDS = 64;

/** `i/n` as a Shard, or undefined unless 1 <= i <= n <= MAX_SHARDS. */
export function shardOf(value: string): Shard | undefined {
  const match = /^(\d{1,3})\/(\d{1,3})$/.exec(value);
  if (!match) return undefined;
  const index = Number(match[1]);
  const count = Number(match[2]);
  return index >= 1 && index <= count && count <= MAX_SHARDS ? { index, count } : undefined;
}

/** The resources of `shard`, out of every resource the suite's checks belong to. */
export function resourcesOfShard(resources: Iterable<string>, shard: Shard): Set<string> {
  const sorted = [...new Set(resources)].sort();
  return new Set(sorted.filter((_, k) => (k % shard.count) + 1 === shard.index));
}
