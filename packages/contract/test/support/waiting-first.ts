// The test files that spend most of their time waiting (a whole run paced at the documented rates,
// the tarballs installed with npm) start first, so that the files that use the cores run beside
// their waits rather than after them. Vitest orders files by the durations of an earlier run where
// it has them; a fresh clone (CI) has none, and orders them by size, largest first, which starts
// these last. So are the two files that share out the mutants of support/mutants.ts: small files
// with the most work of any, started last they were the run's tail; they start next.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const WAITING = ['sandbox-config.test.ts', 'ci.test.ts', 'shared-key.test.ts', 'mutants-limits.test.ts'];
const HEAVIEST = ['mutants.test.ts', 'mutants-more.test.ts'];
const FIRST = [...WAITING, ...HEAVIEST];

const rank = (file: TestSpecification) => {
  const index = FIRST.findIndex((name) => file.moduleId.endsWith(`/test/${name}`));
  return index < 0 ? FIRST.length : index;
};

export class WaitingFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...(await super.sort(files))].sort((a, b) => rank(a) - rank(b));
  }
}
