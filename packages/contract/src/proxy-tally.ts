// What the proxy keeps of a session, bounded whatever its length: each exchange's record is
// folded in at once. Passes and skips are counted per check, operation and detail; failures keep
// a sample per check and operation (with the exchange each points at, bodies already cut by the
// recorder) and count the rest; (operation, status, code) observations are kept once each. A
// session of a million requests holds about what one of a thousand holds.
import { clip } from './recorder.js';
import type { CheckOutcome, ExchangeSummary, Observation, TestRecord } from './types.js';

/** Failures kept per check and operation, and in all. */
export const FAILURES_KEPT_PER_CHECK = 5;
export const FAILURES_KEPT = 500;
/** Distinct passes and skips (by detail) and distinct observations kept; past these, details merge. */
const MAX_DISTINCT = 2_000;

const keyOf = (o: CheckOutcome, withDetail: boolean) =>
  `${o.check}\u0000${o.operationId}\u0000${o.status}\u0000${withDetail ? (o.detail ?? '') : ''}`;

export class ProxyTally {
  private readonly counted = new Map<string, CheckOutcome>();
  private readonly sampled: CheckOutcome[] = [];
  /** Per check and operation: failures kept, and failures only counted. */
  private readonly failures = new Map<string, { kept: number; more: number; example: CheckOutcome }>();
  private readonly exchanges = new Map<number, ExchangeSummary>();
  private readonly observations = new Map<string, Observation>();
  private requests = 0;
  private reads = 0;

  add(record: TestRecord): void {
    this.requests += record.requests;
    this.reads += record.reads ?? 0;
    for (const o of record.observations) {
      const key = `${o.operationId}\u0000${o.status}\u0000${o.code ?? ''}`;
      if (this.observations.size < MAX_DISTINCT || this.observations.has(key)) this.observations.set(key, o);
    }
    const summaries = new Map(record.exchanges.map((e) => [e.seq, e]));
    for (const o of record.outcomes)
      if (o.status === 'failed') this.addFailure(o, summaries);
      else this.addCount(o);
  }

  private addCount(o: CheckOutcome): void {
    const withDetail = this.counted.size < MAX_DISTINCT || this.counted.has(keyOf(o, true));
    const key = keyOf(o, withDetail);
    const same = this.counted.get(key);
    if (same) same.count = (same.count ?? 1) + (o.count ?? 1);
    else this.counted.set(key, withDetail ? { ...o } : { ...o, detail: undefined });
  }

  private addFailure(o: CheckOutcome, summaries: Map<number, ExchangeSummary>): void {
    const key = keyOf(o, false);
    const entry = this.failures.get(key) ?? { kept: 0, more: 0, example: o };
    this.failures.set(key, entry);
    if (entry.kept >= FAILURES_KEPT_PER_CHECK || this.sampled.length >= FAILURES_KEPT) {
      entry.more++;
      return;
    }
    entry.kept++;
    // A failure's message quotes the request (its path): cut as bodies are.
    this.sampled.push(o.detail === undefined ? o : { ...o, detail: clip(o.detail) });
    const summary = o.exchange === undefined ? undefined : summaries.get(o.exchange);
    if (summary) this.exchanges.set(summary.seq, summary);
  }

  /** Everything so far as one record for the report; failures not kept are one outcome per check counting them. */
  record(): TestRecord {
    const more: CheckOutcome[] = [...this.failures.values()]
      .filter((f) => f.more > 0)
      .map(({ more, example }) => ({
        check: example.check,
        operationId: example.operationId,
        status: 'failed',
        count: more,
        detail: `… and ${more} more failure${more === 1 ? '' : 's'} of this check here, not kept (the proxy keeps the first ${FAILURES_KEPT_PER_CHECK} of each check and operation, ${FAILURES_KEPT} in all)`,
      }));
    return {
      outcomes: [...this.counted.values(), ...this.sampled, ...more],
      exchanges: [...this.exchanges.values()],
      observations: [...this.observations.values()],
      requests: this.requests,
      reads: this.reads,
      writes: this.requests - this.reads,
    };
  }
}
