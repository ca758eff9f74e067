// reads.every-line: a read whose path names a line (the receptionist of a line) is read on
// every line of the team, up to --fixtures-per-kind, each with a key allowed on it: the run's
// key, or where that key is refused the line (403 SVC_NUMBER_FORBIDDEN), a line-limited key of
// the config that lists it. The baseline reads the first line only; a line configured differently
// is where a server's other code path shows (its answer goes through the response checks).
import type { Operation } from '@svc/spec-runtime';
import type { OpRequest } from '../checks/expect.js';
import { isPhone } from '../generate/schema.js';
import { type Exchange, errorCode } from '../http/exchange.js';
import type { Spec } from '../spec.js';
import type { CheckContext, Problem } from './harness.js';

/**
 * The path parameter that names a line, if any: a phone number in the path of an operation that
 * lists 403 SVC_NUMBER_FORBIDDEN (a contact's number is a phone number too, but no line).
 */
export function linePathParameter(spec: Spec, op: Operation, lineForbidden: string): string | undefined {
  if (!op.codesByStatus.get(403)?.has(lineForbidden)) return undefined;
  return op.parameters.find((p) => p.in === 'path' && isPhone(spec, p.schema))?.name;
}

export interface LineReads {
  reads: Array<{ line: string; key: string; exchange: Exchange }>;
}

export async function readEachLine(
  t: CheckContext,
  op: Operation,
  base: OpRequest,
  lineForbidden: string,
): Promise<LineReads> {
  const param = linePathParameter(t.spec, op, lineForbidden);
  const lines = (await t.fixtures()).lines.slice(0, t.config.fixturesPerKind ?? 20);
  if (!param || !lines.includes(base.params?.[param] ?? '')) return t.skip('the path names no line');
  if (lines.length < 2) return t.skip('fewer than two lines are known: the baseline reads the one there is');
  const reads: LineReads['reads'] = [];
  for (const line of lines) {
    const request = { ...base, params: { ...base.params, [param]: line } };
    let exchange = await t.call(request);
    let key = 'the run key';
    if (exchange.status === 403) {
      const allowed = t.config.config.keys.find((k) => k.kind === 'line-limited' && (k.lines ?? []).includes(line));
      if (allowed) {
        exchange = await t.call(request, { auth: { kind: 'key', key: allowed.key } });
        key = `key "${allowed.name}"`;
      }
    }
    reads.push({ line, key, exchange });
  }
  return { reads };
}

/** A line of the team that no allowed key could read. */
export function eachLineProblems({ reads }: LineReads): Problem[] {
  return reads
    .filter(({ exchange }) => !(exchange.status >= 200 && exchange.status < 300))
    .map(({ line, key, exchange }) => ({
      message: `line ${line} (listed by GET /v2/api/numbers or the config), read with ${key}: got ${exchange.error ?? exchange.status}${errorCode(exchange) ? ` ${errorCode(exchange)}` : ''}`,
      exchange,
    }));
}
