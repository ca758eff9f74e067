// The small modules on their own: redaction, curl, --only, options, the config
// file, the negative-input generator (its expectations come from spec-runtime), the response
// checks, the key choice of the scope check, and the report writers.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ConfigError, mergeConfigs, parseConfig } from '../src/config.js';
import { RateWindows } from '../src/exchange-checks/rate-windows.js';
import { responseOutcomes } from '../src/exchange-checks/response.js';
import { matchesOnly, unknownFilters } from '../src/filters.js';
import { MissingFixture } from '../src/fixtures.js';
import { negativeCases, phoneVariants } from '../src/generate/negatives.js';
import { WritesDisabledError } from '../src/http/client.js';
import type { Exchange } from '../src/http/exchange.js';
import { parseCli, parseRate, USAGE } from '../src/options.js';
import { createRedactor, withCaseSwapped } from '../src/redact.js';
import { resolveRequest } from '../src/replay/sent.js';
import { toCurl } from '../src/report/curl.js';
import { renderJunit } from '../src/report/junit.js';
import { buildReport } from '../src/report/model.js';
import { keysLackingScope } from '../src/rules/operation-checks.js';
import { loadSpec } from '../src/spec.js';
import { UsageError } from '../src/tool.js';
import type { SessionConfig, TestRecord } from '../src/types.js';
import {
  type CheckRun,
  CheckTally,
  closingOutcome,
  judgedOutcomes,
  nothingRan,
  ruleOutcomes,
  Skip,
  STATELESS_HINT,
  statelessHint,
  statusOf,
  unmetNeed,
} from '../src/verdict.js';
import { tagsExchange } from './support/exchanges.js';

const spec = loadSpec();
const op = (id: string) => spec.contract.operationsById.get(id)!;
const scopes = Object.keys(spec.contract.scopes);

describe('redaction', () => {
  it('replaces every key, longest first, with its placeholder', () => {
    const redact = createRedactor([
      { value: 'sbx_key', placeholder: '${SVC_API_KEY}' },
      { value: 'sbx_key_long', placeholder: '<redacted:other>' },
    ]);
    expect(redact('Api-Key sbx_key_long and Api-Key sbx_key')).toBe(
      'Api-Key <redacted:other> and Api-Key ${SVC_API_KEY}',
    );
  });

  it('replaces only the exact key token, never part of a word', () => {
    const redact = createRedactor([{ value: 'password1', placeholder: '${SVC_API_KEY}' }]);
    expect(redact('key password1, "password1"; password12 xpassword1')).toBe(
      'key ${SVC_API_KEY}, "${SVC_API_KEY}"; password12 xpassword1',
    );
  });

  it('replaces a key shorter than 8 characters only as the Authorization value', () => {
    const redact = createRedactor([{ value: 'any', placeholder: '${SVC_API_KEY}' }]);
    expect(redact('curl -H "Authorization: Api-Key any" any key, many, Api-Key anyway')).toBe(
      'curl -H "Authorization: Api-Key ${SVC_API_KEY}" any key, many, Api-Key anyway',
    );
  });

  it('never nests a placeholder, when a key is named after itself or its name holds another key', () => {
    const redact = createRedactor([
      { value: 'sbx_demo_trial', placeholder: '<redacted:sbx_demo_trial>' },
      { value: 'sbx_demo_revoked', placeholder: '<redacted:backup of sbx_demo_trial>' },
      { value: 'sbx_demo_full', placeholder: '${SVC_API_KEY}' },
    ]);
    const once = redact('Api-Key sbx_demo_trial, then sbx_demo_revoked and sbx_demo_full');
    expect(once).toBe('Api-Key <redacted:sbx_demo_trial>, then <redacted:backup of sbx_demo_trial> and ${SVC_API_KEY}');
    // The recorder's pass, then the report's values, then the file's: the same text each time.
    expect(redact(redact(once))).toBe(once);
    expect(redact(JSON.stringify({ message: once }))).toBe(JSON.stringify({ message: once }));
  });
});

describe('a key sent in another case (auth.unknown-key)', () => {
  const secrets = withCaseSwapped([{ value: 'sbx_Key_9', placeholder: '${SVC_API_KEY}' }]);

  it('is redacted too, by a shell expression that makes it from the key', () => {
    const redacted = createRedactor(secrets)('curl -H "Authorization: Api-Key SBX_kEY_9"');
    expect(redacted).toBe('curl -H "Authorization: Api-Key $(printf %s "${SVC_API_KEY}" | tr a-zA-Z A-Za-z)"');
    const made = execFileSync('/bin/sh', ['-c', `printf %s "${redacted.slice(redacted.indexOf('$('), -1)}"`], {
      env: { SVC_API_KEY: 'sbx_Key_9', PATH: process.env.PATH },
    });
    expect(made.toString()).toBe('SBX_kEY_9');
  });

  it('is filled in again by a replay, from the key in the environment', () => {
    const request = {
      seq: 1,
      method: 'GET',
      url: 'http://h/v2/api/tags',
      headers: { Authorization: 'Api-Key $(printf %s "${SVC_API_KEY}" | tr a-zA-Z A-Za-z)' },
      durationMs: 1,
    };
    expect(resolveRequest(request, 'http://h', 'http://h', { SVC_API_KEY: 'sbx_Key_9' })).toMatchObject({
      headers: { Authorization: 'Api-Key SBX_kEY_9' },
    });
  });
});

describe('curl reproduction', () => {
  it('leaves ${SVC_API_KEY} to the shell and quotes everything else safely', () => {
    const curl = toCurl({
      seq: 1,
      operationId: 'createThread',
      method: 'POST',
      url: 'http://h/v2/api/threads',
      headers: { Authorization: 'Api-Key ${SVC_API_KEY}', 'Content-Type': 'application/json' },
      body: `{"content":"it's $HOME"}`,
      durationMs: 1,
    });
    expect(curl).toBe(
      `curl -sS -i -X POST 'http://h/v2/api/threads' -H "Authorization: Api-Key \${SVC_API_KEY}" -H 'Content-Type: application/json' --data-raw '{"content":"it'\\''s $HOME"}'`,
    );
  });
});

describe('the verdict', () => {
  const check = { id: 'auth.missing-key', operationId: 'listTags', resource: 'tags', variant: 'GET' };
  const closing = (run: Partial<CheckRun>) => closingOutcome(check, { unmet: undefined, thrown: undefined, ...run });

  it('skips for the options, the contract, missing fixtures and refused writes, each with its kind', () => {
    const config = { burst: false, profile: 'mock', allowWrites: false } as SessionConfig;
    expect([
      unmetNeed({ burst: true }, config),
      unmetNeed({ keys: true }, config),
      unmetNeed({ writes: true }, { ...config, profile: 'full' }),
      unmetNeed({}, config),
    ]).toEqual([
      'opt-in: run with --burst',
      'profile mock: a stateless mock accepts any key, so this needs --profile full',
      'changes data: run with --allow-writes',
      undefined,
    ]);
    expect(closing({ unmet: 'opt-in: run with --burst' })).toMatchObject({
      check: 'auth.missing-key',
      status: 'skipped',
      skipKind: 'option',
    });
    expect(closing({ thrown: new Skip('nothing to check', 'n/a') })).toMatchObject({
      status: 'skipped',
      detail: 'nothing to check',
      skipKind: 'n/a',
    });
    expect(closing({ thrown: new MissingFixture('no fixture: a deal id') })).toMatchObject({
      status: 'skipped',
      skipKind: 'config',
    });
    expect(closing({ thrown: new WritesDisabledError({ method: 'POST', path: '/v2/api/threads' }) })).toMatchObject({
      status: 'skipped',
      skipKind: 'option',
      detail: expect.stringMatching(/^changes data: run with --allow-writes \(POST/),
    });
  });

  it('turns a crash into a failed suite.error naming the check, and leaves a clean run to its own outcomes', () => {
    expect(closing({ thrown: new TypeError('boom') })).toMatchObject({
      check: 'suite.error',
      operationId: 'listTags',
      status: 'failed',
      detail: expect.stringMatching(/^auth.missing-key \(GET\): TypeError: boom/),
    });
    // A rule that ran always records its outcomes (ruleOutcomes: a bare pass where nothing else passed).
    expect(closing({})).toBeUndefined();
    expect(ruleOutcomes('auth.missing-key', 'listTags', [])).toEqual([
      { check: 'auth.missing-key', operationId: 'listTags', status: 'passed' },
    ]);
  });

  it('counts one check on one operation once, however many problems it found, and a run in which no check ran', () => {
    const record = (outcomes: TestRecord['outcomes']): TestRecord => ({
      outcomes,
      exchanges: [],
      observations: [],
      requests: 1,
    });
    const responseFailed = record([
      { check: 'auth.missing-key', operationId: 'listTags', status: 'passed' },
      { check: 'response.schema', operationId: 'listTags', status: 'failed' },
    ]);
    const tally = new CheckTally();
    tally.add(responseFailed.outcomes);
    tally.add([
      { check: 'response.schema', operationId: 'listTags', status: 'failed' },
      { check: 'response.schema', operationId: 'listUsers', status: 'failed' },
      { check: 'auth.unknown-key', operationId: 'listUsers', status: 'skipped' },
    ]);
    // Three problems, two failed checks (response.schema on two operations): the unit of every count.
    expect(tally.counts()).toEqual({ passed: 1, failed: 2, skipped: 1 });
    expect(tally.counts('listTags')).toEqual({ passed: 1, failed: 1, skipped: 0 });
    expect(tally.failedKeys()).toEqual(['listTags response.schema', 'listUsers response.schema']);
    expect([
      statusOf({ passed: 3, failed: 1 }),
      statusOf({ passed: 1, failed: 0 }),
      statusOf({ passed: 0, failed: 0 }),
    ]).toEqual(['failed', 'passed', 'skipped']);
    expect(
      nothingRan([record([{ check: 'response.schema', operationId: 'listTags', status: 'passed' }])], ['nothing']),
    ).toBe('no check ran: --only nothing selects none');
    expect(nothingRan([responseFailed], [])).toBeUndefined();
  });

  it("turns a rule's problems into one failure each, pointing at their exchange, or into one pass", () => {
    expect(ruleOutcomes('conformance.success', 'listTags', [], 'seen')).toEqual([
      { check: 'conformance.success', operationId: 'listTags', status: 'passed', detail: 'seen' },
    ]);
    const expected = { judge: 'answer' as const, answers: [{ status: 404, codes: ['THREAD_NOT_FOUND'] }] };
    expect(
      ruleOutcomes('lists.walk', 'listTags', [
        { message: 'a gap', exchange: { seq: 7 } },
        { message: 'a duplicate' },
        { message: 'found', exchange: { seq: 8 }, expected },
      ]),
    ).toEqual([
      // A failure with an exchange carries what its check expected of it: the answer, or a state judged.
      {
        check: 'lists.walk',
        operationId: 'listTags',
        status: 'failed',
        detail: 'a gap',
        exchange: 7,
        expected: { judge: 'state' },
      },
      { check: 'lists.walk', operationId: 'listTags', status: 'failed', detail: 'a duplicate' },
      { check: 'lists.walk', operationId: 'listTags', status: 'failed', detail: 'found', exchange: 8, expected },
    ]);
  });

  it("records the cases of a rule that held beside the others' problems, and its summary pass only when clean", () => {
    const constraint = { id: 'body label maxLength 50', side: 'inside' } as const;
    const held = [{ detail: 'label of 50 characters', constraint }];
    expect(
      ruleOutcomes('boundary.inside', 'updateCustomField', [{ message: 'refused' }], { passed: 'all', held }),
    ).toEqual([
      { check: 'boundary.inside', operationId: 'updateCustomField', status: 'failed', detail: 'refused' },
      {
        check: 'boundary.inside',
        operationId: 'updateCustomField',
        status: 'passed',
        detail: 'label of 50 characters',
        constraint,
      },
    ]);
    expect(
      ruleOutcomes('auth.trial-plan', 'listTags', [], { passed: { detail: 'trial: 403', readings: '403 or 402' } }),
    ).toEqual([
      {
        check: 'auth.trial-plan',
        operationId: 'listTags',
        status: 'passed',
        detail: 'trial: 403',
        readings: '403 or 402',
      },
    ]);
    expect(ruleOutcomes('negative.pattern', 'listTags', [], { held: [] })).toEqual([
      { check: 'negative.pattern', operationId: 'listTags', status: 'passed' },
    ]);
  });

  it('reports a rule whose precondition never held as not exercised, never passed, unless it found a problem', () => {
    const check = { id: 'dialer-queues.partial-update', operationId: 'updateDialingQueue', resource: 'dialer-queues' };
    const held = [{ detail: 'name kept' }];
    const notExercised = judgedOutcomes(check, {
      problems: [],
      passed: 'name sent alone',
      held,
      notReached: 'do_not_disturb could not be set to ENABLED first',
    });
    expect(notExercised).toEqual([
      {
        check: 'dialer-queues.partial-update',
        operationId: 'updateDialingQueue',
        status: 'skipped',
        skipKind: 'precondition',
        detail: 'not exercised: do_not_disturb could not be set to ENABLED first',
      },
    ]);
    const tally = new CheckTally();
    tally.add(notExercised);
    expect(tally.counts()).toEqual({ passed: 0, failed: 0, skipped: 1 });
    // A problem fails the check whatever state it reached; the cases that held stay beside it.
    expect(
      judgedOutcomes(check, { problems: [{ message: 'the name was lost' }], held, notReached: 'never set' }).map(
        (o) => o.status,
      ),
    ).toEqual(['failed', 'passed']);
    // Reached: the rule's own verdict.
    expect(judgedOutcomes(check, { problems: [], passed: 'kept', held: [], notReached: undefined })).toEqual([
      { check: 'dialer-queues.partial-update', operationId: 'updateDialingQueue', status: 'passed', detail: 'kept' },
    ]);
  });

  it('hints at --profile mock when most failed checks are ones only a stateful server passes', () => {
    const failed = ['createThread threads.duplicate', 'getThread negative.unknown-id', 'listTags response.schema'];
    const stateful = new Set(failed.slice(0, 2));
    expect(statelessHint('full', failed, stateful)).toBe(
      `${STATELESS_HINT} (2 of the 3 failed checks need a server that keeps state or tells keys apart)`,
    );
    expect(statelessHint('full', failed, new Set(failed.slice(0, 1)))).toBeUndefined();
    expect(statelessHint('mock', failed, stateful)).toBeUndefined();
    expect(statelessHint('full', [], stateful)).toBeUndefined();
  });
});

describe('--only', () => {
  it('narrows by resource or operation and by check or group', () => {
    expect(matchesOnly(['threads'], 'threads', 'createThread', 'auth.missing-key')).toBe(true);
    expect(matchesOnly(['threads'], 'users', 'listUsers', 'auth.missing-key')).toBe(false);
    expect(matchesOnly(['createThread'], 'threads', 'createThread', 'threads.duplicate')).toBe(true);
    expect(matchesOnly(['auth'], 'users', 'listUsers', 'auth.missing-key')).toBe(true);
    expect(matchesOnly(['auth'], 'users', 'listUsers', 'negative.enum')).toBe(false);
    expect(matchesOnly(['users', 'negative'], 'users', 'getUser', 'negative.unknown-id')).toBe(true);
    expect(matchesOnly(['users', 'negative'], 'users', 'getUser', 'auth.missing-key')).toBe(false);
    expect(unknownFilters(spec, ['threads', 'createThread', 'idempotency', 'api-wide', 'nonsense'])).toEqual([
      'nonsense',
    ]);
  });
});

describe('options', () => {
  it('parses the command line', () => {
    const parsed = parseCli([
      '--base-url',
      'https://staging.example.com',
      '--only',
      'threads,users',
      '--only',
      'auth',
      '--reporter',
      'junit,json',
      '--rate',
      '10/2',
      '--allow-writes',
      '--profile',
      'mock',
    ]);
    expect(parsed).toMatchObject({
      kind: 'run',
      options: {
        baseUrl: 'https://staging.example.com',
        only: ['threads', 'users', 'auth'],
        reporters: ['junit', 'json'],
        rate: { readsPerSecond: 10, writesPerSecond: 2 },
        allowWrites: true,
        profile: 'mock',
      },
    });
    expect(parseCli(['-h'])).toEqual({ kind: 'help', usage: USAGE });
    expect(parseRate('off')).toBe('off');
    expect(parseRate('5')).toEqual({ readsPerSecond: 5, writesPerSecond: 5 });
    for (const bad of [
      ['--profile', 'x'],
      ['--reporter', 'html'],
      ['--rate', 'fast'],
      ['--timeout', '0'],
      ['--base-url', 'ftp://x'],
      ['--nope'],
    ])
      expect(() => parseCli(bad)).toThrow(UsageError);
    // The proxy's command line: the same whole-number rules, with its own bounds.
    expect(parseCli(['proxy', '--upstream', 'http://h', '--port', '0', '--timeout', '500'])).toMatchObject({
      kind: 'proxy',
      options: { port: 0, timeoutMs: 500 },
    });
    for (const bad of [['--port', '65536'], ['--port', '-1'], ['--port', '1.5'], ['--timeout', '0'], ['--nope']])
      expect(() => parseCli(['proxy', '--upstream', 'http://h', ...bad])).toThrow(UsageError);
    expect(() => parseCli(['--max-skipped', '1.5'])).toThrow(
      /--max-skipped must be a whole number \(0 or more\), got 1.5/,
    );
  });
});

describe('config file', () => {
  it('reads keys inline or from the environment, and fixtures', () => {
    const config = parseConfig(
      {
        keys: [
          { name: 'ro', key_env: 'RO_KEY', scopes: ['THREADS_READ'] },
          { key: 'inline', scopes: [] },
        ],
        fixtures: { deal_ids: ['dea-1'], threadless_item_ids: ['cll-1'], search_query: 'x' },
      },
      { RO_KEY: 'secret-ro' },
      scopes,
    );
    expect(config.keys).toEqual([
      { name: 'ro', key: 'secret-ro', scopes: ['THREADS_READ'], env: 'RO_KEY' },
      { name: 'key-2', key: 'inline', scopes: [] },
    ]);
    expect(config.fixtures).toEqual({ deal_ids: ['dea-1'], threadless_item_ids: ['cll-1'], search_query: 'x' });
  });
  it('reads the member a key belongs to (user_id), a non-empty string', () => {
    const keys = (user_id: unknown) =>
      parseConfig({ keys: [{ name: 'k', key: 'v', scopes: [], user_id }] }, {}, scopes).keys;
    expect(keys('usr-1')[0]?.user_id).toBe('usr-1');
    expect(keys(undefined)[0]).not.toHaveProperty('user_id');
    expect(() => keys('')).toThrow(/"user_id" names the member of the team the key belongs to/);
    expect(() => keys(7)).toThrow(ConfigError);
  });
  it('reads a declared person update, whose undo must put back every field it sets', () => {
    const person_update = { id: 'per-1', body: { name: 'B' }, undo: { name: 'A' }, search: { query: 'A' } };
    expect(parseConfig({ fixtures: { person_update } }, {}, scopes).fixtures.person_update).toEqual(person_update);
    const without = (fixture: Record<string, unknown>) => () =>
      parseConfig({ fixtures: { person_update: fixture } }, {}, scopes);
    expect(without({ id: 'per-1', body: { name: 'B', last_name: 'C' }, undo: { name: 'A' } })).toThrow(
      /"undo" must put back every field "body" sets \(missing: last_name\)/,
    );
    expect(without({ id: 'per-1', body: {}, undo: {} })).toThrow(/"body" is the update/);
    expect(without({ body: { name: 'B' }, undo: { name: 'A' } })).toThrow(/"id" names the person/);
    expect(without({ id: 'per-1', body: { name: 'B' }, undo: { name: 'A' }, extra: 1 })).toThrow(/"extra" is not one/);
  });
  it('refuses what it does not understand, naming the entry but never the key', () => {
    expect(() => parseConfig({ keys: [{ name: 'x', key: 'topsecret', scopes: ['NOPE'] }] }, {}, scopes)).toThrow(
      /unknown scope NOPE/,
    );
    expect(() => parseConfig({ keys: [{ name: 'x', key: 'topsecret', scopes: ['NOPE'] }] }, {}, scopes)).not.toThrow(
      /topsecret/,
    );
    expect(() => parseConfig({ keys: [{ name: 'x', key_env: 'MISSING', scopes: [] }] }, {}, scopes)).toThrow(
      ConfigError,
    );
    expect(() => parseConfig({ fixtures: { deals: [] } }, {}, scopes)).toThrow(/unknown fixture/);
    expect(() => parseConfig({ extra: 1 }, {}, scopes)).toThrow(/unknown field/);
    expect(() => parseConfig({ keys: [{ key: 'k', scopes: [], ids: ['cth-1'] }] }, {}, scopes)).toThrow(
      /"ids" belongs to a key of another team/,
    );
    expect(() => parseConfig({ keys: [{ key: 'k', scopes: [], kind: 'other-team', ids: [1] }] }, {}, scopes)).toThrow(
      /"ids" must list ids/,
    );
  });
  it("keeps the ids an other-team key names (another team's resources no list shows)", () => {
    const { keys } = parseConfig({ keys: [{ key: 'k', scopes: [], kind: 'other-team', ids: ['cth-1'] }] }, {}, scopes);
    expect(keys[0]).toMatchObject({ kind: 'other-team', ids: ['cth-1'] });
  });
  it('merges a config over another', () => {
    const merged = mergeConfigs(
      { keys: [{ name: 'a', key: 'a', scopes: [] }], fixtures: { deal_ids: ['dea-1'] } },
      { keys: [{ name: 'b', key: 'b', scopes: [] }], fixtures: { deal_ids: ['dea-2'] } },
    );
    expect(merged.keys.map((k) => k.name)).toEqual(['b', 'a']);
    expect(merged.fixtures.deal_ids).toEqual(['dea-2', 'dea-1']);
  });
});

describe('negative inputs', () => {
  const expectedOf = (id: string, baseline: Parameters<typeof negativeCases>[2]) =>
    Object.fromEntries(
      negativeCases(spec, op(id), baseline).map((c) => [c.label, `${c.expected.status} ${c.expected.codes.join('|')}`]),
    );

  it('takes page/size bounds and their code from the parameters', () => {
    expect(expectedOf('listConversations', {})).toMatchObject({
      'query page=0': '400 INVALID_PAGE_SIZE',
      'query size=101': '400 INVALID_PAGE_SIZE',
      'query size="ten"': '400 INVALID_PAGE_SIZE',
      'query search="!!!"': '400 INVALID_SEARCH_QUERY',
    });
  });
  it('breaks phone numbers three ways', () => {
    expect(phoneVariants('+14155550123')).toEqual(['14155550123', '+1 415 5550123', '+1-415-5550123']);
    const cases = negativeCases(spec, op('getReceptionist'), { params: { number: '+14155550100' } });
    expect(cases.filter((c) => c.kind === 'negative.phone-format').map((c) => c.expected.codes[0])).toEqual([
      'INVALID_PHONE_FORMAT',
      'INVALID_PHONE_FORMAT',
      'INVALID_PHONE_FORMAT',
    ]);
    expect(cases.find((c) => c.kind === 'negative.unknown-id')?.expected).toMatchObject({
      status: 404,
      codes: ['PHONE_NUMBER_NOT_FOUND'],
    });
  });
  it('derives body limits, required fields, enums and ids from the request schema', () => {
    const got = expectedOf('createThread', { body: { entity_type: 'CALL', entity_id: 'cll-1', content: 'hi' } });
    expect(got).toMatchObject({
      'body content of 4001 characters': '400 NOTE_CONTENT_TOO_LONG',
      'body content missing': '400 EMPTY_NOTE_CONTENT',
      'body entity_type=SVC_CONTRACT_NOT_IN_ENUM': '400 INVALID_THREAD_ENTITY_TYPE',
      'body entity_id=cll-0svcContract404': '404 CONVERSATION_ITEM_NOT_FOUND',
      'Content-Type: text/plain': '415 UNSUPPORTED_MEDIA_TYPE',
      'body {"svc_contract": (cut short), as application/json; charset=utf-8': '400 INVALID_REQUEST_BODY',
    });
    expect(expectedOf('batchGetConversationItems', { body: { ids: ['cll-1'] } })).toMatchObject({
      'body ids with 101 items': '400 BATCH_TOO_LARGE',
      'body ids[0]=zzz-0svcContract': '400 INVALID_ITEM_ID',
    });
    expect(
      expectedOf('updateReceptionist', { params: { number: '+14155550100' }, body: { name: 'Ava' } }),
    ).toMatchObject({ 'body svc_contract_unknown': '400 UNKNOWN_FIELD' });
  });
  it("expects the parameter's own 404 for unknown ids, and the API-wide one where none is listed", () => {
    expect(expectedOf('getConversationNote', { params: { id: 'not-1' } })).toMatchObject({
      'path id=not-0svcContract404': '404 NOTE_NOT_FOUND',
    });
    expect(expectedOf('getDeal', { params: { id: 'dea-1' } })).toMatchObject({
      'path id=dea-0svcContract404': '404 ENDPOINT_NOT_FOUND',
    });
  });
});

describe('response checks', () => {
  const exchange = tagsExchange;
  const good = {
    'Content-Type': 'application/json',
    'X-Request-Id': 'req_abcdefABCDEF',
    'X-RateLimit-Limit': '20',
    'X-RateLimit-Remaining': '19',
    'X-RateLimit-Reset': '1',
  };
  const failed = (e: Exchange) =>
    responseOutcomes(spec, e)
      .filter((o) => o.status === 'failed')
      .map((o) => o.check)
      .sort();
  const error = (code: string, type: string, extra: Record<string, unknown> = {}) => ({
    error: {
      type,
      code,
      message: 'm',
      retryable: false,
      request_id: 'req_abcdefABCDEF',
      doc_url: `https://docs.example.com/errors/${code}`,
      ...extra,
    },
  });

  it('names a missing rate-limit header once, whichever check saw it first (known by the header, not by text)', () => {
    const { 'X-RateLimit-Reset': _reset, ...noReset } = good;
    const detailOf = (e: Exchange) =>
      responseOutcomes(spec, e).find((o) => o.check === 'response.rate-limit-headers' && o.status === 'failed')
        ?.detail ?? '';
    // A documented status: the operation's own header check names it; the every-response check adds nothing.
    const documented = detailOf(exchange(200, noReset, { data: [] }));
    expect(documented.match(/X-RateLimit-Reset/g)).toHaveLength(1);
    expect(documented).toContain('required header X-RateLimit-Reset is missing');
    // A status the operation does not list: only the every-response check sees it.
    const undocumented = detailOf(exchange(418, noReset, undefined));
    expect(undocumented.match(/X-RateLimit-Reset/g)).toHaveLength(1);
    expect(undocumented).toContain('X-RateLimit-Reset is missing');
  });

  it('passes a conforming response', () => {
    expect(failed(exchange(200, good, { data: [] }))).toEqual([]);
    expect(failed(exchange(401, good, error('UNAUTHORIZED', 'authentication_error')))).toEqual([]);
  });
  it('names each deviation', () => {
    expect(failed(exchange(200, { ...good, 'X-Request-Id': 'req_x' }, { data: [] }))).toEqual(['response.request-id']);
    expect(
      failed(
        exchange(
          200,
          { ...good, 'X-Request-Id': 'mine' },
          { data: [] },
          { request: { method: 'GET', path: '/v2/api/tags', requestId: 'other' } },
        ),
      ),
    ).toEqual(['response.request-id']);
    const { 'X-RateLimit-Reset': _reset, ...noReset } = good;
    expect(failed(exchange(200, noReset, { data: [] }))).toEqual(['response.rate-limit-headers']);
    expect(failed(exchange(200, { ...good, 'X-RateLimit-Limit': 'many' }, { data: [] }))).toEqual([
      'response.rate-limit-headers',
    ]);
    const { 'Content-Type': _type, ...noType } = good;
    expect(failed(exchange(200, noType, { data: [] }))).toEqual(['response.content-type']);
    expect(failed(exchange(200, { ...good, 'Content-Type': 'text/html' }, { data: [] }))).toEqual([
      'response.content-type',
    ]);
    expect(failed(exchange(200, good, { items: [] }))).toEqual(['response.schema']);
    expect(failed(exchange(202, good, { data: [] }))).toEqual(['response.status-documented']);
    // No API-wide exception: an operation's answers are the statuses it lists (listTags has no 404).
    expect(failed(exchange(404, good, error('ENDPOINT_NOT_FOUND', 'not_found_error')))).toEqual([
      'response.status-documented',
    ]);
    // A method the path lacks is checked against the path's operations, which list 405.
    const wrongMethod = { request: { method: 'DELETE', path: '/v2/api/tags' }, operation: null };
    expect(failed(exchange(405, good, error('METHOD_NOT_ALLOWED', 'validation_error'), wrongMethod))).toEqual([]);
    expect(failed(exchange(405, good, error('INVALID_REQUEST', 'validation_error'), wrongMethod))).toEqual([
      'response.error-code',
      'response.schema',
    ]);
    expect(failed(exchange(500, good, error('INTERNAL_SERVER_ERROR', 'server_error', { retryable: true })))).toEqual([
      'response.no-5xx',
    ]);
    expect(failed(exchange(401, good, error('NOTE_NOT_FOUND', 'not_found_error')))).toContain('response.error-code');
    expect(failed(exchange(401, good, error('UNAUTHORIZED', 'permission_error')))).toContain('response.error-type');
    expect(
      failed(exchange(429, good, error('RATE_LIMIT_EXCEEDED', 'rate_limit_error', { retryable: true }))),
    ).toContain('response.retryable');
    expect(
      failed(exchange(429, good, error('RATE_LIMIT_EXCEEDED', 'rate_limit_error', { retry_after_seconds: 1 }))),
    ).toContain('response.retryable');
    expect(failed(exchange(0, {}, undefined, { error: 'ECONNREFUSED' }))).toEqual(['response.transport']);
  });
  it('checks the echo of an Idempotency-Key', () => {
    const sent = {
      request: { method: 'POST', path: '/v2/api/threads', idempotencyKey: 'k1' },
      operation: op('createThread'),
    };
    expect(failed(exchange(400, good, error('INVALID_REQUEST_BODY', 'validation_error'), sent))).toEqual([
      'response.idempotency-key-echo',
    ]);
    expect(
      failed(
        exchange(400, { ...good, 'Idempotency-Key': 'k1' }, error('INVALID_REQUEST_BODY', 'validation_error'), sent),
      ),
    ).toEqual([]);
  });
});

describe('rate-limit windows (passive)', () => {
  // Times are given, not measured: sentAt/receivedAt in ms.
  const at = (
    sentAt: number,
    headers: { limit?: string; remaining: string; reset: string },
    method = 'GET',
    auth?: Exchange['request']['auth'],
  ): Exchange => ({
    seq: sentAt,
    request: { method, path: '/v2/api/tags', ...(auth ? { auth } : {}) },
    url: 'http://h/v2/api/tags',
    operation: null,
    status: 200,
    headers: new Headers({
      'X-RateLimit-Limit': headers.limit ?? (method === 'GET' ? '20' : '5'),
      'X-RateLimit-Remaining': headers.remaining,
      'X-RateLimit-Reset': headers.reset,
    }),
    text: '',
    body: undefined,
    durationMs: 10,
    sentAt,
    receivedAt: sentAt + 10,
  });
  const run = (...exchanges: Exchange[]) => {
    const windows = new RateWindows(spec);
    return exchanges.map((e) => windows.observe(e)?.length ?? 0);
  };

  it('flags a rise inside one window, by a shared Unix-time reset or by seconds left', () => {
    expect(
      run(at(0, { remaining: '15', reset: '1900000000' }), at(5000, { remaining: '16', reset: '1900000000' })),
    ).toEqual([0, 1]);
    expect(run(at(0, { remaining: '15', reset: '30' }), at(100, { remaining: '16', reset: '30' }))).toEqual([0, 1]);
  });
  it('allows falls by several, new windows, overlapping requests and other keys or classes', () => {
    expect(
      run(at(0, { remaining: '15', reset: '1900000000' }), at(20, { remaining: '9', reset: '1900000000' })),
    ).toEqual([0, 0]);
    expect(
      run(at(0, { remaining: '15', reset: '1900000000' }), at(20, { remaining: '19', reset: '1900000001' })),
    ).toEqual([0, 0]);
    // A whole-second reset of 1 may end at once: nothing is certain, nothing compared.
    expect(run(at(0, { remaining: '15', reset: '1' }), at(20, { remaining: '19', reset: '1' }))).toEqual([0, 0]);
    expect(run(at(0, { remaining: '15', reset: '30' }), at(5, { remaining: '16', reset: '30' }))).toEqual([0, 0]);
    expect(
      run(
        at(0, { remaining: '15', reset: '30' }),
        at(20, { remaining: '4', reset: '30' }, 'POST'),
        at(40, { remaining: '19', reset: '30' }, 'GET', { kind: 'key', key: 'other' }),
      ),
    ).toEqual([0, 0, 0]);
  });
  it("flags a limit that is not the documented one of the request's class", () => {
    expect(
      run(
        at(0, { limit: '20', remaining: '4', reset: '1' }, 'POST'),
        at(20, { limit: '5', remaining: '4', reset: '1' }),
      ),
    ).toEqual([1, 1]);
  });
});

describe('the scope check', () => {
  it('uses a key that holds none of the alternatives, fewest scopes first', () => {
    const keys = [
      { name: 'conv', key: 'a', scopes: ['CONVERSATIONS_READ'] },
      { name: 'billing', key: 'b', scopes: ['BILLING'] },
      { name: 'both', key: 'c', scopes: ['CONVERSATIONS_READ', 'CONVERSATIONS_WRITE'] },
      { name: 'wide', key: 'd', scopes: ['BILLING', 'USERS_READ', 'TAGS_READ'] },
    ];
    // The conversation action accepts CONVERSATIONS_WRITE or CONVERSATIONS_READ: only keys holding neither qualify.
    expect(keysLackingScope(op('applyConversationAction'), keys).map((k) => k.name)).toEqual(['billing', 'wide']);
    expect(keysLackingScope(op('listTags'), keys).map((k) => k.name)).toEqual(['conv', 'billing', 'both']);
  });
});

describe('reports', () => {
  it('writes JUnit XML with escaped failures and skips', () => {
    const report = buildReport({
      spec,
      records: [
        {
          outcomes: [
            {
              check: 'response.schema',
              operationId: 'getThread',
              status: 'failed',
              detail: 'body <bad> & "worse"',
              exchange: 3,
            },
            { check: 'auth.unknown-key', operationId: 'getThread', status: 'skipped', detail: 'profile mock' },
            { check: 'auth.missing-key', operationId: 'getThread', status: 'passed' },
          ],
          exchanges: [
            {
              seq: 3,
              operationId: 'getThread',
              method: 'GET',
              url: 'http://h/v2/api/threads/cth-1',
              headers: {},
              durationMs: 1,
              status: 200,
            },
          ],
          observations: [{ operationId: 'getThread', status: 200 }],
          requests: 1,
        },
      ],
      errors: [],
      meta: {
        tool: { name: 'svc-contract', version: '0' },
        target: { baseUrl: 'http://h', embedded: false },
        profile: 'full',
        allowWrites: false,
        burst: false,
        rate: null,
        only: [],
        startedAt: '',
        durationMs: 5,
      },
    });
    expect(report.summary).toMatchObject({ outcome: 'failed', checks: { passed: 1, failed: 1, skipped: 1 } });
    expect(report.failures[0]?.curl).toContain("-X GET 'http://h/v2/api/threads/cth-1'");
    const xml = renderJunit(report);
    expect(xml).toContain('tests="3" failures="1" errors="0" skipped="1"');
    expect(xml).toContain('body &lt;bad&gt; &amp; &quot;worse&quot;');
    expect(xml).toContain('<skipped message="profile mock"/>');
    expect(report.coverage.rows.find((r) => r.operationId === 'getThread')?.statuses.covered).toEqual(['200']);
  });
});

describe('the README', () => {
  it('documents every check id and every option', async () => {
    const { readFileSync } = await import('node:fs');
    const { CHECKS } = await import('../src/catalogue.js');
    const { USAGE } = await import('../src/options.js');
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    for (const id of Object.keys(CHECKS)) expect(readme, id).toContain(`\`${id}\``);
    for (const option of USAGE.match(/--[a-z-]+/g) ?? []) expect(readme, option).toContain(`\`${option}`);
  });
});

describe('input coverage (reach/inputs.ts)', () => {
  it('reads what an operation documents from the bundle: parameters, body fields, enum values, rules', async () => {
    const { documentedInputs } = await import('../src/reach/inputs.js');
    expect(documentedInputs(spec, op('listCustomFields'))).toEqual({
      sent: ['query page', 'query size', 'header X-Request-Id'],
      rules: ['query page minimum', 'query size minimum', 'query size maximum'],
    });
    const queue = documentedInputs(spec, op('upsertCurrentDialingQueue'));
    expect(queue.sent).toEqual(
      expect.arrayContaining(['body voicemail_handling=SKIP', 'body do_not_disturb=DISABLED', 'body email']),
    );
    // The precedence stated in words is the spec's x-svc-input-rules, and counted like an input.
    expect(queue.sent).toContain('rule precedence user_id over email');
    expect(documentedInputs(spec, op('updateCustomField')).sent).toContain('rule blank-clears description');
    // At every depth; a rule without a code of its own (a header's minLength) is the spec's, not counted.
    const receptionist = documentedInputs(spec, op('updateReceptionist'));
    expect(receptionist.sent).toContain('body business_hours.schedule[].schedule[].start_time');
    expect(receptionist.rules).toContain('body transfer_rules[].target_number pattern');
    expect(receptionist.rules.some((r) => r.startsWith('header '))).toBe(false);
  });

  it('takes from one exchange what it exercised: inputs of a success, the one rule a refusal broke alone', async () => {
    const { exercisedInputs } = await import('../src/reach/inputs.js');
    const list = op('listCustomFields');
    const get = (query: Record<string, string>, extra = {}) => ({
      method: 'GET',
      path: '/v2/api/crm/attributes',
      query,
      ...extra,
    });
    expect(exercisedInputs(spec, list, get({ size: '100' }, { requestId: 'x' }), {}, 200)).toEqual({
      sent: ['query size', 'header X-Request-Id'],
      broke: [],
    });
    expect(exercisedInputs(spec, list, get({ size: '101' }), {}, 400)).toEqual({
      sent: [],
      broke: ['query size maximum'],
    });
    // Two rules broken at once prove neither; a refusal of a valid request proves nothing.
    expect(exercisedInputs(spec, list, get({ size: '101', page: '0' }), {}, 400).broke).toEqual([]);
    expect(exercisedInputs(spec, list, get({ size: '10' }), {}, 400).broke).toEqual([]);
    const queue = op('upsertCurrentDialingQueue');
    const patch = { method: 'PATCH', path: '/v2/api/dialing-queues/current' };
    expect(
      exercisedInputs(spec, queue, { ...patch, body: { user_id: 'usr-1', email: 'a@example.com' } }, {}, 200).sent,
    ).toEqual(['body user_id', 'body email', 'rule precedence user_id over email']);
    expect(exercisedInputs(spec, queue, { ...patch, body: { email: 'a@example.com' } }, {}, 200).sent).not.toContain(
      'rule precedence user_id over email',
    );
  });

  it('fails a run below --min-input-coverage and lists what was never exercised by name', async () => {
    const { buildReport } = await import('../src/report/model.js');
    const meta = {
      tool: { name: 'svc-contract', version: '0' },
      target: { baseUrl: 'http://h', embedded: false },
      profile: 'full' as const,
      allowWrites: true,
      burst: false,
      rate: null,
      only: ['listCustomFields'],
      startedAt: '',
      durationMs: 1,
    };
    const records = [
      {
        outcomes: [{ check: 'conformance.success', operationId: 'listCustomFields', status: 'passed' as const }],
        exchanges: [],
        observations: [],
        inputs: [{ operationId: 'listCustomFields', sent: ['query size'], broke: ['query size maximum'] }],
        requests: 2,
      },
    ];
    const gated = buildReport({ spec, records, errors: [], meta, minInputCoverage: 100 });
    expect(gated.coverage.inputs).toMatchObject({ documented: 6, covered: 2, percent: 33.3, min: 100 });
    expect(gated.coverage.inputs.rows[0]?.missing).toEqual([
      'sent: query page',
      'sent: header X-Request-Id',
      'broken: query page minimum',
      'broken: query size minimum',
    ]);
    expect(gated.summary.outcome).toBe('failed');
    expect(gated.errors).toEqual([expect.stringMatching(/^input coverage 33.3% is below --min-input-coverage 100%/)]);
    expect(buildReport({ spec, records, errors: [], meta, minInputCoverage: 33 }).summary.outcome).toBe('passed');
  });

  it('takes --min-input-coverage and --fixtures-per-kind, and defaults the gate to 100 for a complete run with writes', async () => {
    const { defaultMinInputCoverage } = await import('../src/options.js');
    expect(parseCli(['--min-input-coverage', '97.5', '--fixtures-per-kind', '3'])).toMatchObject({
      kind: 'run',
      options: { minInputCoverage: 97.5, fixturesPerKind: 3 },
    });
    expect(() => parseCli(['--min-input-coverage', '101'])).toThrow(/percentage from 0 to 100/);
    expect(() => parseCli(['--fixtures-per-kind', '0'])).toThrow(/positive whole number/);
    expect(defaultMinInputCoverage({ profile: 'full', allowWrites: true, only: [] })).toBe(100);
    expect(defaultMinInputCoverage({ profile: 'full', allowWrites: false, only: [] })).toBe(0);
    expect(defaultMinInputCoverage({ profile: 'full', allowWrites: true, only: ['threads'] })).toBe(0);
    expect(defaultMinInputCoverage({ profile: 'mock', allowWrites: true, only: [] })).toBe(0);
  });
});

describe('the traceability of the rule extensions (reach/rules.ts)', () => {
  it('has a check for every rule a rule extension of the spec encodes, and no claim on a rule it lacks', async () => {
    const { ruleExtensions, traceGaps } = await import('../src/reach/rules.js');
    expect(ruleExtensions(spec).map((r) => r.id)).toEqual(
      expect.arrayContaining([
        'x-svc-transitions action ARCHIVE (any → archived)',
        'x-svc-merge-rules replaced',
        'x-svc-option-rules LABEL_UNIQUE',
        'x-svc-input-rules precedence user_id, email',
        'x-svc-detail-rules API_KEY_INSUFFICIENT_SCOPE message names required-scope',
        'x-svc-detail-rules INVALID_PHONE_FORMAT suggestion contains E.164',
        'x-svc-mentions ThreadComment content lists mentions',
        'x-svc-inline-syntax NoteMention',
      ]),
    );
    expect(traceGaps(spec)).toEqual({ unclaimed: [], stale: [] });
  });

  it('names a rule added to the spec without a check, and a claim on a rule removed from it', async () => {
    const { createRequire } = await import('node:module');
    const { traceGaps } = await import('../src/reach/rules.js');
    const bundle = structuredClone(createRequire(import.meta.url)('@svc/openapi/openapi.json')) as {
      components: { schemas: Record<string, Record<string, unknown>> };
    };
    const queue = bundle.components.schemas.UpdateDialingQueueRequest as Record<string, unknown>;
    queue['x-svc-input-rules'] = [{ kind: 'mutual-exclusion', fields: ['name', 'email'] }];
    expect(traceGaps(loadSpec(bundle))).toEqual({
      unclaimed: ['x-svc-input-rules mutual-exclusion name, email'],
      stale: ['x-svc-input-rules precedence user_id, email'],
    });
  });
});
