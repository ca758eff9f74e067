#!/usr/bin/env node
// Records the current bundle as the baseline, the last released contract that the breaking-change
// gate (check-breaking.mjs) compares against. Run it at release time only, through
// `pnpm --filter @svc/openapi baseline:update`, which bundles first: between releases the
// baseline must stay put, or the gate would compare the contract with itself.
//
// The copy is byte for byte (the baseline IS the released bundle). A bundle that breaks the
// previous baseline without a major version bump is refused (exit 1) unless --force: releasing a
// break under the same major version is exactly what the gate exists to prevent.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { formatHuman } from './breaking/format.mjs';
import { ContractError, compareContracts } from './breaking/index.mjs';

const specDir = join(dirname(fileURLToPath(import.meta.url)), '..');

const USAGE = `Usage: node scripts/update-baseline.mjs [--bundle FILE] [--baseline FILE] [--force]

Copies the bundle (default: spec/dist/openapi.json) to the baseline (default:
spec/baseline/openapi.json). Refuses a bundle that breaks the previous baseline without a major
version bump, unless --force.`;

/** A file as the user should read it: relative to the working directory when inside it. @param {string} file */
const shown = (file) => {
  const path = relative(process.cwd(), file);
  return path && !path.startsWith('..') && !isAbsolute(path) ? path : file;
};

/** @param {string[]} argv @returns {number} */
function main(argv) {
  let options;
  try {
    ({ values: options } = parseArgs({
      args: argv,
      options: {
        bundle: { type: 'string' },
        baseline: { type: 'string' },
        force: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    process.stderr.write(`update-baseline: ${/** @type {Error} */ (error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const bundleFile = resolve(options.bundle ?? join(specDir, 'dist', 'openapi.json'));
  const baselineFile = resolve(options.baseline ?? join(specDir, 'baseline', 'openapi.json'));

  try {
    if (!existsSync(bundleFile))
      throw new ContractError(`${shown(bundleFile)} does not exist; build it with pnpm --filter @svc/openapi bundle`);
    const bundleText = readFileSync(bundleFile, 'utf8');
    const bundle = JSON.parse(bundleText);
    if (existsSync(baselineFile)) {
      const baselineText = readFileSync(baselineFile, 'utf8');
      if (baselineText === bundleText) {
        process.stdout.write(
          `${shown(baselineFile)} is already ${shown(bundleFile)} (info.version ${bundle.info?.version}).\n`,
        );
        return 0;
      }
      const report = compareContracts(JSON.parse(baselineText), bundle);
      if (report.breaking && !options.force) {
        process.stdout.write(
          `${formatHuman(report, { baseline: shown(baselineFile), current: shown(bundleFile) })}\n\n`,
        );
        process.stderr.write(
          'update-baseline: refusing to release breaking changes under the same major version (bump info.version, or pass --force).\n',
        );
        return 1;
      }
    } else {
      // Still validate it as a contract, so that a broken file never becomes the baseline.
      compareContracts(bundle, bundle);
    }
    mkdirSync(dirname(baselineFile), { recursive: true });
    copyFileSync(bundleFile, baselineFile);
    process.stdout.write(
      `Recorded ${shown(bundleFile)} (info.version ${bundle.info?.version}) as the released contract in ${shown(baselineFile)}; commit it with the release.\n`,
    );
    return 0;
  } catch (error) {
    const known =
      error instanceof ContractError ||
      error instanceof SyntaxError ||
      /** @type {NodeJS.ErrnoException} */ (error).code;
    process.stderr.write(
      `update-baseline: ${known ? /** @type {Error} */ (error).message : /** @type {Error} */ (error).stack}\n`,
    );
    return 2;
  }
}

// `pnpm <script> -- --flag` passes the "--" through; it separates nothing here.
/** @param {string[]} args */
const withoutSeparator = (args) => (args[0] === '--' ? args.slice(1) : args);
process.exitCode = main(withoutSeparator(process.argv.slice(2)));
