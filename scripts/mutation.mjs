#!/usr/bin/env node
// `pnpm mutation`: Stryker over the reference server's behaviour code (stryker.config.mjs), the
// contract suite as its test (packages/contract/mutation/). Arguments go to `stryker run` as they
// are (`--mutate packages/sandbox/src/handlers/threads.ts` for one file). Then: the run bits that
// Stryker's in-place mode drops are put back, and the score is printed per file from its JSON report.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const REPORT = join(root, 'reports/mutation/mutation.json');
const BINS = [
  'packages/contract/bin/svc-contract.js',
  'packages/sandbox/bin/svc-sandbox.js',
  'apps/mock/bin/svc-mock.js',
];

/** Stryker writes each mutated file back whole, without its mode: restore the run bit of every bin. */
function restoreRunBits() {
  for (const bin of BINS) {
    const path = join(root, bin);
    if (existsSync(path)) chmodSync(path, statSync(path).mode | 0o111);
  }
}

/** Killed and timed-out mutants count as detected; survivors and uncovered ones as not. */
function tally(mutants) {
  const count = (status) => mutants.filter((mutant) => mutant.status === status).length;
  const detected = count('Killed') + count('Timeout');
  const missed = count('Survived') + count('NoCoverage');
  return { detected, missed, score: detected + missed === 0 ? 100 : (100 * detected) / (detected + missed) };
}

function printScore() {
  if (!existsSync(REPORT)) return;
  const files = Object.entries(JSON.parse(readFileSync(REPORT, 'utf8')).files);
  const rows = files.map(([file, { mutants }]) => ({ file, ...tally(mutants) }));
  const all = tally(files.flatMap(([, { mutants }]) => mutants));
  for (const row of rows)
    console.log(`${row.score.toFixed(1).padStart(6)} %  ${row.detected}/${row.detected + row.missed}  ${row.file}`);
  console.log(
    `${all.score.toFixed(1).padStart(6)} %  ${all.detected}/${all.detected + all.missed}  mutation score, all files`,
  );
}

const stryker = spawnSync('pnpm', ['exec', 'stryker', 'run', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
restoreRunBits();
printScore();
process.exit(stryker.status ?? 1);
