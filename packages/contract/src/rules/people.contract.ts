// People: their search and update bodies are not shown by the contract. The search sends the
// contract's own example; the update is exercised through its negative inputs only, because a
// PUT whose semantics (merge or replace) are not shown could wipe a record on a real server.
import type { Operation } from '@svc/spec-runtime';
import { ownExample, requestBodyMedia } from '@svc/spec-runtime/walk';
import { type Expected, expectedFor, listedCode } from '../expectations/expect.js';
import { need } from '../fixtures.js';
import { type Exchange, header } from '../http/exchange.js';
import { type CheckContext, rule, statefulWrite } from './harness.js';
import { operationChecks } from './operation-checks.js';
import { afterEarlier, errorsOf, unless } from './problems.js';
import { ok } from './support.js';

const searchBody = (t: CheckContext) =>
  ownExample(t.spec.contract.bundle, requestBodyMedia(t.spec.contract.bundle, t.op('searchPeople').raw))?.value ?? {};

operationChecks('searchPeople', { baseline: (t) => ({ body: searchBody(t) }) });

operationChecks('updatePerson', {
  success: false,
  withheld: 'a PUT whose merge or replace is not shown could wipe the record; only refused requests are sent',
  baseline: (_t, f) => ({
    params: { id: need(f.people[0], 'a person id (set fixtures.person_ids in the config file)') },
    body: {},
  }),
});

/** Whether an operation documents the Idempotency-Key header. */
function takesKey(t: CheckContext, op: Operation): boolean {
  const name = t.spec.idempotencyKeyHeader.toLowerCase();
  return op.parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === name);
}

/** The path parameters that make `template` the URL `path`, or undefined when it cannot. */
function paramsFor(template: string, path: string): Record<string, string> | undefined {
  const [want, have] = [template.split('/'), path.split('/')];
  if (want.length !== have.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, segment] of want.entries()) {
    const value = have[i] ?? '';
    const name = /^\{(.+)\}$/.exec(segment)?.[1];
    if (name !== undefined) params[name] = value;
    else if (segment !== value) return undefined;
  }
  return params;
}

/** Another keyed write, with another method, whose URL can be the URL of `first` (which has no path parameter). */
function sameUrlWrite(
  t: CheckContext,
  first: Operation,
): { op: Operation; params: Record<string, string> } | undefined {
  for (const op of t.spec.contract.operations) {
    if (op.method === first.method || op.class !== 'write' || !takesKey(t, op)) continue;
    const params = paramsFor(op.path, first.path);
    if (params) return { op, params };
  }
  return undefined;
}

type SameUrlReuse =
  | { first: Exchange }
  | { first: Exchange; label: string; reused: Exchange; expected: Expected; replayed: string };

// The people search is a POST (a write endpoint, as the description counts them) whose URL is also
// the URL of the person update with the id `search`: the one place where a key can be sent again
// to the same URL with another method. The update's own refusal of that id (which error comes
// first is not stated) is accepted too: either way the search's answer is not replayed.
rule({
  id: 'idempotency.key-reuse-method',
  title: 'The key of a write sent again to the same URL with another method is 409 IDEMPOTENCY_KEY_REUSE, not a replay',
  source:
    'IdempotencyConflict (Errors, Idempotency 5: "The same key used for a different endpoint or HTTP method returns 409 IDEMPOTENCY_KEY_REUSE")',
  precondition:
    'a keyed POST answered 2xx, then its key with PUT to the same URL (the people search, and the person update with the id `search`)',
  ...statefulWrite('searchPeople'),
  requests: async (t): Promise<SameUrlReuse> => {
    const other = sameUrlWrite(t, t.op());
    if (!other) return t.skip(`no other write of the contract has the URL ${t.op().path}`);
    const key = `svc-contract-${t.config.runId}-reuse-method`;
    const first = await t.call({ body: searchBody(t) }, { idempotencyKey: key });
    if (!ok(first)) return { first };
    const request = { params: other.params, body: {} };
    const reused = await t.call(request, { idempotencyKey: key }, other.op.operationId);
    const reuse = listedCode(t.spec, other.op, 'IDEMPOTENCY_KEY_REUSE');
    const own = expectedFor(t.spec, other.op, request);
    const label = `the key of ${t.op().method} ${t.op().path} sent with ${other.op.method} to the same URL`;
    const expected = own ? { ...reuse, or: [own] } : reuse;
    return { first, label, reused, expected, replayed: t.spec.idempotencyReplayedHeader };
  },
  problems: (s) =>
    'reused' in s
      ? [
          ...afterEarlier(errorsOf(s.reused, s.expected, s.label)),
          ...unless(header(s.reused, s.replayed) !== 'true', `${s.label}: answered as a replay`, s.reused),
        ]
      : [],
  notReached: (s) =>
    'reused' in s ? undefined : `the keyed search was answered ${s.first.status}: no key was stored to send again`,
});
