// The rule model's pure parts on their own: the problem builders and the replay rules, judged
// from answers built by hand (what a server might send), with the exact problems each yields.
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../src/http/exchange.js';
import * as harness from '../src/rules/harness.js';
import { CheckContext, statefulWrite } from '../src/rules/harness.js';
import { unwalkedLines, type Walks } from '../src/rules/lists-walk.js';
import { errorsOf, isSuccess, statusIs, unless } from '../src/rules/problems.js';
import { replayProblems, unpromisedRepeatProblems, unpromisedRepeatsHeld } from '../src/rules/support.js';
import type { Session } from '../src/session.js';
import { loadSpec } from '../src/spec.js';

const spec = loadSpec();
const REPLAYED = spec.idempotencyReplayedHeader;
let seq = 0;

function answer(status: number, body: unknown, headers: Record<string, string> = {}): Exchange {
  return {
    seq: ++seq,
    request: { method: 'POST', path: '/v2/api/threads/cth-1/comments' },
    url: 'http://h',
    operation: undefined,
    status,
    headers: new Headers(headers),
    text: JSON.stringify(body),
    body,
    durationMs: 1,
  } as unknown as Exchange;
}

describe('problem builders', () => {
  it('unless yields nothing when the condition holds, one problem at the exchange otherwise', () => {
    const x = answer(200, {});
    expect(unless(true, 'never', x)).toEqual([]);
    expect(unless(false, 'the name did not change', x)).toEqual([{ message: 'the name did not change', exchange: x }]);
    expect(unless(false, 'no queue')).toEqual([{ message: 'no queue' }]);
  });

  it('errorsOf and statusIs name what was sent and what came', () => {
    const refused = answer(200, { data: {} });
    expect(errorsOf(refused, { status: 422, codes: ['VALIDATION_ERROR'], why: 'blank' }, 'a blank label')).toEqual([
      {
        message: 'a blank label: expected 422 VALIDATION_ERROR (blank), got 200',
        exchange: refused,
        // The answer expected, carried to the report for a replay or a script to judge a new one by.
        expected: { judge: 'answer', answers: [{ status: 422, codes: ['VALIDATION_ERROR'] }] },
      },
    ]);
    const error = answer(404, { error: { code: 'NOT_FOUND' } });
    // A predicate of its own is no answer said in data: the rule judged a state.
    expect(statusIs(error, (s) => s < 300, 'a label of 1 characters is inside the limit')).toEqual([
      { message: 'a label of 1 characters is inside the limit: got 404 NOT_FOUND', exchange: error },
    ]);
    expect(statusIs(error, isSuccess, 'a label of 1 characters is inside the limit')).toEqual([
      {
        message: 'a label of 1 characters is inside the limit: got 404 NOT_FOUND',
        exchange: error,
        expected: { judge: 'answer', success: true },
      },
    ]);
    expect(statusIs(answer(201, {}), (s) => s < 300, 'x')).toEqual([]);
  });
});

describe('replays', () => {
  const first = answer(201, { data: { id: 'thc-1' } });
  const stored = () => answer(201, { data: { id: 'thc-1' } }, { [REPLAYED]: 'true' });
  // Repeats sent with no request id of their own: only what the stored response says is judged.
  const requestIds = { header: 'x-request-id', sent: [] };

  it('passes three repeats that are the stored response marked replayed', () => {
    expect(
      replayProblems({ what: 'a keyed comment', first, again: [stored(), stored(), stored()], requestIds }, REPLAYED),
    ).toEqual([]);
  });

  it('names a repeat executed again, and a keyed write that failed', () => {
    const executed = answer(201, { data: { id: 'thc-2' } });
    expect(
      replayProblems(
        { what: 'a keyed comment', first, again: [stored(), executed, stored()], requestIds },
        REPLAYED,
      ).map((p) => p.message),
    ).toEqual([
      `a keyed comment, repeat 2 of the key: expected the stored 201 with ${REPLAYED}: true, got ${REPLAYED}: null; a body unlike the stored one at data.id: "thc-2" (stored: "thc-1")`,
    ]);
    const failed = answer(500, {});
    expect(replayProblems({ what: 'a keyed comment', first: failed, again: [], requestIds }, REPLAYED)).toEqual([
      { message: 'a keyed comment with an Idempotency-Key: expected 2xx, got 500', exchange: failed },
    ]);
  });

  it('names where a replay marked replayed first departs from the stored body', () => {
    const grown = answer(
      201,
      { data: { id: 'thc-1', comments: [{ id: 'a' }, { id: 'b', count: 3 }] } },
      { [REPLAYED]: 'true' },
    );
    const storedFirst = answer(201, { data: { id: 'thc-1', comments: [{ id: 'a' }, { id: 'b', count: 2 }] } });
    expect(
      replayProblems({ what: 'a keyed comment', first: storedFirst, again: [grown], requestIds }, REPLAYED).map(
        (p) => p.message,
      ),
    ).toEqual([
      `a keyed comment, repeat 1 of the key: expected the stored 201 with ${REPLAYED}: true, got a body unlike the stored one at data.comments[1].count: 3 (stored: 2)`,
    ]);
  });

  it("names a replay answering the replayed request's id, not the one it was sent with", () => {
    const echoing = (id: string) => answer(201, { data: { id: 'thc-1' } }, { [REPLAYED]: 'true', 'x-request-id': id });
    const sent = { header: 'x-request-id', sent: ['k-repeat-1', 'k-repeat-2'] };
    const again = [echoing('k-repeat-1'), echoing('req_FirstRequest')];
    expect(
      replayProblems({ what: 'a keyed comment', first, again, requestIds: sent }, REPLAYED).map((p) => p.message),
    ).toEqual([
      'a keyed comment, repeat 2 of the key, sent with x-request-id k-repeat-2: answered "req_FirstRequest" (the request id of the request replayed, not its own)',
    ]);
    expect(
      unpromisedRepeatProblems({ what: 'a keyed comment', first, again, requestIds: sent }, REPLAYED),
    ).toHaveLength(1);
  });

  it('where replay is not promised, accepts either reading and says which this server chose', () => {
    const repeats = { what: 'PATCH an empty update', first, again: [stored(), answer(200, {}), stored()], requestIds };
    expect(unpromisedRepeatProblems(repeats, REPLAYED)).toEqual([]);
    expect(unpromisedRepeatsHeld(repeats, REPLAYED, 'PATCH').detail).toBe(
      'PATCH an empty update: 3 repeats (this server: replayed, executed again)',
    );
    const wrong = answer(200, { other: true }, { [REPLAYED]: 'true' });
    expect(unpromisedRepeatProblems({ ...repeats, again: [wrong] }, REPLAYED).map((p) => p.message)).toEqual([
      `PATCH an empty update, repeat 1 of the key says ${REPLAYED}: true but is not the stored 201: got 200 {"other":true}`,
    ]);
  });
});

describe('a scenario written as a rule', () => {
  it('belongs to its operation and resource, writes and needs a stateful server', () => {
    expect(statefulWrite('updateCustomField', 'option labels')).toEqual({
      operationId: 'updateCustomField',
      resource: spec.resourceOf(spec.contract.operationsById.get('updateCustomField')!),
      variant: 'option labels',
      needs: { writes: true, stateful: true },
    });
    expect(() => statefulWrite('noSuchOperation')).toThrow('The contract has no operation noSuchOperation.');
  });
});

describe('one way to write a check', () => {
  it('the harness declares checks only through rule(): no scenario() or check() beside it', () => {
    expect(Object.keys(harness).sort()).toEqual([
      'CheckContext',
      'checkDescription',
      'contractOperation',
      'encodePath',
      'registeredChecks',
      'rule',
      'sentBy',
      'statefulWrite',
    ]);
  });

  it('checkDescription describes a check and registers none: only rule() does', () => {
    const before = harness.registeredChecks().length;
    const described = harness.checkDescription({ id: 'example.described-only', title: 't', source: 's' });
    expect(described.id).toBe('example.described-only');
    expect(harness.registeredChecks()).toHaveLength(before);
    expect(() => harness.checkDescription({ id: 'example.described-only', title: 'another', source: 's' })).toThrow(
      'The check example.described-only is described twice, differently.',
    );
  });

  it('a check context sends, reads fixtures and skips: it passes and fails nothing itself', () => {
    const own = Object.getOwnPropertyNames(CheckContext.prototype).sort();
    expect(own).toEqual([
      'call',
      'config',
      'constructor',
      'everSent',
      'fixtures',
      'once',
      'op',
      'send',
      'skip',
      'spec',
    ]);
  });

  it('a check context holds no route to the recorder: a check cannot record an outcome', () => {
    const recorder = {
      add: () => {
        throw new Error('a check recorded an outcome');
      },
      everSent: (operationId: string, input: string) => operationId === 'createThread' && input === 'body content',
    };
    const session = { spec, config: { only: [] }, recorder, memo: new Map() } as unknown as Session;
    const t = new CheckContext(session, 'conformance.success', 'createThread');
    // Neither the session nor its recorder is any property of the context, own or read through a getter.
    const reachable = [...Object.values(t), t.spec, t.config];
    expect(reachable).not.toContain(session);
    expect(reachable).not.toContain(recorder);
    expect(JSON.stringify(Object.keys(t))).not.toMatch(/session|recorder/);
    // What it may ask of the run still answers.
    expect(t.everSent('createThread', 'body content')).toBe(true);
    expect(t.everSent('createThread', 'body other')).toBe(false);
  });
});

describe('lists.walk on a line no key may use', () => {
  it('names the line as a pass beside whatever the walks found, not walked', () => {
    const walk = { size: 2, pages: [] };
    const walks: Walks = { small: walk, whole: walk, unwalked: ['svc_number=+15550100003'] };
    expect(unwalkedLines(walks)).toEqual([
      {
        detail:
          'svc_number=+15550100003: no key allowed on it (the run key is refused SVC_NUMBER_FORBIDDEN), not walked',
      },
    ]);
    expect(unwalkedLines({ small: walk, whole: walk })).toEqual([]);
  });
});
