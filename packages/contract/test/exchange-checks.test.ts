// The per-exchange checks as entries (src/exchange-checks/entry.ts): each a pure function of the
// response seen, independent of the others (run alone, each finds what it finds among all of
// them), and a header problem spec-runtime finds belongs to exactly one check, by the header's name.
import { describe, expect, it } from 'vitest';
import { describedChecks } from '../src/check-descriptions.js';
import { exchangeChecks, headersOwnedBy, type Seen } from '../src/exchange-checks/entry.js';
import '../src/exchange-checks/own-budget.js';
import '../src/exchange-checks/rate-windows.js';
import { responseOutcomes } from '../src/exchange-checks/response.js';
import { selectionProblems } from '../src/exchange-checks/selection.js';
import type { Exchange } from '../src/http/exchange.js';
import { loadSpec } from '../src/spec.js';
import { tagsExchange } from './support/exchanges.js';

const spec = loadSpec();

// Seq 7: the outcomes name the exchange they judged.
const exchange = (...[status, headers, body, extra]: Parameters<typeof tagsExchange>) =>
  tagsExchange(status, headers, body, { seq: 7, ...extra });

const seenOf = (e: Exchange, stateless = false): Seen => ({
  spec,
  exchange: e,
  body: e.text === '' ? undefined : e.body,
  where: `${e.request.method} ${e.request.path} → ${e.status}`,
  stateless,
});

// Wrong in many ways at once: a 500 the operation does not list, no X-RateLimit-Reset, a request
// id of the wrong form, no Content-Type, an error body with a code and type of the wrong kind, a
// sent Idempotency-Key not echoed.
const broken = exchange(
  500,
  { 'X-Request-Id': 'req_x', 'X-RateLimit-Limit': '20', 'X-RateLimit-Remaining': 'many' },
  { error: { type: 'rate_limit_error', code: 'NOT_A_CODE', message: 'm', retryable: false, request_id: 'nope' } },
  { request: { method: 'GET', path: '/v2/api/tags', idempotencyKey: 'k-1' } },
);

describe('the per-exchange checks', () => {
  it('are entries, each declared once, described in the catalogue; with the rate windows and the run budget (both judged against earlier traffic), the 22 response.* checks', () => {
    const ids = exchangeChecks().map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(20);
    const described = describedChecks()
      .map((d) => d.id)
      .filter((id) => id.startsWith('response.'));
    expect([...described].sort()).toEqual([...ids, 'response.rate-limit-window', 'response.rate-limit-budget'].sort());
  });

  it('each, run alone, finds what it finds among all of them (no check reads another), twice the same', () => {
    const together = responseOutcomes(spec, broken);
    expect(together.filter((o) => o.status === 'failed').length).toBeGreaterThanOrEqual(6);
    for (const check of exchangeChecks().filter((c) => !c.withoutAnswer)) {
      const alone = check.problems(seenOf(broken));
      expect(check.problems(seenOf(broken)), check.id).toEqual(alone);
      const outcome = together.find((o) => o.check === check.id);
      expect(outcome?.detail, check.id).toEqual(alone && alone.length > 0 ? alone.join('; ') : undefined);
    }
  });

  it('give a header to one check: the others leave it (declared by ownsHeaders and leavesHeaders)', () => {
    const owners = ['response.request-id', 'response.rate-limit-headers', 'response.idempotency-key-echo'];
    const owned = owners.map((id) => headersOwnedBy(spec, [id]));
    // No header is owned twice.
    const all = owned.flatMap((s) => [...s]);
    expect(new Set(all).size).toBe(all.length);
    expect(owned[0]).toEqual(new Set([spec.requestIdHeader.toLowerCase()]));
    expect(owned[1]).toContain('x-ratelimit-reset');
    const headers = exchangeChecks().find((c) => c.id === 'response.headers');
    expect(headers?.leavesHeaders).toEqual(owners);
    // The missing X-RateLimit-Reset is named by the rate-limit check alone, once.
    const details = responseOutcomes(spec, broken).map((o) => o.detail ?? '');
    expect(details.join('\n').match(/X-RateLimit-Reset/g)).toHaveLength(1);
  });

  it('judge an exchange without an answer by response.transport alone', () => {
    const lost = exchange(0, {}, undefined, { error: 'connect ECONNREFUSED' });
    expect(responseOutcomes(spec, lost)).toEqual([
      {
        check: 'response.transport',
        operationId: 'listTags',
        status: 'failed',
        detail: 'GET /v2/api/tags → 0: connect ECONNREFUSED',
        exchange: 7,
        // Judged again by calling the same per-exchange check (svc-contract replay).
        expected: { judge: 'exchange' },
      },
    ]);
  });
});

describe('response.selection', () => {
  const notes = spec.contract.operationsById.get('listConversationNotes');
  const listed = (...numbers: string[]) =>
    tagsExchange(
      200,
      {},
      { data: numbers.map((n, i) => ({ id: `not-${i}`, contact_number: n })) },
      {
        request: { method: 'GET', path: '/v2/api/conversations/%2B14155550123/notes' },
        operation: notes ?? null,
      },
    );

  it("finds a note of another conversation in a conversation's notes, and nothing where every note is that conversation's", () => {
    expect(selectionProblems(listed('+14155550123', '+14155550123'))).toEqual([]);
    expect(selectionProblems(listed('+14155550123', '+442071838750'))).toEqual([
      'contact_number "+14155550123" was selected, but not-1 has contact_number "+442071838750"',
    ]);
  });

  it('does not apply to refusals, writes or answers with no field named as a parameter', () => {
    expect(selectionProblems({ ...listed('+442071838750'), status: 404 })).toBeUndefined();
    expect(selectionProblems(exchange(200, {}, { data: [{ name: 'vip' }] }))).toBeUndefined();
  });
});
