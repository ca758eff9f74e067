// The rules added to make the gate strict, on their own: pagination arithmetic, error fields,
// rate-limit headers that agree, key kinds in the config, the sufficient-scope key choice, where
// a line goes, boundary values from inside, skips counted against --max-skipped, --only keeping
// the reports narrow, and where report files go when `pnpm contract` runs the package's script.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../src/config.js';
import { errorFieldProblems, paginationProblems, rateLimitProblems } from '../src/exchange-checks/consistency.js';
import { boundaryCases } from '../src/generate/boundaries.js';
import { constraintsOf } from '../src/generate/constraints.js';
import type { Exchange } from '../src/http/exchange.js';
import { renderJunit } from '../src/report/junit.js';
import { buildReport, pacingOf } from '../src/report/model.js';
import { renderText } from '../src/report/text.js';
import { keysHoldingScope, onLine } from '../src/rules/operation-checks.js';
import { invokedFrom } from '../src/run.js';
import { loadSpec } from '../src/spec.js';
import type { TestRecord } from '../src/types.js';

const spec = loadSpec();
const op = (id: string) => spec.contract.operationsById.get(id)!;

function exchange(
  status: number,
  body: unknown,
  query: Record<string, string> = {},
  headers: Record<string, string> = {},
): Exchange {
  return {
    seq: 1,
    request: { method: 'GET', path: '/v2/api/crm/attributes', query },
    url: 'http://h',
    operation: op('listCustomFields'),
    status,
    headers: new Headers(headers),
    text: JSON.stringify(body),
    body,
    durationMs: 1,
  };
}
const list = (n: number, pagination: Record<string, unknown>) => ({
  data: Array.from({ length: n }, (_, i) => ({ key: `k${i}` })),
  pagination,
});

describe('pagination arithmetic', () => {
  it('passes a block that adds up, on the last page and on an empty list', () => {
    expect(
      paginationProblems(
        exchange(200, list(5, { page: 3, size: 10, total_count: 25, total_pages: 3, has_more: false }), {
          page: '3',
          size: '10',
        }),
      ),
    ).toEqual([]);
    expect(paginationProblems(exchange(200, list(10, { page: 1, size: 10, total_count: 25, has_more: true })))).toEqual(
      [],
    );
    expect(
      paginationProblems(
        exchange(200, list(0, { page: 1, size: 20, total_count: 0, total_pages: 0, has_more: false })),
      ),
    ).toEqual([]);
    expect(
      paginationProblems(
        exchange(200, list(0, { page: 1, size: 20, total_count: 0, total_pages: 1, has_more: false })),
      ),
    ).toEqual([]);
  });
  it('names each contradiction', () => {
    expect(
      paginationProblems(
        exchange(200, list(5, { page: 3, size: 10, total_count: 25, total_pages: 3, has_more: true })),
      ),
    ).toEqual([expect.stringMatching(/^has_more true on page 3 of 3/)]);
    expect(
      paginationProblems(
        exchange(200, list(5, { page: 3, size: 10, total_count: 25, total_pages: 2, has_more: false })),
      ),
    ).toEqual([expect.stringMatching(/^total_pages 2, but total_count 25 in pages of 10 makes 3/)]);
    expect(
      paginationProblems(
        exchange(200, list(7, { page: 3, size: 10, total_count: 25, total_pages: 3, has_more: false })),
      ),
    ).toEqual([expect.stringMatching(/^page 3 holds 7 entries/)]);
    expect(
      paginationProblems(
        exchange(200, list(20, { page: 1, size: 20, total_count: 25, total_pages: 2, has_more: true }), {
          size: '100',
        }),
      ),
    ).toEqual([expect.stringMatching(/^size 100 was asked, pagination.size is 20/)]);
    // A stateless mock answers its example: only the arithmetic is checked.
    expect(
      paginationProblems(
        exchange(200, list(20, { page: 1, size: 20, total_count: 25, total_pages: 2, has_more: true }), {
          size: '100',
        }),
        true,
      ),
    ).toEqual([]);
  });
});

describe('fields allowed only on some errors, headers that agree', () => {
  const error = (status: number, code: string, extra: Record<string, unknown> = {}) =>
    exchange(status, {
      error: { type: 'x', code, message: 'm', retryable: false, request_id: 'req_AAAAAAAAAAAA', ...extra },
    });
  it('retry_after_seconds only on rate limits', () => {
    expect(errorFieldProblems(spec, error(404, 'THREAD_NOT_FOUND', { retry_after_seconds: 3 }))).toHaveLength(1);
    expect(errorFieldProblems(spec, error(404, 'THREAD_NOT_FOUND', { retry_after_seconds: null }))).toEqual([]);
    expect(errorFieldProblems(spec, error(429, 'RATE_LIMIT_EXCEEDED', { retry_after_seconds: 1 }))).toEqual([]);
  });
  it('X-RateLimit-Remaining never above X-RateLimit-Limit', () => {
    expect(
      rateLimitProblems(spec, exchange(200, {}, {}, { 'X-RateLimit-Limit': '20', 'X-RateLimit-Remaining': '21' })),
    ).toHaveLength(1);
    expect(
      rateLimitProblems(spec, exchange(200, {}, {}, { 'X-RateLimit-Limit': '20', 'X-RateLimit-Remaining': '20' })),
    ).toEqual([]);
  });
});

describe('key kinds in --config', () => {
  const scopes = Object.keys(spec.contract.scopes);
  it('reads revoked, trial and line-limited keys, and refuses a line-limited key without lines', () => {
    const config = parseConfig(
      {
        keys: [
          { name: 'r', key: 'k1', scopes: [], kind: 'revoked' },
          { name: 't', key: 'k2', scopes: ['TAGS_READ'], kind: 'trial' },
          { name: 'l', key: 'k3', scopes: ['AGENTS_READ'], kind: 'line-limited', lines: ['+14155550100'] },
        ],
      },
      {},
      scopes,
    );
    expect(config.keys.map((k) => [k.kind, k.lines])).toEqual([
      ['revoked', undefined],
      ['trial', undefined],
      ['line-limited', ['+14155550100']],
    ]);
    expect(() => parseConfig({ keys: [{ key: 'k', scopes: [], kind: 'line-limited' }] }, {}, scopes)).toThrow(
      ConfigError,
    );
    expect(() => parseConfig({ keys: [{ key: 'k', scopes: [], kind: 'expired' }] }, {}, scopes)).toThrow(/kind/);
  });
  it('chooses the key closest to exactly the documented scope, never a key of another kind', () => {
    const keys = [
      { name: 'wide', key: 'a', scopes: ['TAGS_READ', 'USERS_READ'] },
      { name: 'exact', key: 'b', scopes: ['TAGS_READ'] },
      { name: 'trial', key: 'c', scopes: ['TAGS_READ'], kind: 'trial' as const },
      { name: 'none', key: 'd', scopes: ['BILLING'] },
    ];
    expect(keysHoldingScope(op('listTags'), keys).map((c) => [c.key.name, c.extra])).toEqual([
      ['exact', []],
      ['wide', ['USERS_READ']],
    ]);
  });
  it('puts a forbidden line where a line goes, never in place of a contact', () => {
    const lines = ['+14155550100', '+14155550101'];
    expect(
      onLine(spec, op('getReceptionist'), { params: { number: '+14155550100' } }, lines, '+14155550101')?.params,
    ).toEqual({ number: '+14155550101' });
    expect(onLine(spec, op('listConversations'), {}, lines, '+14155550101')?.query).toEqual({
      svc_number: '+14155550101',
    });
    const action = onLine(
      spec,
      op('applyConversationAction'),
      { params: { contact_number: '+14155550199' }, body: { action: 'READ' } },
      lines,
      '+14155550101',
    );
    expect(action).toEqual({
      params: { contact_number: '+14155550199' },
      query: {},
      body: { action: 'READ', svc_number: '+14155550101' },
    });
    expect(onLine(spec, op('listTags'), {}, lines, '+14155550101')).toBeUndefined();
  });
});

describe('boundary values from inside', () => {
  it('moves page and size to their bounds, and body strings and lists to their maxima', () => {
    expect(boundaryCases(spec, op('listCustomFields'), {}, true).map((c) => c.label)).toEqual([
      'query page=1',
      'query size=1',
      'query size=100',
    ]);
    expect(boundaryCases(spec, op('upsertCurrentDialingQueue'), { body: {} }, true).map((c) => c.label)).toEqual([
      'body name of 255 characters (quotes, "&", "<>", "é": 504 bytes in UTF-8)',
      'body name of 1 character',
    ]);
    // Characters, not bytes: one ASCII letter, the punctuation people write, then characters two bytes long each.
    const [atMax] = boundaryCases(spec, op('upsertCurrentDialingQueue'), { body: {} }, true);
    const name = String((atMax?.request.body as { name?: string } | undefined)?.name);
    expect([...name]).toHaveLength(255);
    expect(name.startsWith('x\u2019\'&"<> \u00e9')).toBe(true);
    expect(Buffer.byteLength(name, 'utf8')).toBe(504);
    expect(boundaryCases(spec, op('upsertCurrentDialingQueue'), { body: {} }, false)).toEqual([]);
  });
});

describe('the report', () => {
  const meta = {
    tool: { name: 'svc-contract', version: '0' },
    target: { baseUrl: 'http://h', embedded: false },
    profile: 'full' as const,
    allowWrites: true,
    burst: false,
    rate: null,
    only: ['createThread'],
    startedAt: '',
    durationMs: 1,
  };
  const record = (outcomes: TestRecord['outcomes']): TestRecord => ({
    outcomes,
    exchanges: [],
    observations: [],
    requests: outcomes.length,
  });
  const discovery = record([
    { check: 'response.schema', operationId: 'listUsers', status: 'passed' },
    { check: 'fixtures.discovery', operationId: 'listUsers', status: 'passed' },
  ]);
  const own = record([{ check: 'conformance.success', operationId: 'createThread', status: 'passed' }]);

  it('with --only, holds only the selected operations (discovery requests do not drag others in)', () => {
    const report = buildReport({ spec, records: [discovery, own], errors: [], meta });
    expect(report.operations.map((o) => o.operationId)).toEqual(['createThread']);
    expect(report.coverage.rows.map((r) => r.operationId)).toEqual(['createThread']);
    const xml = renderJunit(report);
    expect(xml).toContain('classname="createThread"');
    expect(xml).not.toContain('listUsers');
  });

  it('still reports a failure wherever it happened', () => {
    const failed = record([
      {
        check: 'fixtures.discovery',
        operationId: 'listUsers',
        status: 'failed',
        detail: 'GET /v2/api/users answered 500',
      },
    ]);
    const report = buildReport({ spec, records: [failed, own], errors: [], meta });
    expect(report.operations.map((o) => o.operationId).sort()).toEqual(['createThread', 'listUsers']);
    expect(report.summary.outcome).toBe('failed');
  });

  it('counts skips for want of configuration against --max-skipped, not those the options cause', () => {
    const skips = record([
      {
        check: 'auth.insufficient-scope',
        operationId: 'createThread',
        status: 'skipped',
        detail: 'no key',
        skipKind: 'config',
      },
      {
        check: 'threads.duplicate',
        operationId: 'createThread',
        status: 'skipped',
        detail: 'changes data: run with --allow-writes',
        skipKind: 'option',
      },
    ]);
    const strict = buildReport({ spec, records: [own, skips], errors: [], maxSkipped: 0, meta });
    expect(strict.summary.skipped).toMatchObject({ total: 2, counted: 1, max: 0 });
    expect(strict.summary.outcome).toBe('failed');
    expect(strict.errors[0]).toMatch(/^1 checks were skipped for want of configuration, more than --max-skipped 0/);
    const text = renderText(strict);
    expect(text).toContain('Skipped: 2 checks; 1 for want of configuration (at most 0, --max-skipped)');
    expect(text).toMatch(/1 × missing configuration: no key/);
    expect(text).toMatch(/1 × by option: changes data/);
    expect(buildReport({ spec, records: [own, skips], errors: [], maxSkipped: 1, meta }).summary.outcome).toBe(
      'passed',
    );
  });

  it('counts a check not exercised (its precondition never held) against --max-skipped, and names it so', () => {
    const notExercised = record([
      {
        check: 'threads.duplicate',
        operationId: 'createThread',
        status: 'skipped',
        detail: 'not exercised: no item kept its thread',
        skipKind: 'precondition',
      },
    ]);
    const strict = buildReport({ spec, records: [own, notExercised], errors: [], maxSkipped: 0, meta });
    expect(strict.summary.skipped).toMatchObject({ total: 1, counted: 1, max: 0 });
    expect(strict.summary.outcome).toBe('failed');
    const check = strict.operations.flatMap((o) => o.checks).find((c) => c.id === 'threads.duplicate');
    expect(check).toMatchObject({ status: 'skipped', skipKind: 'precondition' });
    expect(renderText(strict)).toMatch(/1 × not exercised, its precondition never held: not exercised: no item kept/);
    expect(renderJunit(strict)).toContain('<skipped message="not exercised: no item kept its thread"/>');
  });
});

describe('contract coverage', () => {
  const meta = {
    tool: { name: 'svc-contract', version: '0' },
    target: { baseUrl: 'http://h', embedded: false },
    profile: 'full' as const,
    allowWrites: false,
    burst: false,
    rate: null,
    only: ['listCustomFields'],
    startedAt: '',
    durationMs: 1,
  };
  it('lists the documented request constraints of an operation', () => {
    expect(constraintsOf(spec, op('listCustomFields'))).toEqual([
      'query page minimum 1',
      'query size minimum 1',
      'query size maximum 100',
    ]);
    expect(constraintsOf(spec, op('updateCustomField'))).toEqual(
      expect.arrayContaining(['body label maxLength 255', 'body options[].label maxLength 255']),
    );
  });
  it('sets the constraints exercised from each side against those documented, with a total percentage, in text and JUnit', () => {
    const record: TestRecord = {
      outcomes: [
        {
          check: 'boundary.inside',
          operationId: 'listCustomFields',
          status: 'passed',
          detail: 'query size=100',
          constraint: { id: 'query size maximum 100', side: 'inside' },
        },
        {
          check: 'negative.out-of-range',
          operationId: 'listCustomFields',
          status: 'passed',
          detail: 'query size=101',
          constraint: { id: 'query size maximum 100', side: 'outside' },
        },
      ],
      exchanges: [],
      observations: [
        { operationId: 'listCustomFields', status: 200 },
        { operationId: 'listCustomFields', status: 400, code: 'INVALID_PAGE_SIZE' },
      ],
      requests: 2,
    };
    const report = buildReport({ spec, records: [record], errors: [], meta });
    const row = report.coverage.rows[0]!;
    expect(row.constraints).toEqual({
      documented: ['query page minimum 1', 'query size minimum 1', 'query size maximum 100'],
      inside: ['query size maximum 100'],
      outside: ['query size maximum 100'],
    });
    expect(report.coverage.constraintSides).toEqual({ documented: 6, exercised: 2 });
    const documented = row.statuses.documented.length + row.codes.documented.length + 6;
    expect(report.coverage.percent).toBe(Math.round((1000 * (2 + 1 + 2)) / documented) / 10);
    expect(renderText(report)).toMatch(/% of the contract: .* request constraints 2\/6 sides/);
    expect(renderText(report)).toContain('query page minimum 1 (inside)');
    const xml = renderJunit(report);
    expect(xml).toContain('<property name="coverage.constraints.inside" value="1/3"/>');
    expect(xml).toContain(`<property name="coverage.percent" value="${report.coverage.percent}"/>`);
    expect(xml).toMatch(/<property name="coverage.codes.not-seen" value="[^"]*TEAM_NOT_FOUND/);
  });
});

describe('pacing', () => {
  it("computes the floor of the run's request mix at its rate, and the wall time against it", () => {
    const records: TestRecord[] = [
      { outcomes: [], exchanges: [], observations: [], requests: 60, reads: 40, writes: 20 },
    ];
    expect(pacingOf(records, { readsPerSecond: 20, writesPerSecond: 5 }, 4600)).toEqual({
      reads: 40,
      writes: 20,
      floorSeconds: 4,
      wallSeconds: 4.6,
      ratio: 1.15,
    });
    expect(pacingOf(records, { readsPerSecond: 10, writesPerSecond: 10 }, 4000)).toMatchObject({
      floorSeconds: 4,
      ratio: 1,
    });
    const report = buildReport({
      spec,
      records,
      errors: [],
      meta: {
        tool: { name: 'svc-contract', version: '0' },
        target: { baseUrl: 'http://h', embedded: false },
        profile: 'full',
        allowWrites: true,
        burst: false,
        rate: { readsPerSecond: 20, writesPerSecond: 5 },
        only: [],
        startedAt: '',
        durationMs: 4600,
      },
    });
    expect(renderText(report)).toContain(
      'Pacing: 40 reads and 20 writes at 20/5 per second have a floor of 4 s; this run took 4.6 s (1.15x the floor)',
    );
  });
});

describe('report folder', () => {
  const packageDir = fileURLToPath(new URL('..', import.meta.url));
  it('is taken from where pnpm was invoked when the package runs its own script', () => {
    expect(invokedFrom({ INIT_CWD: '/work/somewhere' }, packageDir)).toBe('/work/somewhere');
  });
  it('is the working directory otherwise (an installed copy, or no INIT_CWD)', () => {
    expect(invokedFrom({ INIT_CWD: '/work/somewhere' }, '/tmp/project')).toBe('/tmp/project');
    expect(invokedFrom({}, packageDir)).toBe(packageDir.replace(/\/$/, ''));
  });
});
