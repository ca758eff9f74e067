// The one way discovery reads a list: a GET whose failure is a failed check (fixtures.discovery),
// with its curl, never a quiet "no fixture" that turns the checks depending on it into skips.
import { isObject } from '@svc/spec-runtime';
import { API_WIDE } from '../catalogue.js';
import { describeCheck } from '../check-descriptions.js';
import { dataOf, type Exchange } from '../http/exchange.js';
import type { Session } from '../session.js';
import { responseVerdict } from '../verdict.js';

// Fixture discovery: a list the fixtures come from that fails is a failure, never a quiet skip.
describeCheck({
  id: 'fixtures.discovery',
  title: 'Every discovery request (the lists the fixtures come from) succeeds',
  source: "the list operations' success responses",
  precondition: 'any discovery request (the lists the fixtures come from)',
});

export type Query = Record<string, string>;

export async function discoveryGet(session: Session, path: string, query?: Query): Promise<Exchange | undefined> {
  const exchange = await session.client.send({ method: 'GET', path, ...(query ? { query } : {}) });
  const operationId = exchange.operation?.operationId ?? API_WIDE;
  const problems = discoveryProblems(exchange, path, query);
  session.recorder.add(responseVerdict('fixtures.discovery', operationId, exchange.seq, problems));
  return problems.length === 0 ? exchange : undefined;
}

/** A discovery request that did not succeed: the one problem, naming what was asked. */
function discoveryProblems(exchange: Exchange, path: string, query?: Query): string[] {
  if (exchange.status >= 200 && exchange.status < 300) return [];
  const asked = `GET ${path}${query ? `?${new URLSearchParams(query).toString()}` : ''}`;
  return [`${asked} answered ${exchange.status || exchange.error} (a valid discovery request)`];
}

/** The entries of a list answer (none when it failed or is not a list). */
export function listOf(exchange: Exchange | undefined): unknown[] {
  const data = exchange ? dataOf(exchange) : undefined;
  return Array.isArray(data) ? data : [];
}

/** The data object of a single-resource answer. */
export function objectOf(exchange: Exchange | undefined): Record<string, unknown> | undefined {
  const data = exchange ? dataOf(exchange) : undefined;
  return isObject(data) ? data : undefined;
}

/** How many fixtures of one kind the run uses at most (--fixtures-per-kind). */
export function perKind(session: Session): number {
  return session.config.fixturesPerKind ?? 20;
}
