// The receptionist's read-only values sent on a write: "The agent's status and is_default are
// read-only here." Whether such a write is refused (the contract's reading: 400 UNKNOWN_FIELD, as
// for any field it does not list) or accepted and ignored is not stated, so either passes; what
// no reading allows is a write that changes them.
import { isObject } from '@svc/spec-runtime';
import { errorProblems, expectedFor } from '../expectations/expect.js';
import { need } from '../fixtures.js';
import type { Exchange } from '../http/exchange.js';
import { type CheckContext, type Problem, rule, statefulWrite } from './harness.js';
import { unless } from './problems.js';
import { ok, short } from './support.js';

const OP = 'updateReceptionist';

interface ReadOnlyWrite {
  body: Record<string, unknown>;
  write: Exchange;
  after?: Exchange;
  /** Where the write changed a value: the same form sent with the values held before (a faulty server takes it). */
  putBack?: Exchange;
}

interface ReadOnlyWrites {
  number: string;
  before: { status: unknown; is_default: unknown };
  writes: ReadOnlyWrite[];
}

/** The agent block of a receptionist read, where the answer has one. */
function agentOf(exchange: Exchange): Record<string, unknown> | undefined {
  const data = isObject(exchange.body) ? exchange.body.data : undefined;
  return isObject(data) && isObject(data.agent) ? data.agent : undefined;
}

const unchanged = (agent: Record<string, unknown> | undefined, before: ReadOnlyWrites['before']) =>
  agent !== undefined && agent.status === before.status && agent.is_default === before.is_default;

/**
 * Each value alone, at the top and inside `agent` (the two forms the update takes): a server that
 * refuses one read-only value but takes the other, or checks one form only, shows it on the read.
 */
async function writeReadOnly(t: CheckContext): Promise<ReadOnlyWrites> {
  const number = need((await t.fixtures()).lines[0], 'a line (GET /v2/api/numbers listed none; or set fixtures.lines)');
  const read = () => t.call({ params: { number } }, {}, 'getReceptionist');
  const agent = agentOf(await read());
  if (!agent || typeof agent.is_default !== 'boolean')
    return t.skip(`the receptionist of ${number} shows no agent with a boolean is_default`);
  const before = { status: agent.status, is_default: agent.is_default };
  // Other values than the ones held: a server that writes them shows the change on the next read.
  const values = { status: `${String(agent.status)}_SVC_CONTRACT`, is_default: !agent.is_default };
  const writes: ReadOnlyWrite[] = [];
  for (const name of ['status', 'is_default'] as const)
    for (const form of [(v: Record<string, unknown>) => v, (v: Record<string, unknown>) => ({ agent: v })]) {
      const body = form({ [name]: values[name] });
      const write = await t.call({ params: { number }, body }, {}, OP);
      const after = ok(write) ? await read() : undefined;
      const changed = after !== undefined && !unchanged(agentOf(after), before);
      const putBack = changed
        ? await t.call({ params: { number }, body: form({ [name]: before[name] }) }, {}, OP)
        : undefined;
      writes.push({ body, write, ...(after ? { after } : {}), ...(putBack ? { putBack } : {}) });
    }
  return { number, before, writes };
}

function readOnlyProblems(t: CheckContext, { number, before, writes }: ReadOnlyWrites): Problem[] {
  return writes.flatMap(({ body, write, after }) => {
    if (!ok(write)) {
      // Refused: as the contract refuses a field it does not list (UNKNOWN_FIELD), or not at all.
      const refusal = expectedFor(t.spec, t.op(OP), { params: { number }, body });
      return refusal
        ? errorProblems(write, refusal).map((message) => ({ message: `${short(body)}: ${message}`, exchange: write }))
        : [];
    }
    const agent = after ? agentOf(after) : undefined;
    return unless(
      unchanged(agent, before),
      `status and is_default are read-only, but after a write of ${short(body)} the receptionist of ${number} shows ${short({ status: agent?.status, is_default: agent?.is_default })} (was ${short(before)})`,
      after ?? write,
    );
  });
}

rule({
  id: 'receptionist.read-only',
  title:
    "The agent's status and is_default sent on an update, each alone, at the top and inside agent: refused, or accepted and left unchanged",
  source: 'updateReceptionist: "The agent\'s status and is_default are read-only here."',
  precondition:
    'writes of the receptionist of a line sending status, then is_default, other than the values it holds, each alone at the top and inside agent, each then read',
  ...statefulWrite(OP),
  requests: writeReadOnly,
  problems: (state, t) => readOnlyProblems(t, state),
  passed: ({ writes }) => ({
    detail: writes
      .map(({ body, write }) => `${short(body)} ${ok(write) ? 'accepted, unchanged' : `refused (${write.status})`}`)
      .join('; '),
    readings: 'refused, or accepted and ignored: not stated',
  }),
});
