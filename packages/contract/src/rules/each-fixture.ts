// reads.every-fixture: a read addressed by an id is read with every fixture of that kind the run
// knows (discovered or configured), up to --fixtures-per-kind, not only the first the baseline
// uses: every deal, every conversation item, every note, every conversation's notes, every user.
// A server broken on one record of several (a second deal, an item that is not the first) shows
// only there. Where a read of a fixture is refused, the documented values of the operation's
// optional query parameters are tried (a call with several summaries needs its template_key),
// so that only a fixture no documented request can read is a problem.
import type { Operation } from '@svc/spec-runtime';
import { expectedFor, type OpRequest } from '../expectations/expect.js';
import type { Fixtures } from '../fixtures.js';
import { type Exchange, errorCode } from '../http/exchange.js';
import { loadSpec } from '../spec.js';
import { documentedValues } from './explore-inputs.js';
import { type CheckContext, type Problem, rule } from './harness.js';
import { ok } from './support.js';

export interface FixtureKind {
  /** The path parameter the fixture's id goes in. */
  param: string;
  /** The fixtures of the kind, in the order the run knows them (configured first). */
  ids: (f: Fixtures) => string[];
  /** What the ids are and where they come from, for the report. */
  what: string;
}

interface FixtureRead {
  id: string;
  /** Every request sent for the fixture, the last the one that succeeded if any did. */
  tried: Exchange[];
}

/** The fixture's request, then the same with each documented value of each optional query parameter. */
function requestsFor(t: CheckContext, op: Operation, request: OpRequest, fixtures: Fixtures): OpRequest[] {
  const optional = op.parameters.filter((p) => p.in === 'query' && !p.required);
  const values = optional.flatMap((p) => documentedValues(t.spec, p, fixtures).map((v) => ({ [p.name]: v })));
  return [request, ...values.map((query) => ({ ...request, query: { ...request.query, ...query } }))];
}

async function readFixture(t: CheckContext, op: Operation, kind: FixtureKind, id: string): Promise<FixtureRead> {
  const fixtures = await t.fixtures();
  const read: FixtureRead = { id, tried: [] };
  for (const request of requestsFor(t, op, { params: { [kind.param]: id } }, fixtures)) {
    // A documented value that breaks the request for this fixture is not sent (nor counted).
    if (read.tried.length > 0 && expectedFor(t.spec, op, request)) continue;
    const exchange = await t.call(request);
    read.tried.push(exchange);
    if (ok(exchange)) break;
  }
  return read;
}

async function readAll(t: CheckContext, op: Operation, kind: FixtureKind): Promise<FixtureRead[]> {
  const ids = kind.ids(await t.fixtures()).slice(0, t.config.fixturesPerKind ?? 20);
  if (ids.length < 2) return t.skip(`fewer than two ${kind.what} are known: the baseline reads the one there is`);
  const reads: FixtureRead[] = [];
  for (const id of ids) reads.push(await readFixture(t, op, kind, id));
  return reads;
}

function describe(exchange: Exchange | undefined): string {
  if (!exchange) return 'nothing sent';
  const code = errorCode(exchange);
  return `${exchange.error ?? exchange.status}${code ? ` ${code}` : ''}`;
}

/** A known fixture that no documented request could read. */
function unreadProblems(kind: FixtureKind, reads: FixtureRead[]): Problem[] {
  return reads
    .filter((r) => !r.tried.some(ok))
    .map((r) => {
      const last = r.tried.at(-1);
      return {
        message: `${kind.param} ${r.id} (one of the ${kind.what}): got ${describe(r.tried[0])}${r.tried.length > 1 ? `, and no success with any documented value of the optional query parameters (last: ${describe(last)})` : ''}`,
        ...(last ? { exchange: last } : {}),
      };
    });
}

/** Declares reads.every-fixture for a read addressed by one id. */
export function readEachFixture(operationId: string, kind: FixtureKind): void {
  const spec = loadSpec();
  const op = spec.contract.operationsById.get(operationId);
  if (!op) throw new Error(`The contract has no operation ${operationId}.`);
  rule({
    id: 'reads.every-fixture',
    title: 'A read addressed by an id succeeds for every fixture of that kind the run knows (discovered or configured)',
    source: 'path id parameters + the lists and config fixtures that name the ids',
    precondition:
      'every fixture of the kind the read addresses, discovered or named in the config (deal_ids, item_ids, note_ids, user_ids), up to --fixtures-per-kind',
    operationId,
    resource: spec.resourceOf(op),
    // A stateless mock answers any id alike: only a server that holds the records is read through.
    needs: { stateful: true },
    requests: (t) => readAll(t, op, kind),
    problems: (reads) => unreadProblems(kind, reads),
    passed: (reads) => `read ${reads.length} ${kind.what}: ${reads.map((r) => r.id).join(', ')}`,
  });
}
