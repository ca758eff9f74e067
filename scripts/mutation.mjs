#!/usr/bin/env node
// `pnpm mutation`: Stryker over the reference server's behaviour code (stryker.config.mjs), the
// contract suite as its test (packages/contract/mutation/). Arguments go to `stryker run` as they
// are (`--mutate packages/sandbox/src/handlers/threads.ts` for one file). Then: the run bits that
// Stryker's in-place mode drops are put back, the score is printed per file from its JSON report,
// and the triage of the survivors (mutation-triage.mjs) is counted by kind.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkTriage, MUTATION_DIR, RESULTS_FILE, readJson, readTriage } from './mutation-triage.mjs';

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

/** What the test of every mutant is made of: the suite's code, its contract, the mutation test itself. */
const SUITE_PARTS = [
  'packages/contract/src',
  'packages/spec-runtime/src',
  'spec/components',
  'spec/info',
  'spec/openapi.yaml',
];
const SUITE_FILES = [
  'packages/contract/mutation/suite.mutation.ts',
  'packages/contract/mutation/contract-host.ts',
  'packages/contract/mutation/vitest.config.ts',
];
const FINGERPRINT_FILE = join(MUTATION_DIR, 'suite-fingerprint.txt');

function suiteFingerprint() {
  const files = SUITE_PARTS.flatMap((part) => {
    const path = join(root, part);
    if (statSync(path).isFile()) return [part];
    return readdirSync(path, { recursive: true })
      .map((name) => join(part, String(name)))
      .filter((name) => statSync(join(root, name)).isFile());
  });
  const hash = createHash('sha256');
  for (const file of [...files, ...SUITE_FILES].sort())
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(root, file)));
  return hash.digest('hex');
}

/**
 * Stryker's incremental mode retests a mutant when its code or its test changed, and the test here
 * is one file that runs the whole suite: it never changes when a check is added. So when the suite
 * changed since the committed results, the mutants it did not detect are dropped from them and
 * Stryker tests those again (the detected ones stay detected; `--force` retests every mutant).
 */
function retestUndetectedWhenTheSuiteChanged(fingerprint) {
  if (!existsSync(RESULTS_FILE)) return;
  const before = existsSync(FINGERPRINT_FILE) ? readFileSync(FINGERPRINT_FILE, 'utf8').trim() : '';
  if (before === fingerprint) return;
  const results = readJson(RESULTS_FILE);
  let dropped = 0;
  for (const file of Object.values(results.files)) {
    const kept = file.mutants.filter((mutant) => mutant.status === 'Killed' || mutant.status === 'Timeout');
    dropped += file.mutants.length - kept.length;
    file.mutants = kept;
  }
  writeFileSync(RESULTS_FILE, JSON.stringify(results));
  console.log(`The suite changed since the last run: its ${dropped} undetected mutants are tested again.`);
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

/** The triage's count of each kind, and what it does not account for (the contract's tests fail on it). */
function printTriage() {
  if (!existsSync(RESULTS_FILE)) return;
  // Read against what the contract's test reads it against (the bundle for open markers, the
  // sandbox README for sandbox-own names), so that the count is the test's.
  const known = {
    bundleText: readFileSync(join(root, 'spec/dist/openapi.json'), 'utf8'),
    sandboxReadme: readFileSync(join(root, 'packages/sandbox/README.md'), 'utf8'),
  };
  const { counts, problems, untriaged } = checkTriage(readJson(RESULTS_FILE), readTriage(), known);
  const kinds = Object.entries(counts).map(([kind, count]) => `${count} ${kind}`);
  console.log(`triage: ${kinds.join(', ')}; ${untriaged} survivors with no entry, ${problems.length} problems in all`);
  for (const problem of problems.slice(0, 20)) console.log(`  ${problem}`);
}

const fingerprint = suiteFingerprint();
retestUndetectedWhenTheSuiteChanged(fingerprint);
const stryker = spawnSync('pnpm', ['exec', 'stryker', 'run', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
restoreRunBits();
if (stryker.status === 0) writeFileSync(FINGERPRINT_FILE, `${fingerprint}\n`);
printScore();
printTriage();
process.exit(stryker.status ?? 1);
