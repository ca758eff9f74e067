// Reading a shard file for the merge, bounded: its size is checked before a byte is read, then
// its shape against SHARD_FILE_SCHEMA (Ajv, stopping at the first violation), so a file edited by
// hand, cut short or made up is refused with one line naming the file and what is wrong.
import { readFileSync, statSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { UsageError } from '../tool.js';
import { SHARD_FILE_SCHEMA, SHARD_FORMAT } from './shard-schema.js';

/** Larger than any job's records: a full run's shard file is a few megabytes. */
export const MAX_SHARD_FILE_BYTES = 256 * 1024 * 1024;

let compiled: ReturnType<Ajv2020['compile']> | undefined;
const validator = () => {
  compiled ??= new Ajv2020({ allErrors: false, strict: true }).compile(SHARD_FILE_SCHEMA);
  return compiled;
};

const refuse = (path: string, why: string) =>
  new UsageError(`${path} is not a shard file of svc-contract --shard (${SHARD_FORMAT}): ${why}`);

/** The parsed file at `path` when it is a shard file of this format; else a one-line usage error. */
export function readCheckedShardFile(path: string): unknown {
  let size: number;
  try {
    size = statSync(path).size;
  } catch (error) {
    throw refuse(path, (error as NodeJS.ErrnoException).code ?? 'cannot be read');
  }
  if (size > MAX_SHARD_FILE_BYTES) throw refuse(path, `${size} bytes, more than ${MAX_SHARD_FILE_BYTES}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw refuse(path, `not JSON (${(error as Error).message.slice(0, 200)})`);
  }
  const validate = validator();
  if (!validate(parsed)) {
    const [first] = validate.errors ?? [];
    throw refuse(path, `${first?.instancePath || '/'} ${first?.message ?? 'does not match'}`.slice(0, 300));
  }
  return parsed;
}
