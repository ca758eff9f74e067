// The shard file: what one --shard job hands to `svc-contract merge`. It holds the job's records
// (not its report), so that the merge builds the one report from the union of the records with
// buildReport, exactly as a single run would: one verdict, one coverage, no second way to count.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Redactor } from '../redact.js';
import { redactValues } from '../redact-forms.js';
import type { Shard } from '../shard.js';
import type { TestRecord } from '../types.js';
import type { Report, ReportInput } from './shape.js';
import { readCheckedShardFile } from './shard-read.js';
import { SHARD_FORMAT } from './shard-schema.js';

export const SHARD_FILE = 'shard.json';
const FORMAT = SHARD_FORMAT;

export interface ShardFile {
  format: typeof FORMAT;
  shard: Shard;
  /** The contract the job checked against (its title and version): every shard must name the same. */
  contract: Report['contract'];
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

/** The shard file of `dir`; anything else (missing, too large, not JSON, another shape) is a one-line usage error. */
export function readShardFile(dir: string): ShardFile {
  return readCheckedShardFile(join(dir, SHARD_FILE)) as ShardFile;
}
