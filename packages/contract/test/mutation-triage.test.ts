// Every mutant of the reference server the suite let through in the last mutation run (its results
// are committed: mutation/stryker-incremental.json) is accounted for in mutation/triage/*.json, and
// every entry there still names a mutant of that run, as it ended. See mutation/README.md.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script of the repository, shared with `pnpm mutation`; it has no types.
import * as triageModule from '../../../scripts/mutation-triage.mjs';
import { knownCheckIds } from '../src/catalogue.js';

interface TriageCheck {
  problems: string[];
  counts: Record<string, number>;
  untriaged: number;
}
const { checkTriage, readJson, readTriage, RESULTS_FILE } = triageModule as {
  checkTriage: (results: unknown, triage: unknown, known?: object) => TriageCheck;
  readJson: (path: string) => unknown;
  readTriage: () => unknown;
  RESULTS_FILE: string;
};

const known = {
  checkIds: new Set(knownCheckIds()),
  bundleText: readFileSync(createRequire(import.meta.url).resolve('@svc/openapi/openapi.json'), 'utf8'),
  sandboxReadme: readFileSync(new URL('../../sandbox/README.md', import.meta.url), 'utf8'),
};

/** A run's results of one file: a mutant per status given, at lines 1, 2, 3 … */
function results(statuses: Array<[string, string?]>) {
  const mutants = statuses.map(([status, statusReason], i) => ({
    id: String(i),
    mutatorName: 'BooleanLiteral',
    replacement: 'false',
    location: { start: { line: i + 1, column: 3 }, end: { line: i + 1, column: 7 } },
    status,
    ...(statusReason ? { statusReason } : {}),
  }));
  return { files: { 'packages/sandbox/src/handlers/tags.ts': { language: 'typescript', source: '', mutants } } };
}

const at = (line: number) => ({
  file: 'packages/sandbox/src/handlers/tags.ts',
  at: `${line}:3-${line}:7`,
  mutator: 'BooleanLiteral',
  replacement: 'false',
});

describe('the triage of the mutation run', () => {
  it('accounts for every surviving mutant of the committed run, with no stale entry', () => {
    const check = checkTriage(readJson(RESULTS_FILE), readTriage(), known);
    expect(check.problems).toEqual([]);
  });

  it('fails a survivor with no entry and an entry with no mutant', () => {
    const check = checkTriage(results([['Survived'], ['Killed']]), {
      mutants: [{ ...at(9), kind: 'equivalent', why: 'no answer differs' }],
    });
    expect(check.untriaged).toBe(1);
    expect(check.problems).toEqual([
      expect.stringContaining('no mutant of the last run has this identity'),
      expect.stringContaining('Survived with no entry in the triage'),
    ]);
  });

  it('wants killed-by on a killed mutant, by the check that failed, and a why on the others', () => {
    const run = results([['Killed', "failed: ['tags.delete-gone']"], ['Survived'], ['Killed', "failed: ['x.y']"]]);
    const check = checkTriage(
      run,
      {
        mutants: [
          { ...at(1), kind: 'killed-by', check: 'tags.delete-gone' },
          { ...at(2), kind: 'not-observable' },
          { ...at(3), kind: 'equivalent', why: 'same answer' },
        ],
      },
      { checkIds: new Set(['tags.delete-gone']) },
    );
    expect(check.problems).toEqual([
      expect.stringContaining('says no why'),
      expect.stringContaining('the suite detects it now (Killed): make it killed-by'),
    ]);
    expect(check.counts).toMatchObject({ 'killed-by': 1, 'not-observable': 1, equivalent: 1 });
  });

  it("takes a run stopped by Stryker's hit limit as no contradiction of the check a killed-by names", () => {
    const run = results([
      ['Timeout', 'Hit limit reached (1041/1000)'],
      ['Killed', "failed: ['x.y']"],
    ]);
    const check = checkTriage(
      run,
      {
        mutants: [
          { ...at(1), kind: 'killed-by', check: 'response.schema' },
          { ...at(2), kind: 'killed-by', check: 'response.schema' },
        ],
      },
      { checkIds: new Set(['response.schema']) },
    );
    expect(check.problems).toEqual([expect.stringContaining("but the run failed on: failed: ['x.y']")]);
  });

  it('wants open to name a marker of the spec and a control, sandbox-own a README section, a check that exists', () => {
    const run = results([['Survived'], ['NoCoverage'], ['Killed', "failed: ['tags.other']"]]);
    const check = checkTriage(
      run,
      {
        reasons: { own: 'the sandbox chose it' },
        mutants: [
          { ...at(1), kind: 'open', why: 'left open', marker: 'x-svc-nowhere' },
          { ...at(2), kind: 'sandbox-own', reason: 'own', readme: 'Not in the README' },
          { ...at(3), kind: 'killed-by', check: 'tags.unknown' },
        ],
      },
      { ...known, checkIds: new Set(['tags.other']) },
    );
    expect(check.problems).toEqual([
      expect.stringContaining('open names no marker of the spec and control'),
      expect.stringContaining('marker x-svc-nowhere is not in the bundled spec'),
      expect.stringContaining('the sandbox README does not name "Not in the README"'),
      expect.stringContaining('no check tags.unknown exists'),
      expect.stringContaining('but the run failed on'),
    ]);
  });
});
