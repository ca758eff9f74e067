// The vitest reporter of a run, in the main process: it collects what every test sends back in
// its meta, turns tests that broke without a verdict (and files that could not load) into errors,
// and prints progress operation by operation while the suite runs.
import type { Reporter, SerializedError, TestCase, TestModule, TestSuite } from 'vitest/node';
import type { TestRecord } from '../model.js';
import type { Redactor } from '../redact.js';

interface Tally {
  passed: number;
  failed: number;
  skipped: number;
}

export class Collector implements Reporter {
  readonly records: TestRecord[] = [];
  readonly errors: string[] = [];
  private readonly tallies = new Map<string, Tally>();
  private requests = 0;

  constructor(
    private readonly redact: Redactor,
    private readonly progress: ((line: string) => void) | undefined,
  ) {}

  onTestCaseResult(testCase: TestCase): void {
    const record = testCase.meta().svc;
    const result = testCase.result();
    if (record) {
      this.records.push(record);
      this.requests += record.requests;
      const suite = testCase.parent.type === 'suite' ? testCase.parent.name : testCase.module.moduleId;
      const tally = this.tallies.get(suite) ?? { passed: 0, failed: 0, skipped: 0 };
      const own = record.outcomes.filter((o) => o.check === testCase.name.split(' ')[0]);
      const failed = record.outcomes.some((o) => o.status === 'failed');
      tally[failed ? 'failed' : own.some((o) => o.status === 'skipped') ? 'skipped' : 'passed']++;
      this.tallies.set(suite, tally);
    } else if (result.state === 'failed') {
      // A test that failed before it could record anything (it should not happen): keep the error.
      this.errors.push(this.redact(`${testCase.fullName}: ${result.errors.map((e) => e.stack ?? e.message).join('\n')}`));
    }
  }

  onTestSuiteResult(testSuite: TestSuite): void {
    for (const e of testSuite.errors()) this.errors.push(this.redact(`${testSuite.fullName}: ${e.stack ?? e.message}`));
    const tally = this.tallies.get(testSuite.name);
    if (!tally || !this.progress) return;
    const mark = tally.failed ? '✘' : tally.passed ? '✔' : '○';
    const parts = [`${tally.passed} passed`, tally.failed ? `${tally.failed} failed` : '', tally.skipped ? `${tally.skipped} skipped` : ''].filter(Boolean);
    this.progress(`  ${mark} ${testSuite.name.padEnd(28)} ${parts.join(', ')}  (${this.requests} requests so far)`);
  }

  onTestModuleEnd(testModule: TestModule): void {
    for (const e of testModule.errors()) this.errors.push(this.redact(`${testModule.moduleId}: ${e.stack ?? e.message}`));
  }

  onTestRunEnd(_modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    for (const e of unhandledErrors) this.errors.push(this.redact(`unhandled: ${e.stack ?? e.message}`));
  }
}
