// Plain `prism mock` of the same bundle (prism-cli's own server), for comparison: what the mock
// adds is visible by sending the same request to both. Used by `svc-mock --plain` and the bench.
import { type ChildProcess, type StdioOptions, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { BUNDLE_PATH } from './contract.js';

const require = createRequire(import.meta.url);

/** The prism-cli entry point (its `prism` bin). */
export function prismCliPath(): string {
  const manifest = require.resolve('@stoplight/prism-cli/package.json');
  const { bin } = require(manifest) as { bin: { prism: string } };
  return join(dirname(manifest), bin.prism);
}

export interface PlainOptions {
  port: number;
  host: string;
  /** Prism's --verboseLevel (default info, as `prism mock` itself). */
  verboseLevel?: string;
  dynamic?: boolean;
  stdio?: StdioOptions;
}

export function spawnPlainPrism(options: PlainOptions): ChildProcess {
  const args = [
    prismCliPath(),
    'mock',
    BUNDLE_PATH,
    '--port',
    String(options.port),
    '--host',
    options.host,
    '--verboseLevel',
    options.verboseLevel ?? 'info',
  ];
  if (options.dynamic) args.push('--dynamic');
  return spawn(process.execPath, args, { stdio: options.stdio ?? 'inherit' });
}
