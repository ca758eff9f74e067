// The shard file: what one --shard job hands to `svc-contract merge`. It holds the job's records
// (not its report), so that the merge builds the one report from the union of the records with
// buildReport, exactly as a single run would: one verdict, one coverage, no second way to count.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestRecord } from '../model.js';
import { UsageError } from '../options.js';
import type { Redactor } from '../redact.js';
import { redactValues } from '../redact-forms.js';
import type { Shard } from '../shard.js';
import type { ReportInput } from './model.js';

export const SHARD_FILE = 'shard.json';
const FORMAT = 'svc-contract-shard/1';

export interface ShardFile {
  format: typeof FORMAT;
  shard: Shard;
  /** The gates the whole run is held to, applied by the merge over the union. */
  maxSkipped: number;
  minInputCoverage: number;
  meta: ReportInput['meta'];
  records: TestRecord[];
}

export function writeShardFile(dir: string, file: Omit<ShardFile, 'format'>, redact: Redactor): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, SHARD_FILE);
  // Redacted as values first: serialising escapes a key (a quote, a backslash) out of the text's reach.
  writeFileSync(path, redact(JSON.stringify(redactValues({ format: FORMAT, ...file }, redact))));
  return path;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The shard file of `dir`; anything else (missing, not JSON, another format) is a usage error. */
export function readShardFile(dir: string): ShardFile {
  const path = join(dir, SHARD_FILE);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`${path} is not a shard file of svc-contract --shard: ${(error as Error).message}`);
  }
  if (!isShardFile(parsed))
    throw new UsageError(`${path} is not a shard file of svc-contract --shard (format ${FORMAT})`);
  return parsed;
}

const isRecord = (r: unknown): boolean =>
  isObject(r) &&
  ['outcomes', 'exchanges', 'observations'].every((k) => Array.isArray(r[k]) && r[k].every(isObject)) &&
  typeof r.requests === 'number';

/** The shape buildReport reads, checked before it reads it: a file edited by hand must not crash the merge. */
function isShardFile(v: unknown): v is ShardFile {
  if (!isObject(v) || v.format !== FORMAT || !isObject(v.shard) || !isObject(v.meta)) return false;
  const { shard, meta } = v;
  return (
    Number.isInteger(shard.index) &&
    Number.isInteger(shard.count) &&
    typeof v.maxSkipped === 'number' &&
    typeof v.minInputCoverage === 'number' &&
    Array.isArray(meta.only) &&
    typeof meta.durationMs === 'number' &&
    typeof meta.startedAt === 'string' &&
    Array.isArray(v.records) &&
    v.records.every(isRecord)
  );
}
