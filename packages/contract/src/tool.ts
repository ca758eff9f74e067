// What the tool is and what a caller can get wrong, shared by the options, the run, the report and
// the merge: its version, its report formats, its defaults, the usage error, and what a run's
// delivery is asked (report files, where, printed or not). A leaf: the report reads these here
// rather than from options.ts, which sits above it.
import { createRequire } from 'node:module';

export type ReporterName = 'text' | 'json' | 'junit' | 'markdown' | 'har';
export const REPORTERS: readonly ReporterName[] = ['text', 'json', 'junit', 'markdown', 'har'];

/**
 * A mistake in how the tool was called (options, config, a URL with credentials): exit status 2,
 * the message said as it is; in code it is thrown before anything is sent.
 */
export class UsageError extends Error {}

export function toolVersion(): string {
  return (createRequire(import.meta.url)('../package.json') as { version: string }).version;
}

/** A full config against the sandbox skips nothing for want of configuration. */
export const DEFAULT_MAX_SKIPPED = 0;
export const DEFAULT_FIXTURES_PER_KIND = 20;

/** How a run's end is delivered: which report files, where, and whether the readable report is printed. */
export interface DeliveryOptions {
  /** Report files to write into `output` (the readable report is printed whatever this says). */
  reporters?: ReporterName[];
  output?: string;
  /** Print the readable report (default true). */
  print?: boolean;
  /** Where progress and the report go (default process.stdout / process.stderr). */
  stdout?: NodeJS.WritableStream;
  /** The environment (SVC_API_KEY, key_env of the config). Default process.env. */
  env?: Record<string, string | undefined>;
}
