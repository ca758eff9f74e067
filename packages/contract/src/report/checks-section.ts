// The report's checks: every outcome folded into one summary per operation and check (counts,
// failures with their curl, skip reasons, what the passes exercised), and the operations shown.
import { API_WIDE, checkInfo } from '../catalogue.js';
import { ALWAYS_ON } from '../filters.js';
import type { Spec } from '../spec.js';
import type { CheckOutcome, ExchangeSummary, OutcomeStatus } from '../types.js';
import { statusOf } from '../verdict.js';
import { toCurl } from './curl.js';
import type { CheckSummary, Failure, OperationReport, SentRequest } from './shape.js';

/** Summaries by operationId, then check id. */
export type ChecksByOperation = Map<string, Map<string, CheckSummary>>;

function failureOf(outcome: CheckOutcome, exchanges: Map<number, ExchangeSummary>): Failure {
  const exchange = outcome.exchange === undefined ? undefined : exchanges.get(outcome.exchange);
  return {
    check: outcome.check,
    operationId: outcome.operationId,
    message: outcome.detail ?? 'failed',
    ...(exchange ? { curl: toCurl(exchange) } : {}),
    ...(exchange?.requestId ? { requestId: exchange.requestId } : {}),
    ...(exchange?.status !== undefined ? { status: exchange.status } : {}),
    ...(exchange?.responseBody ? { responseBody: exchange.responseBody } : {}),
    ...(exchange ? { request: sentRequest(exchange) } : {}),
    ...(outcome.expected ? { expected: outcome.expected } : {}),
    ...(outcome.madeBy ? { madeBy: outcome.madeBy } : {}),
  };
}

function sentRequest({ method, url, headers, body, key }: ExchangeSummary): SentRequest {
  return { method, url, headers, ...(body !== undefined ? { body } : {}), ...(key ? { key } : {}) };
}

function emptySummary(check: string): CheckSummary {
  return {
    id: check,
    title: checkInfo(check).title,
    status: 'skipped',
    passed: 0,
    failed: 0,
    skipped: 0,
    failures: [],
    skipReasons: [],
    details: [],
    readings: [],
  };
}

/** One outcome into its check's summary: its count, and what it says (failure, skip reason, detail, reading). */
function addOutcome(summary: CheckSummary, o: CheckOutcome, exchanges: Map<number, ExchangeSummary>): void {
  summary[o.status] += o.count ?? 1;
  if (o.status === 'failed') summary.failures.push(failureOf(o, exchanges));
  if (o.status === 'skipped' && o.detail && !summary.skipReasons.includes(o.detail)) summary.skipReasons.push(o.detail);
  if (o.status === 'skipped')
    summary.skipKind =
      summary.skipKind === undefined || summary.skipKind === 'option' ? (o.skipKind ?? 'n/a') : summary.skipKind;
  if (o.status === 'passed' && o.detail && summary.details.length < 50) summary.details.push(o.detail);
  if (o.status === 'passed' && o.readings && !summary.readings.includes(o.readings)) summary.readings.push(o.readings);
}

/** Every outcome in its check's summary, each check's status decided; and the assertions counted by status. */
export function summariseChecks(
  outcomes: readonly CheckOutcome[],
  exchanges: Map<number, ExchangeSummary>,
): { byOperation: ChecksByOperation; assertions: Record<OutcomeStatus, number> } {
  const byOperation: ChecksByOperation = new Map();
  const assertions: Record<OutcomeStatus, number> = { passed: 0, failed: 0, skipped: 0 };
  for (const o of outcomes) {
    const checks = byOperation.get(o.operationId) ?? new Map<string, CheckSummary>();
    byOperation.set(o.operationId, checks);
    const summary = checks.get(o.check) ?? emptySummary(o.check);
    checks.set(o.check, summary);
    addOutcome(summary, o, exchanges);
    assertions[o.status] += o.count ?? 1;
  }
  for (const checks of byOperation.values()) for (const c of checks.values()) c.status = statusOf(c);
  return { byOperation, assertions };
}

/**
 * The operations reported, in the contract's order (API-wide last): where a selected check ran on
 * it, or where anything failed. The response checks of requests made only to find fixtures do not
 * drag an operation in (--only stays narrow).
 */
export function operationReports(
  spec: Spec,
  byOperation: ChecksByOperation,
  only: readonly string[],
): OperationReport[] {
  const own = (c: CheckSummary) =>
    only.length === 0 || !ALWAYS_ON.some((prefix) => c.id.startsWith(prefix)) || c.failed > 0;
  const operations: OperationReport[] = [];
  for (const id of [...spec.contract.operations.map((op) => op.operationId), API_WIDE]) {
    const checks = byOperation.get(id);
    if (!checks || ![...checks.values()].some(own)) continue;
    const op = spec.contract.operationsById.get(id);
    const list = [...checks.values()].sort((a, b) => a.id.localeCompare(b.id));
    operations.push({
      operationId: id,
      ...(op ? { method: op.method, path: op.path } : {}),
      resource: op ? spec.resourceOf(op) : 'api-wide',
      status: statusOf({
        failed: list.filter((c) => c.status === 'failed').length,
        passed: list.filter((c) => c.status === 'passed').length,
      }),
      checks: list,
    });
  }
  return operations;
}
