#!/usr/bin/env node
// svc-contract: runs the contract suite against a server (or the embedded sandbox) and exits
// 0 when every check passed, 1 when one failed, 2 on a usage or configuration error.
import { ConfigError } from './config.js';
import { type Parsed, parseCli, usageOf } from './options.js';
import { toolVersion, UsageError } from './tool.js';

async function main(): Promise<number> {
  let parsed: Parsed;
  try {
    parsed = parseCli(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`svc-contract: ${(error as Error).message}\n\n${usageOf(process.argv.slice(2))}`);
    return 2;
  }
  if (parsed.kind === 'help') {
    process.stdout.write(parsed.usage);
    return 0;
  }
  if (parsed.kind === 'version') {
    process.stdout.write(`${toolVersion()}\n`);
    return 0;
  }
  try {
    // Loaded only now: --help, --version and usage errors answer without loading the suite.
    const { mergeShards, runContract, runProxy, runReplay } = await import('./index.js');
    const result =
      parsed.kind === 'proxy'
        ? await runProxy(parsed.options)
        : parsed.kind === 'merge'
          ? mergeShards(parsed.options)
          : parsed.kind === 'replay'
            ? await runReplay(parsed.options)
            : await runContract(parsed.options);
    return result.exitCode;
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError) {
      process.stderr.write(`svc-contract: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // Never print the key: the message may quote a request; keys are not in error messages we build.
    process.stderr.write(`svc-contract: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
