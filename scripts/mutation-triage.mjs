// The triage of the mutation run's survivors: packages/contract/mutation/triage/*.json read against
// the results of the last run that are committed beside it (stryker-incremental.json, Stryker's own
// report format). Every mutant the suite did not detect has exactly one entry, keyed by the
// mutant's identity (file, place, mutator, replacement), saying why it lives; an entry whose mutant
// is gone (the code moved, or the suite now kills it) is stale and must be updated. Used by
// `pnpm mutation` (the count of each kind) and by the contract's tests (which fail on any problem).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const MUTATION_DIR = join(root, 'packages/contract/mutation');
export const RESULTS_FILE = join(MUTATION_DIR, 'stryker-incremental.json');
export const TRIAGE_DIR = join(MUTATION_DIR, 'triage');

/**
 * What an entry may say of a mutant: `killed-by` a check (the suite detects it now), or why it
 * survives: `equivalent` (no answer differs), `not-observable` (the difference cannot be seen
 * through the API), `open` (the description leaves the point open) or `sandbox-own` (behaviour the
 * sandbox chose where the description is silent, named in its README). And `gap`, said plainly:
 * the description states it and the API shows it, but no check detects it yet (`why` says what
 * the check must do); the suite's aim is none of those.
 */
export const KINDS = ['killed-by', 'equivalent', 'not-observable', 'open', 'sandbox-own', 'gap'];

/**
 * What a `killed-by` entry names when no check failed but the run did, on its skip gate: the mutant
 * left a check without what it needs (a teammate to mention, a search text), and a run that skips
 * fails (`--max-skipped`, 0 by default). The mutation test's message carries the run's errors.
 */
export const SKIP_GATE = '--max-skipped';

/** Statuses Stryker gives a mutant the suite detected. */
const DETECTED = new Set(['Killed', 'Timeout']);
/** Statuses of a mutant the suite let through: each needs an entry. */
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

/** A mutant's identity: where it is, what Stryker did there. Stable while the code around it is. */
export function mutantKey(file, place, mutator, replacement) {
  return `${file}:${place} ${mutator} ${JSON.stringify(replacement ?? '')}`;
}

export function placeOf(location) {
  const { start, end } = location;
  return `${start.line}:${start.column}-${end.line}:${end.column}`;
}

/** Every mutant of a Stryker report, with its identity. */
export function mutantsOf(results) {
  return Object.entries(results.files).flatMap(([file, { mutants }]) =>
    mutants.map((mutant) => ({
      key: mutantKey(file, placeOf(mutant.location), mutant.mutatorName, mutant.replacement),
      file,
      mutant,
    })),
  );
}

export function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/**
 * The triage, one file per area of the code (so that areas are triaged and reviewed apart): the
 * entries of every file, each `reason` read in its own file's `reasons`.
 */
export function readTriage(dir = TRIAGE_DIR) {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort();
  const mutants = files.flatMap((name) => {
    const { reasons = {}, mutants: entries = [] } = readJson(join(dir, name));
    return entries.map((entry) => ({ ...entry, why: entry.why ?? reasons[entry.reason], triageFile: name }));
  });
  return { mutants };
}

/** What an entry of a given kind must say, beside the mutant's identity. */
function entryProblems(entry, known) {
  const problems = [];
  if (!KINDS.includes(entry.kind)) problems.push(`kind "${entry.kind}" is none of ${KINDS.join(', ')}`);
  if (entry.kind === 'killed-by') {
    if (!entry.check) problems.push('killed-by names no check');
    else if (known.checkIds && entry.check !== SKIP_GATE && !known.checkIds.has(entry.check))
      problems.push(`no check ${entry.check} exists`);
    return problems;
  }
  const why = entry.why ?? known.reasons?.[entry.reason];
  if (typeof why !== 'string' || why.trim() === '') problems.push('says no why (nor a reason of the file)');
  if (entry.kind === 'open' && !(entry.marker && entry.control))
    problems.push('open names no marker of the spec and control of the other reading');
  if (entry.kind === 'open' && entry.marker && known.bundleText && !known.bundleText.includes(entry.marker))
    problems.push(`marker ${entry.marker} is not in the bundled spec`);
  if (entry.kind === 'sandbox-own' && !(entry.readme && known.sandboxReadme?.includes(entry.readme)))
    problems.push(`sandbox-own: the sandbox README does not name "${entry.readme ?? ''}"`);
  return problems;
}

/** How an entry's mutant ended against what the entry says of it. */
function statusProblems(entry, mutant) {
  if (entry.kind === 'killed-by') {
    if (!DETECTED.has(mutant.status)) return [`says killed-by ${entry.check}, but the mutant is ${mutant.status}`];
    const reason = mutant.statusReason ?? '';
    // Stryker's hit limit (its guard against endless loops) can stop a run before any check
    // speaks; the mutant is detected either way, so it does not contradict the check named.
    if (reason && !reason.includes(entry.check) && !reason.startsWith('Hit limit reached'))
      return [`says killed-by ${entry.check}, but the run failed on: ${reason.slice(0, 200)}`];
    return [];
  }
  if (!UNDETECTED.has(mutant.status))
    return [`says ${entry.kind}, but the suite detects it now (${mutant.status}): make it killed-by`];
  return [];
}

/**
 * The triage read against the results. `known` gives what entries are checked against: the
 * catalogue's check ids, the bundle's text (open markers), the sandbox README (sandbox-own names).
 * Returns the problems (none when every survivor is accounted for) and the count of each kind.
 */
export function checkTriage(results, triage, known = {}) {
  const context = { reasons: triage.reasons, ...known };
  const mutants = new Map(mutantsOf(results).map((found) => [found.key, found]));
  const problems = [];
  const entered = new Set();
  const counts = Object.fromEntries(KINDS.map((kind) => [kind, 0]));
  for (const entry of triage.mutants ?? []) {
    const key = mutantKey(entry.file, entry.at, entry.mutator, entry.replacement);
    const own = (message) => problems.push(`${key}: ${message}`);
    if (entered.has(key)) own('has two entries');
    entered.add(key);
    for (const message of entryProblems(entry, context)) own(message);
    const found = mutants.get(key);
    if (!found) {
      own('no mutant of the last run has this identity (the code changed, or the entry is wrong)');
      continue;
    }
    for (const message of statusProblems(entry, found.mutant)) own(message);
    if (KINDS.includes(entry.kind)) counts[entry.kind] += 1;
  }
  const untriaged = [...mutants.values()].filter(
    ({ key, mutant }) => UNDETECTED.has(mutant.status) && !entered.has(key),
  );
  for (const { key, mutant } of untriaged) problems.push(`${key}: ${mutant.status} with no entry in the triage`);
  return { problems, counts, untriaged: untriaged.length };
}
