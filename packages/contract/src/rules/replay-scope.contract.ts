// A stored response is no way past the scope check. "Key lacking the scope: HTTP 403" holds for
// every request; the replay of Idempotency 3 is of a request the key may make. A key of the team
// that lacks the scope, sending the Idempotency-Key another key's write stored, is refused like any
// other request of that key, and is not given the stored answer (a server that looks the key up
// before it checks the scope replays the write to a key that could never have made it).
import { documentedCodes, type Expected } from '../expectations/expect.js';
import { INSUFFICIENT_SCOPE } from '../expectations/readings.js';
import { need } from '../fixtures.js';
import { type Exchange, header } from '../http/exchange.js';
import type { ConfigKey } from '../types.js';
import { actionTo } from './conversation-actions.js';
import { type CheckContext, type Problem, rule, statefulWrite } from './harness.js';
import { holdingOf, keysLackingScope } from './operation-auth.js';
import { errorsOf, unless } from './problems.js';
import { ok } from './support.js';

const OP = 'applyConversationAction';

interface ScopeReplay {
  first: Exchange;
  expected: Expected;
  /** The same request and Idempotency-Key sent by a key of the team lacking the scope. */
  other?: { key: ConfigKey; exchange: Exchange };
}

async function replayToKeyWithoutScope(t: CheckContext): Promise<ScopeReplay> {
  const op = t.op(OP);
  const [key] = keysLackingScope(op, t.config.config.keys);
  if (!key)
    return t.skip('no key in the config lacks the conversation action\'s scopes (add one under "keys")', 'config');
  const codes = documentedCodes(t.spec, op, 403).filter((c) => c === INSUFFICIENT_SCOPE);
  if (codes.length === 0) return t.skip(`${OP} does not list ${INSUFFICIENT_SCOPE}`);
  const expected = { status: 403, codes, why: `key "${key.name}" holds none of the action's scopes` };
  const contact = need((await t.fixtures()).contacts[0], 'a conversation (GET /v2/api/conversations listed none)');
  const action = actionTo(t, 'read') ?? t.skip('no action leads to read (x-svc-transitions)');
  const request = { params: { contact_number: contact }, body: { action } };
  const idempotencyKey = `svc-contract-${t.config.runId}-scope-replay`;
  const first = await t.call(request, { idempotencyKey });
  if (!ok(first)) return { first, expected };
  const exchange = await t.call(request, { idempotencyKey, auth: { kind: 'key', key: key.key } });
  return { first, expected, other: { key, exchange } };
}

function scopeReplayProblems({ first, expected, other }: ScopeReplay, t: CheckContext): Problem[] {
  if (!other) return [{ message: `the keyed action: expected 200, got ${first.status}`, exchange: first }];
  const { key, exchange } = other;
  const what = `the action sent again with its Idempotency-Key by key "${key.name}", which holds ${holdingOf(t.spec, key)}`;
  const replayed = t.spec.idempotencyReplayedHeader;
  return [
    ...errorsOf(exchange, expected, what),
    ...unless(
      header(exchange, replayed) !== 'true',
      `${what}: answered with ${replayed}: true, the stored response of another key's write`,
      exchange,
    ),
  ];
}

rule({
  id: 'auth.scope-before-replay',
  title:
    "A key lacking the scope, sending the Idempotency-Key of another key's stored write: 403 API_KEY_INSUFFICIENT_SCOPE, not the stored response",
  source:
    'Authentication: "Key lacking the scope: HTTP 403, type permission_error, code API_KEY_INSUFFICIENT_SCOPE"; Idempotency 3 (the replay of a request the key may make)',
  precondition:
    "a conversation action sent with a key by the run's key (stored), then the same request and Idempotency-Key by a key of the team holding none of the action's scopes",
  ...statefulWrite(OP, 'scope-replay'),
  requests: replayToKeyWithoutScope,
  problems: scopeReplayProblems,
  passed: ({ other }) => (other ? `refused key "${other.key.name}" (${other.exchange.status})` : undefined),
});
