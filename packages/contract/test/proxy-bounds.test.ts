// What the proxy keeps does not grow with what others send (issue 25): the keys it remembers, the
// rate windows it follows, the results of a session; and keys are redacted whatever their
// length or the spelling of the scheme before them.
import { describe, expect, it } from 'vitest';
import { RateWindows } from '../src/exchange-checks/rate-windows.js';
import type { Exchange } from '../src/http/exchange.js';
import { endToEnd, hopByHopNames } from '../src/http/hop-by-hop.js';
import { KeptBudget, KeptBytes } from '../src/http/kept-bytes.js';
import { originForm } from '../src/http/relay.js';
import { parseCli } from '../src/options.js';
import { FAILURES_KEPT, FAILURES_KEPT_PER_CHECK, ProxyTally } from '../src/proxy-tally.js';
import { createRedactor, MAX_SEEN_KEYS, SeenKeys } from '../src/redact.js';
import { buildReport } from '../src/report/model.js';
import { loadSpec } from '../src/spec.js';
import type { TestRecord } from '../src/types.js';

const spec = loadSpec();
const PLACEHOLDER = '${SVC_API_KEY}';

describe('redaction of keys, whatever the spelling', () => {
  it('replaces a short run key after the scheme in any case and any whitespace, and nowhere else', () => {
    const redact = createRedactor([{ value: 'abc', placeholder: PLACEHOLDER }]);
    expect(redact('Authorization: api-key abc; API-KEY\tabc, Api-Key   abc" abc Api-Key abcd')).toBe(
      `Authorization: api-key ${PLACEHOLDER}; API-KEY\t${PLACEHOLDER}, Api-Key   ${PLACEHOLDER}" abc Api-Key abcd`,
    );
    // As a server echoing the header in JSON writes a tab.
    expect(redact('{"h":"Api-Key\\tabc"}')).toBe(`{"h":"Api-Key\\t${PLACEHOLDER}"}`);
  });

  it('the proxy replaces any value after the scheme, and a remembered key anywhere', () => {
    const keys = new SeenKeys(PLACEHOLDER);
    keys.remember('sbx_key_seen_1');
    expect(keys.redact('api-key x y Api-Key\tshort, echoed sbx_key_seen_1 and sbx_key_seen_12')).toBe(
      // A key is anything up to a space or a quote (apiKeyOf's \S+): the comma goes with it.
      `api-key ${PLACEHOLDER} y Api-Key\t${PLACEHOLDER} echoed ${PLACEHOLDER} and sbx_key_seen_12`,
    );
  });

  it('remembers at most MAX_SEEN_KEYS keys, the newest, after a million distinct ones', () => {
    const keys = new SeenKeys(PLACEHOLDER);
    for (let i = 0; i < 1_000_000; i++) keys.remember(`made_up_key_${i}`);
    expect(keys.size).toBeLessThanOrEqual(MAX_SEEN_KEYS);
    expect(keys.size).toBeGreaterThanOrEqual(MAX_SEEN_KEYS / 2);
    expect(keys.redact('made_up_key_999999 made_up_key_0')).toBe(`${PLACEHOLDER} made_up_key_0`);
  });
});

describe('bounded state', () => {
  it('follows the rate windows of at most MAX_TRACKED keys', () => {
    const windows = new RateWindows(spec);
    const headers = new Headers({ 'X-RateLimit-Limit': '20', 'X-RateLimit-Remaining': '19', 'X-RateLimit-Reset': '1' });
    for (let i = 0; i < RateWindows.MAX_TRACKED + 500; i++) {
      const exchange: Exchange = {
        seq: i,
        request: { method: 'GET', path: '/v2/api/users', auth: { kind: 'header', value: `Api-Key k${i}` } },
        url: 'http://h/v2/api/users',
        operation: null,
        status: 200,
        headers,
        text: '',
        body: undefined,
        durationMs: 0,
        sentAt: i,
        receivedAt: i,
      };
      windows.observe(exchange);
    }
    expect(windows.tracked).toBe(RateWindows.MAX_TRACKED);
  });

  it('a session of 100 000 failing exchanges keeps a sample and counts every failure', () => {
    const tally = new ProxyTally();
    for (let seq = 1; seq <= 100_000; seq++) {
      const record: TestRecord = {
        outcomes: [
          { check: 'response.schema', operationId: 'listUsers', status: 'failed', detail: `bad ${seq}`, exchange: seq },
          { check: 'response.no-5xx', operationId: 'listUsers', status: 'passed' },
        ],
        exchanges: [
          { seq, operationId: 'listUsers', method: 'GET', url: 'http://h/v2/api/users', headers: {}, durationMs: 0 },
        ],
        observations: [{ operationId: 'listUsers', status: 200 }],
        requests: 1,
        reads: 1,
      };
      tally.add(record);
    }
    const [record] = [tally.record()];
    expect(record.exchanges).toHaveLength(FAILURES_KEPT_PER_CHECK);
    expect(record.observations).toHaveLength(1);
    expect(record.outcomes.length).toBeLessThanOrEqual(FAILURES_KEPT + 10);
    const report = buildReport({
      spec,
      records: [record],
      errors: [],
      meta: {
        tool: { name: 'svc-contract proxy', version: '0' },
        target: { baseUrl: 'http://h', embedded: false },
        profile: 'full',
        allowWrites: true,
        burst: false,
        rate: null,
        only: [],
        startedAt: '',
        durationMs: 0,
      },
    });
    expect(report.requests).toBe(100_000);
    expect(report.summary.assertions.failed).toBe(100_000);
    expect(report.summary.assertions.passed).toBe(100_000);
    expect(report.failures).toHaveLength(FAILURES_KEPT_PER_CHECK + 1);
    expect(report.failures.at(-1)?.message).toMatch(/^… and 99995 more failures of this check here, not kept/);
  });

  it('keeps the bytes of a body up to its cap, then none', () => {
    const kept = new KeptBytes(10);
    kept.add(Buffer.from('12345'));
    kept.add(Buffer.from('67890'));
    expect(kept.result()).toEqual(new Uint8Array(Buffer.from('1234567890')));
    const over = new KeptBytes(10);
    over.add(Buffer.from('12345'));
    over.add(Buffer.from('678901'));
    over.add(Buffer.from('x'));
    expect([over.result(), over.overBudget]).toEqual(['too-large', false]);
  });

  it('keeps bodies of every exchange at once within one budget, and gives it back', () => {
    const budget = new KeptBudget(8);
    const first = new KeptBytes(10, budget);
    const second = new KeptBytes(10, budget);
    first.add(Buffer.from('12345'));
    second.add(Buffer.from('12345'));
    expect([second.result(), second.overBudget]).toEqual(['too-large', true]);
    expect(budget.inUse).toBe(5);
    expect(first.result()).toEqual(new Uint8Array(Buffer.from('12345')));
    expect(budget.inUse).toBe(0);
  });
});

describe('the proxy command line', () => {
  it('takes --max-response-bytes as a run does, and refuses what is not a positive integer', () => {
    expect(parseCli(['proxy', '--upstream', 'http://127.0.0.1:1', '--max-response-bytes', '4096'])).toMatchObject({
      kind: 'proxy',
      options: { maxResponseBytes: 4096 },
    });
    expect(() => parseCli(['proxy', '--upstream', 'http://127.0.0.1:1', '--max-response-bytes', '0'])).toThrow(
      '--max-response-bytes must be a positive integer, got 0',
    );
  });
});

describe('the relay', () => {
  it('drops Connection, what it names and the RFC 9110 hop-by-hop headers', () => {
    expect([...hopByHopNames(['Connection', 'X-A, x-b', 'X-C', '1'])].sort()).toEqual([
      'connection',
      'keep-alive',
      'proxy-authenticate',
      'proxy-authorization',
      'proxy-connection',
      'te',
      'transfer-encoding',
      'upgrade',
      'x-a',
      'x-b',
    ]);
  });

  it('keeps a header named __proto__ or constructor as a header like any other', () => {
    expect(Object.entries(endToEnd(['__proto__', 'a', 'constructor', 'b', 'X-A', '1', 'x-a', '2']))).toEqual([
      ['__proto__', ['a']],
      ['constructor', ['b']],
      ['X-A', ['1', '2']],
    ]);
  });

  it('keeps an origin-form target exactly, and only the path of an absolute one', () => {
    expect(originForm('/v2/api/./a/../b?x=%2B')).toBe('/v2/api/./a/../b?x=%2B');
    expect(originForm('//evil.example/x')).toBe('//evil.example/x');
    expect(originForm('http://evil.example/v2/api/users?a=1')).toBe('/v2/api/users?a=1');
  });
});
