// The line-scoped operations on every line of the team, up to --fixtures-per-kind, each request
// with a key allowed on that line: the run's key, or where that key is refused the line (403
// SVC_NUMBER_FORBIDDEN), a line-limited key of the config that lists it and holds the scope.
// reads.every-line reads (the receptionist of a line); writes.every-line writes (its update),
// with an empty partial update that must change nothing, read back before and after. The baseline
// reaches the first line only; a line configured differently is where a server's other code path
// shows (its answers go through the response checks too). A line no key may use is named in the
// report, not failed and not silently left out.
import type { Operation } from '@svc/spec-runtime';
import type { OpRequest } from '../expectations/expect.js';
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

export interface LineRead {
  line: string;
  /** Which key was used, or why none could be. */
  key: string;
  exchange: Exchange;
  /** No key of the run may use the line: reported, not a problem. */
  noKey?: boolean;
}

export interface LineReads {
  reads: LineRead[];
}

/** The lines the check goes over: the team's, up to --fixtures-per-kind, when the request names one. */
export async function linesFor(t: CheckContext, op: Operation, base: OpRequest, lineForbidden: string) {
  const param = linePathParameter(t.spec, op, lineForbidden);
  const lines = (await t.fixtures()).lines.slice(0, t.config.fixturesPerKind ?? 20);
  if (!param || !lines.includes(base.params?.[param] ?? '')) return t.skip('the path names no line');
  if (lines.length < 2) return t.skip('fewer than two lines are known: the baseline reaches the one there is');
  return { param, lines };
}

/** Holds one of the operation's scope alternatives whole. */
const holdsScope = (op: Operation, scopes: readonly string[]) =>
  op.security.length === 0 || op.security.some((alt) => alt.every((s) => scopes.includes(s)));

/**
 * One request on one line, with the run's key or, where that is not answered (refused the line, or
 * the receptionist's 404 reading of it), a line-limited key of the config that lists the line.
 */
export async function onEachLine(
  t: CheckContext,
  op: Operation,
  request: OpRequest,
  line: string,
  lineForbidden: string,
): Promise<LineRead> {
  const exchange = await t.call(request, {}, op.operationId);
  if (exchange.status >= 200 && exchange.status < 300) return { line, key: 'the run key', exchange };
  const allowed = t.config.config.keys.find(
    (k) => k.kind === 'line-limited' && (k.lines ?? []).includes(line) && holdsScope(op, k.scopes),
  );
  if (allowed) {
    const again = await t.call(request, { auth: { kind: 'key', key: allowed.key } }, op.operationId);
    return { line, key: `key "${allowed.name}"`, exchange: again };
  }
  if (exchange.status !== 403 || errorCode(exchange) !== lineForbidden) return { line, key: 'the run key', exchange };
  const why = `the run key is refused ${lineForbidden} and no line-limited key of --config lists it`;
  return { line, key: `no key allowed on it: ${why}`, exchange, noKey: true };
}

export async function readEachLine(
  t: CheckContext,
  op: Operation,
  base: OpRequest,
  lineForbidden: string,
): Promise<LineReads> {
  const { param, lines } = await linesFor(t, op, base, lineForbidden);
  const reads: LineRead[] = [];
  for (const line of lines)
    reads.push(await onEachLine(t, op, { ...base, params: { ...base.params, [param]: line } }, line, lineForbidden));
  return { reads };
}

/** A line of the team that an allowed key could not read. */
export function eachLineProblems({ reads }: LineReads): Problem[] {
  return reads
    .filter(({ exchange, noKey }) => noKey !== true && !(exchange.status >= 200 && exchange.status < 300))
    .map(({ line, key, exchange }) => ({
      message: `line ${line} (listed by GET /v2/api/numbers or the config), with ${key}: got ${exchange.error ?? exchange.status}${errorCode(exchange) ? ` ${errorCode(exchange)}` : ''}`,
      exchange,
    }));
}
