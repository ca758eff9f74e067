#!/usr/bin/env node
// The breaking-change gate: compares the current bundle with the last released contract (the
// baseline committed in spec/baseline/) and fails when a client written against the release
// would break, unless the major version of info.version was bumped. The rules and their reasons
// are in scripts/breaking/ (one module per family; `--rules` lists them).
//
// Exit codes: 0 no breaking change (or only changes allowed by a major bump), 1 breaking
// changes, 2 usage or I/O error (missing or unreadable file, not an OpenAPI bundle, or a failure
// of the gate itself, which must never pass for a verdict).
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { formatHuman, formatJson } from './breaking/format.mjs';
import { ContractError, compareContracts, RULES } from './breaking/index.mjs';

const specDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_BASELINE = join(specDir, 'baseline', 'openapi.json');
const DEFAULT_CURRENT = join(specDir, 'dist', 'openapi.json');

const USAGE = `Usage: node scripts/check-breaking.mjs [--baseline FILE] [--current FILE] [--json]
       node scripts/check-breaking.mjs --rules

Compares the current OpenAPI bundle with the last released one and fails on a breaking change,
unless info.version's major version is greater than the baseline's.

  --baseline FILE  the last released bundle (default: spec/baseline/openapi.json)
  --current FILE   the bundle to check (default: spec/dist/openapi.json; build it with
                   pnpm --filter @svc/openapi bundle)
  --json           print the report as JSON
  --rules          list the rule ids and what each catches
  -h, --help       this text

Exit codes: 0 no breaking change (or a major version bump), 1 breaking changes, 2 usage or I/O error.`;

class UsageError extends Error {}

/**
 * Reads a bundle (JSON, or YAML by extension).
 * @param {string} file
 * @param {string} hint what to do when it is missing
 */
async function readBundle(file, hint) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = /** @type {NodeJS.ErrnoException} */ (error).code;
    throw new UsageError(
      code === 'ENOENT'
        ? `${file} does not exist; ${hint}`
        : `cannot read ${file}: ${/** @type {Error} */ (error).message}`,
    );
  }
  try {
    // YAML only on demand: the usual input is the JSON bundle, and the gate should start fast.
    return /\.ya?ml$/i.test(file) ? (await import('yaml')).parse(text) : JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `${file} is not valid ${/\.ya?ml$/i.test(file) ? 'YAML' : 'JSON'}: ${/** @type {Error} */ (error).message}`,
    );
  }
}

/** A file as the user should read it: relative to the working directory when inside it. @param {string} file */
const shown = (file) => {
  const path = relative(process.cwd(), file);
  return path && !path.startsWith('..') && !isAbsolute(path) ? path : file;
};

/**
 * @param {string[]} argv
 * @returns {Promise<number>} the exit code
 */
async function main(argv) {
  let options;
  try {
    ({ values: options } = parseArgs({
      args: argv,
      options: {
        baseline: { type: 'string' },
        current: { type: 'string' },
        json: { type: 'boolean', default: false },
        rules: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    process.stderr.write(`check-breaking: ${/** @type {Error} */ (error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (options.rules) {
    const width = Math.max(...Object.keys(RULES).map((id) => id.length));
    process.stdout.write(
      Object.entries(RULES)
        .map(([id, { family, summary }]) => `${id.padEnd(width)}  [${family}] ${summary}\n`)
        .join(''),
    );
    return 0;
  }

  const baselineFile = options.baseline ? resolve(options.baseline) : DEFAULT_BASELINE;
  const currentFile = options.current ? resolve(options.current) : DEFAULT_CURRENT;
  const files = { baseline: shown(baselineFile), current: shown(currentFile) };
  try {
    const baseline = await readBundle(
      baselineFile,
      'record the released contract with pnpm --filter @svc/openapi baseline:update',
    );
    const current = await readBundle(currentFile, 'build the bundle first: pnpm --filter @svc/openapi bundle');
    const report = compareContracts(baseline, current);
    process.stdout.write(`${options.json ? formatJson(report, files) : formatHuman(report, files)}\n`);
    return report.breaking ? 1 : 0;
  } catch (error) {
    // A bug of the gate itself must not read as "breaking" (1): it is reported with its stack as 2.
    const known = error instanceof UsageError || error instanceof ContractError;
    process.stderr.write(`check-breaking: ${known ? error.message : /** @type {Error} */ (error).stack}\n`);
    return 2;
  }
}

// A reader that stops early (`| head`) is not an error of the gate.
process.stdout.on('error', (error) => {
  if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EPIPE') throw error;
});
// exitCode, not exit(): a long report piped to another process is written out in full.
// `pnpm <script> -- --flag` passes the "--" through; it separates nothing here.
/** @param {string[]} args */
const withoutSeparator = (args) => (args[0] === '--' ? args.slice(1) : args);
process.exitCode = await main(withoutSeparator(process.argv.slice(2)));
