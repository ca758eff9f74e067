// What `svc-contract replay` reads: a run's report.json, a shard job's shard.json, or a folder of
// them. Each file is bounded in size and checked against the shape replay reads (Ajv), so a file
// edited by hand or cut short is one usage error naming it, never a crash; a shard's failures are
// made from its records as the report makes them (summariseChecks). A failure found in more than
// one file (a shard job writes both) is replayed once.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { summariseChecks } from '../report/checks-section.js';
import type { Failure, SentRequest } from '../report/shape.js';
import { SHARD_FILE, type ShardFile } from '../report/shard-file.js';
import { readCheckedShardFile } from '../report/shard-read.js';
import { EXPECTED_SCHEMA, KEY_REF_SCHEMA, MADE_BY_SCHEMA, SHARD_FORMAT } from '../report/shard-schema.js';
import { UsageError } from '../tool.js';
import type { ExchangeSummary, Profile, RateSetting } from '../types.js';

/** The failures of one run (a report, or a shard job's records), with where that run sent them. */
export interface ReplaySource {
  file: string;
  baseUrl: string;
  /** The run's server was an embedded sandbox, gone with it: only --base-url can name a server. */
  embedded: boolean;
  profile: Profile;
  /** The run's client-side rate (null: none), kept when a rule is run again (rerun.ts). */
  rate: RateSetting | null;
  /** The run's --burst (false when the report predates it), kept with the rate. */
  burst: boolean;
  failures: Failure[];
}

const MAX_FILE_BYTES = 256 * 1024 * 1024;
const text = (maxLength: number) => ({ type: 'string', maxLength });

/** The part of report.json replay reads. */
const REPORT_SCHEMA = {
  type: 'object',
  required: ['target', 'profile', 'failures'],
  properties: {
    target: {
      type: 'object',
      required: ['baseUrl', 'embedded'],
      properties: { baseUrl: text(10_000), embedded: { type: 'boolean' } },
    },
    profile: { enum: ['full', 'mock'] },
    burst: { type: 'boolean' },
    rate: {
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['readsPerSecond', 'writesPerSecond'],
          properties: {
            readsPerSecond: { type: 'number', exclusiveMinimum: 0, maximum: 1_000_000 },
            writesPerSecond: { type: 'number', exclusiveMinimum: 0, maximum: 1_000_000 },
          },
        },
      ],
    },
    failures: {
      type: 'array',
      maxItems: 1_000_000,
      items: {
        type: 'object',
        required: ['check', 'operationId', 'message'],
        properties: {
          check: text(200),
          operationId: text(200),
          message: text(10_000_000),
          status: { type: 'integer', minimum: 0, maximum: 999 },
          responseBody: text(100_000_000),
          request: {
            type: 'object',
            required: ['method', 'url', 'headers'],
            properties: {
              method: text(32),
              url: text(1_000_000),
              headers: { type: 'object', additionalProperties: text(1_000_000) },
              body: text(100_000_000),
              key: KEY_REF_SCHEMA,
            },
          },
          expected: EXPECTED_SCHEMA,
          madeBy: MADE_BY_SCHEMA,
        },
      },
    },
  },
};

let compiled: ReturnType<Ajv2020['compile']> | undefined;
const validator = () => {
  compiled ??= new Ajv2020({ allErrors: false, strict: false }).compile(REPORT_SCHEMA);
  return compiled;
};

function readJson(path: string): unknown {
  const size = statSync(path).size;
  if (size > MAX_FILE_BYTES)
    throw new UsageError(`${path}: ${size} bytes, more than the ${MAX_FILE_BYTES} replay reads`);
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`${path} is not JSON (${(error as Error).message.slice(0, 200)})`);
  }
}

function fromShard(file: string): ReplaySource {
  const shard = readCheckedShardFile(file) as ShardFile;
  const exchanges = new Map<number, ExchangeSummary>();
  for (const r of shard.records) for (const e of r.exchanges) exchanges.set(e.seq, e);
  const { byOperation } = summariseChecks(
    shard.records.flatMap((r) => r.outcomes),
    exchanges,
  );
  const failures = [...byOperation.values()].flatMap((checks) => [...checks.values()].flatMap((c) => c.failures));
  const { target, profile, rate, burst } = shard.meta;
  const run = { profile, rate: rate ?? null, burst: burst === true };
  return { file, baseUrl: target.baseUrl, embedded: target.embedded, ...run, failures };
}

function fromFile(file: string): ReplaySource {
  const parsed = readJson(file) as { format?: unknown };
  if (parsed?.format === SHARD_FORMAT) return fromShard(file);
  const validate = validator();
  if (!validate(parsed)) {
    const [first] = validate.errors ?? [];
    const why = `${first?.instancePath || '/'} ${first?.message ?? 'does not match'}`.slice(0, 300);
    throw new UsageError(`${file} is neither a report.json nor a ${SHARD_FILE} of svc-contract: ${why}`);
  }
  const report = parsed as {
    target: { baseUrl: string; embedded: boolean };
    profile: Profile;
    rate?: RateSetting | null;
    burst?: boolean;
    failures: Failure[];
  };
  const { baseUrl, embedded } = report.target;
  const run = { profile: report.profile, rate: report.rate ?? null, burst: report.burst === true };
  return { file, baseUrl, embedded, ...run, failures: report.failures };
}

/** The JSON files a folder holds (not its subfolders), by name. */
function jsonFilesIn(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.json'))
    .map((e) => join(dir, e.name))
    .sort();
}

const sameFailure = (f: Failure, r: SentRequest | undefined) =>
  JSON.stringify([f.check, f.operationId, f.message, r?.method, r?.url, r?.body]);

/** The runs given (files, or folders of them), each failure once. */
export function readReplaySources(paths: readonly string[]): ReplaySource[] {
  const files = paths.flatMap((path) => {
    let isDir: boolean;
    try {
      isDir = statSync(path).isDirectory();
    } catch (error) {
      throw new UsageError(`${path}: ${(error as NodeJS.ErrnoException).code ?? 'cannot be read'}`);
    }
    return isDir ? jsonFilesIn(path) : [path];
  });
  if (files.length === 0) throw new UsageError(`no report.json or ${SHARD_FILE} in ${paths.join(', ')}`);
  const seen = new Set<string>();
  return files.map(fromFile).map((source) => ({
    ...source,
    failures: source.failures.filter((f) => {
      const key = sameFailure(f, f.request);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    }),
  }));
}
