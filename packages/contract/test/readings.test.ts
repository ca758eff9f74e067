// Where the description is open, the checks accept every reading the contract's markers allow and
// the reports say which: the readings of one expectation, the body-form and line-access readings of
// the receptionist, the scope standing of a key, and the report lines of a run.
import { describe, expect, it } from 'vitest';
import { type Expected, errorProblems } from '../src/expectations/expect.js';
import {
  describeReadings,
  lineAccessReadings,
  scopeRefusalReading,
  withReadings,
} from '../src/expectations/readings.js';
import { negativeCases } from '../src/generate/negatives.js';
import type { Exchange } from '../src/http/exchange.js';
import { expectationFor } from '../src/proxy.js';
import { keysHoldingScope } from '../src/rules/operation-checks.js';
import { runContract } from '../src/run.js';
import { loadSpec } from '../src/spec.js';

const spec = loadSpec();
const op = (id: string) => {
  const found = spec.contract.operationsById.get(id);
  if (!found) throw new Error(id);
  return found;
};
const answer = (status: number, code: string) =>
  ({ status, body: { error: { code } }, request: { method: 'GET', path: '/' } }) as unknown as Exchange;
const key = (scopes: string[]) => ({ name: 'k', key: 'k', scopes });

describe('several readings of one expectation', () => {
  const forbidden: Expected = { status: 403, codes: ['SVC_NUMBER_FORBIDDEN'], why: 'a line the key may not access' };
  const both = withReadings(forbidden, lineAccessReadings(spec, op('getReceptionist')));

  it('a line the key may not access: 403 SVC_NUMBER_FORBIDDEN or 404 PHONE_NUMBER_NOT_FOUND, both accepted', () => {
    expect(errorProblems(answer(403, 'SVC_NUMBER_FORBIDDEN'), both)).toEqual([]);
    expect(errorProblems(answer(404, 'PHONE_NUMBER_NOT_FOUND'), both)).toEqual([]);
    expect(errorProblems(answer(404, 'ENDPOINT_NOT_FOUND'), both)).toEqual([
      expect.stringMatching(
        /^expected 403 SVC_NUMBER_FORBIDDEN .*, or 404 PHONE_NUMBER_NOT_FOUND .*got 404 ENDPOINT_NOT_FOUND$/,
      ),
    ]);
    expect(describeReadings(both)).toBe(
      '403 SVC_NUMBER_FORBIDDEN or 404 PHONE_NUMBER_NOT_FOUND (x-svc-ambiguity line-access)',
    );
  });

  it('only where the operation marks it: no other reading elsewhere, nor for one reading', () => {
    expect(lineAccessReadings(spec, op('listConversations'))).toEqual([]);
    expect(withReadings(forbidden, lineAccessReadings(spec, op('listConversations')))).toBe(forbidden);
    expect(describeReadings(forbidden)).toBeUndefined();
    expect(errorProblems(answer(404, 'PHONE_NUMBER_NOT_FOUND'), forbidden)).toHaveLength(1);
  });

  it('the receptionist update: a broken single value may be refused as an unknown field (body-form), knowledge.text not', () => {
    const baseline = { params: { number: '+14155550100' }, body: { knowledge: { text: 'Hours: 9 to 5.' } } };
    const cases = negativeCases(spec, op('updateReceptionist'), baseline);
    const flatPhone = cases.find((c) => c.kind === 'negative.phone-format' && /^body business_phone=/.test(c.label));
    expect(flatPhone?.expected.codes).toEqual(['INVALID_PHONE_FORMAT']);
    expect(flatPhone?.expected.or?.map((r) => `${r.status} ${r.codes.join()}`)).toEqual(['400 UNKNOWN_FIELD']);
    // A field both forms nest alike (knowledge.*) has one reading.
    const nested = cases.find(
      (c) => c.kind === 'negative.unknown-field' && c.label === 'body knowledge.svc_contract_unknown',
    );
    expect(nested?.expected.or).toBeUndefined();
    const unknownPath = cases.find((c) => c.kind === 'negative.unknown-id');
    expect(unknownPath?.expected.or?.map((r) => `${r.status} ${r.codes.join()}`)).toEqual(['403 SVC_NUMBER_FORBIDDEN']);
  });
});

describe('the proxy accepts the other body form too', () => {
  const refusal = (body: unknown) =>
    expectationFor(
      spec,
      'PATCH',
      new URL('http://127.0.0.1/v2/api/numbers/%2B14155550100/agent'),
      new Headers({ authorization: 'Api-Key sbx_demo_full_access', 'content-type': 'application/json' }),
      new TextEncoder().encode(JSON.stringify(body)),
    )?.expected;

  it('a flat single value broken: its own code, or UNKNOWN_FIELD from a server taking the agent block', () => {
    const expected = refusal({ business_phone: '555' });
    expect(expected && describeReadings(expected)).toBe(
      '400 INVALID_PHONE_FORMAT or 400 UNKNOWN_FIELD (x-svc-ambiguity body-form)',
    );
  });

  it('a field both forms nest alike: one reading', () => {
    const expected = refusal({ knowledge: { text: 'x', svc_contract_unknown: 1 } });
    expect(expected?.codes).toEqual(['UNKNOWN_FIELD']);
    expect(expected?.or).toBeUndefined();
  });
});

describe('scope readings', () => {
  const action = op('applyConversationAction');

  it('a key satisfying only some readings may be refused for scope; one satisfying all, or one holding nothing, has one reading', () => {
    expect(scopeRefusalReading(action, key(['CONVERSATIONS_READ']))?.codes).toEqual(['API_KEY_INSUFFICIENT_SCOPE']);
    expect(scopeRefusalReading(action, key(['CONVERSATIONS_READ', 'CONVERSATIONS_WRITE']))).toBeUndefined();
    expect(scopeRefusalReading(action, key(['TAGS_READ']))?.why).toMatch(/which refusal comes first is not stated/);
  });

  it('the sufficient-scope key: among equally close keys, one satisfying every reading first', () => {
    const keys = [key(['CONVERSATIONS_READ']), { ...key(['CONVERSATIONS_READ', 'CONVERSATIONS_WRITE']), name: 'both' }];
    expect(keysHoldingScope(action, keys).map((k) => k.key.name)).toEqual(['both', 'k']);
  });
});

describe('the reports list the readings each check accepted', () => {
  it('text and JSON, per check', async () => {
    const { report, text } = await runContract({
      only: ['getReceptionist', 'upsertCurrentDialingQueue'],
      allowWrites: true,
      rate: 'off',
      quiet: true,
      print: false,
    });
    const readings = (operationId: string, check: string) =>
      report.operations.find((o) => o.operationId === operationId)?.checks.find((c) => c.id === check)?.readings;
    expect(readings('getReceptionist', 'auth.line-forbidden')).toEqual([
      '403 SVC_NUMBER_FORBIDDEN or 404 PHONE_NUMBER_NOT_FOUND (x-svc-ambiguity line-access)',
    ]);
    expect(readings('upsertCurrentDialingQueue', 'idempotency.replay')).toEqual([
      'a replay of the stored response or a new execution of each repeat: replay is not promised on PATCH (x-svc-inferred.replay)',
    ]);
    expect(readings('getReceptionist', 'conformance.success')).toEqual([]);
    expect(text).toContain(
      '    open: auth.line-forbidden: 403 SVC_NUMBER_FORBIDDEN or 404 PHONE_NUMBER_NOT_FOUND (x-svc-ambiguity line-access)',
    );
    expect(report.summary.outcome).toBe('passed');
  });
});
