// svc-contract replay of a per-exchange check's failure on a request a rule sent itself (the
// failure's `madeBy`): a rule that changes data is run again alone and the check judged on the
// answers of that run (its outcomes on the failure's operation), once for every failure it made;
// a rule that only reads, and a report written before `madeBy`, have their one request sent again.
// The runner is handed in, so what replay asks of it and makes of its answer is seen here; the
// mutants (mutants-gaps.test.ts) replay such failures against servers.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { replayFailures } from '../src/replay/replay.js';
import type { CheckAgain, CheckRunAgain } from '../src/replay/rerun.js';
import { scriptExpectation } from '../src/report/export-failures.js';
import type { Failure } from '../src/report/shape.js';
import { runReplay } from '../src/run.js';
import { loadSpec } from '../src/spec.js';
import type { CheckOutcome } from '../src/types.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const BASE = 'http://127.0.0.1:9';
const RULE = { check: 'threads.duplicate', operationId: 'createThread', writes: true };

function reportFile(failures: Failure[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-contract-replay-sequence-'));
  dirs.push(dir);
  const file = join(dir, 'report.json');
  writeFileSync(file, JSON.stringify({ target: { baseUrl: BASE, embedded: false }, profile: 'full', failures }));
  return file;
}

/** A per-exchange check's failure on the 409 of the rule's second create. */
const onConflict = (check: string, madeBy: Failure['madeBy'] = RULE): Failure => ({
  check,
  operationId: 'createThread',
  message: `POST /v2/api/threads → 409: ${check} found a problem`,
  status: 409,
  responseBody: '{"error":{"code":"THREAD_ALREADY_EXISTS","message":""}}',
  request: { method: 'POST', url: `${BASE}/v2/api/threads`, headers: {}, body: '{"entity_id":"c_1"}' },
  expected: { judge: 'exchange' },
  ...(madeBy ? { madeBy } : {}),
});

const outcome = (check: string, status: CheckOutcome['status'], extra: Partial<CheckOutcome> = {}): CheckOutcome => ({
  check,
  operationId: 'createThread',
  status,
  ...extra,
});

/** A runner that records what it was asked and answers `run`. */
function runner(run: CheckRunAgain) {
  const asked: CheckAgain[] = [];
  return {
    asked,
    runAgain: async (again: CheckAgain) => {
      asked.push(again);
      return run;
    },
  };
}

describe("a per-exchange check's failure on a request a rule that changes data sent", () => {
  it('runs that rule again alone, once for all its failures, and judges each check on its answers there', async () => {
    const file = reportFile([onConflict('response.error-message'), onConflict('response.error-fields')]);
    const { asked, runAgain } = runner({
      outcomes: [
        outcome('threads.duplicate', 'passed'),
        outcome('response.error-message', 'failed', { detail: 'error.message is "": blank', exchange: 7 }),
        outcome('response.error-fields', 'passed', { count: 3 }),
        // Another operation's answers (fixtures found again) are not the failure's.
        { check: 'response.error-message', operationId: 'listTags', status: 'passed' },
      ],
      exchanges: [
        {
          seq: 7,
          operationId: 'createThread',
          method: 'POST',
          url: `${BASE}/v2/api/threads`,
          headers: {},
          status: 409,
          responseBody: '{"error":{"code":"THREAD_ALREADY_EXISTS","message":""}}',
          durationMs: 1,
        },
      ],
    });
    const result = await replayFailures({ inputs: [file], allowWrites: true, env: {}, print: false }, runAgain);
    expect(asked.map((a) => [a.check, a.operationId, a.allowWrites])).toEqual([
      ['threads.duplicate', 'createThread', true],
    ]);
    const rule = 'threads.duplicate on createThread';
    expect(result.results).toEqual([
      expect.objectContaining({
        check: 'response.error-message',
        outcome: 'still fails',
        again: 'sequence',
        rule,
        after: { status: 409, code: 'THREAD_ALREADY_EXISTS' },
        problems: ['error.message is "": blank'],
      }),
      expect.objectContaining({ check: 'response.error-fields', outcome: 'passes', again: 'sequence', rule }),
    ]);
    expect(result.exitCode).toBe(1);
    // Before and after side by side, the rule that was run again named.
    expect(result.text).toContain(
      'STILL FAILS  response.error-message on createThread: POST /v2/api/threads (sent by threads.duplicate on createThread, run again alone)',
    );
    expect(result.text).toMatch(/ {4}after {2}rule run again +the check passes on the answers of its rule run again\n/);
  });

  it('is not replayed where the rule run again never judged the check there, saying why', async () => {
    const file = reportFile([onConflict('response.error-message')]);
    const skipped = runner({
      outcomes: [outcome('threads.duplicate', 'skipped', { detail: 'no item with a thread is known' })],
      exchanges: [],
    });
    const notMet = runner({ outcomes: [outcome('threads.duplicate', 'passed')], exchanges: [] });
    const options = { inputs: [file], allowWrites: true, env: {}, print: false };
    expect((await replayFailures(options, skipped.runAgain)).results[0]).toMatchObject({
      outcome: 'not replayed',
      reason: 'its rule threads.duplicate, run again, was skipped: no item with a thread is known',
    });
    const unmet = await replayFailures(options, notMet.runAgain);
    expect(unmet.results[0]).toMatchObject({
      outcome: 'not replayed',
      reason:
        'its rule threads.duplicate, run again, got no answer from createThread for response.error-message to judge',
    });
    expect(unmet.exitCode).toBe(1);
  });

  it('runs nothing without --allow-writes (the rule changes data), as a run would not', async () => {
    const file = reportFile([onConflict('response.error-message')]);
    const held = await runReplay({ inputs: [file], env: {}, print: false });
    expect(held.results[0]).toMatchObject({
      outcome: 'not replayed',
      again: 'sequence',
      reason: 'changes data: replay with --allow-writes',
    });
    expect(held.exitCode).toBe(1);
  });

  it('is no script a shell runs: --export-failures lists it for replay, with the rule', () => {
    const failure = onConflict('response.error-code');
    expect(scriptExpectation(loadSpec(), failure, BASE)).toEqual({
      why: expect.stringMatching(/^its request was one of the sequence of threads\.duplicate, which changes data/),
    });
    // Without the rule (a report before madeBy), the status and code are scripted as before.
    const { madeBy: _, ...plain } = failure;
    expect(scriptExpectation(loadSpec(), plain, BASE)).toMatchObject({ judge: 'exchange' });
  });
});

describe('a request no rule that changes data sent: its one request sent again, as before', () => {
  it('a rule that only reads, and a report written before madeBy, never run a rule again', async () => {
    const readOnly = { ...onConflict('response.error-message', { check: 'reads.every-fixture', operationId: 'x' }) };
    const older = onConflict('response.error-message', undefined);
    const file = reportFile([
      { ...readOnly, operationId: 'listTags', request: { method: 'GET', url: `${BASE}/v2/api/tags`, headers: {} } },
      { ...older, operationId: 'listTags', request: { method: 'GET', url: `${BASE}/v2/api/tags`, headers: {} } },
    ]);
    const { asked, runAgain } = runner({ notRun: 'never asked' });
    const result = await replayFailures({ inputs: [file], env: {}, timeoutMs: 2000, print: false }, runAgain);
    expect(asked).toEqual([]);
    // Each sent again (nothing listens there: no answer came), as a request no rule sent; with no
    // answer there is nothing to judge, so it is not replayed (never "passes"), and the exit says so.
    for (const r of result.results) {
      expect(r.again).toBeUndefined();
      expect(r.request).toBe('GET /v2/api/tags');
      expect(r.after?.error).toEqual(expect.any(String));
      expect(r.outcome).toBe('not replayed');
      expect(r.reason).toMatch(/^no answer came/);
    }
    expect(result.exitCode).toBe(1);
  });
});
