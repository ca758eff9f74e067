// writes.every-line: a write whose path names a line (the receptionist's update) is sent on every
// line of the team, up to --fixtures-per-kind, with a key allowed on that line (each-line.ts). It
// sends the empty partial update (every field is optional: nothing sent, nothing touched), which
// must succeed and change nothing: the line's configuration read before and after through the
// read on the same path must be the same (timestamps aside). A server that refuses or mangles writes on a line other
// than the first is seen only here.
import { isDeepStrictEqual } from 'node:util';
import type { Operation } from '@svc/spec-runtime';
import { expectedFor } from '../expectations/expect.js';
import { LINE_FORBIDDEN } from '../expectations/readings.js';
import type { Exchange } from '../http/exchange.js';
import { loadSpec } from '../spec.js';
import { type LineRead, linePathParameter, linesFor, onEachLine } from './each-line.js';
import { type CheckContext, type Problem, rule } from './harness.js';
import { data, ok, short } from './support.js';

interface LineWrite {
  write: LineRead;
  before: Exchange;
  after?: Exchange;
}

async function writeEachLine(t: CheckContext, op: Operation, read: Operation): Promise<LineWrite[]> {
  const first = (await t.fixtures()).lines[0] ?? '';
  const param = linePathParameter(t.spec, op, LINE_FORBIDDEN) ?? '';
  const empty = (line: string) => ({ params: { [param]: line }, body: {} });
  if (expectedFor(t.spec, op, empty(first))) return t.skip('the contract does not allow an empty update here');
  const { lines } = await linesFor(t, op, empty(first), LINE_FORBIDDEN);
  const writes: LineWrite[] = [];
  for (const line of lines) {
    const readLine = async () =>
      (await onEachLine(t, read, { params: { [param]: line } }, line, LINE_FORBIDDEN)).exchange;
    const before = await readLine();
    const write = await onEachLine(t, op, empty(line), line, LINE_FORBIDDEN);
    const after = write.noKey ? undefined : await readLine();
    writes.push({ write, before, ...(after ? { after } : {}) });
  }
  return writes;
}

/**
 * The value with every timestamp (a string matching the Timestamp schema) made alike: a write may
 * stamp the record it touched (updated_at), which the description neither promises nor forbids.
 */
function withoutTimestamps(value: unknown, timestamp: RegExp): unknown {
  if (typeof value === 'string') return timestamp.test(value) ? '<timestamp>' : value;
  if (Array.isArray(value)) return value.map((v) => withoutTimestamps(v, timestamp));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutTimestamps(v, timestamp)]));
}

function sameReading(before: Exchange, after: Exchange): boolean {
  const pattern = loadSpec().schema('Timestamp')?.pattern;
  const timestamp = new RegExp(typeof pattern === 'string' ? pattern : '^$', 'u');
  return isDeepStrictEqual(withoutTimestamps(data(before), timestamp), withoutTimestamps(data(after), timestamp));
}

function writeProblems(writes: LineWrite[]): Problem[] {
  return writes.flatMap(({ write, before, after }): Problem[] => {
    if (write.noKey) return [];
    const where = `line ${write.line}, with ${write.key}`;
    if (!ok(write.exchange))
      return [
        {
          message: `${where}: an empty update got ${write.exchange.error ?? write.exchange.status}`,
          exchange: write.exchange,
        },
      ];
    if (!after || !ok(before) || !ok(after)) return [];
    if (sameReading(before, after)) return [];
    return [
      { message: `${where}: an empty update changed what the line reads back: ${short(data(after))}`, exchange: after },
    ];
  });
}

/** Declares writes.every-line on each write whose path names a line (reads get reads.every-line). */
export function lineScopedWrites(): void {
  const spec = loadSpec();
  for (const op of spec.contract.operations) {
    const changesData = spec.contract.limits.writeMethods.includes(op.method) && !spec.isSafe(op);
    if (!changesData || !linePathParameter(spec, op, LINE_FORBIDDEN)) continue;
    // The line's own resource: a read on the same path names the line too (a contact's number in
    // the path of a conversation action is no line; its line goes in the body, action-on-line).
    const read = spec.contract.operations.find((o) => o.method === 'GET' && o.path === op.path);
    if (!read || !linePathParameter(spec, read, LINE_FORBIDDEN)) continue;
    rule({
      id: 'writes.every-line',
      title:
        'A write whose path names a line, sent on every line of the team with a key allowed on it (an empty update), succeeds and changes nothing',
      source: 'path parameters of type PhoneNumber + the lines of GET /v2/api/numbers; an all-optional update body',
      precondition: 'every line of the team (up to --fixtures-per-kind), each with a key allowed on it',
      operationId: op.operationId,
      resource: spec.resourceOf(op),
      needs: { writes: true, stateful: true },
      requests: (t) => writeEachLine(t, op, read),
      problems: writeProblems,
      passed: (writes) => `an empty update on ${writes.map((w) => `${w.write.line} (${w.write.key})`).join(', ')}`,
    });
  }
}
