// The server's own limits, from the other side (response.rate-limit-budget): when the run owns its
// key (no --shared-key, no --burst), a 429 RATE_LIMIT_EXCEEDED while the run's own traffic on that
// key is within the documented budget of the request's class is a refusal the description does
// not allow (reads refused early, writes counted with reads).
//
// Within budget under any windowing: the server counts each request at some instant between its
// sending and its answer, so a request may fall in any one-second window that overlaps that span.
// The 429 is judged against the worst window that can hold it: the most requests of its class
// whose spans overlap one window of one second that overlaps the 429's own span. Every request
// that may count against the key is counted (its retries and 429s, a header naming the key in
// another scheme, a method of neither class in both classes), so doubt never makes a failure. The
// pacer (a slot freed one second and a margin after the answer) keeps each window within budget.
import { describeCheck } from '../check-descriptions.js';
import type { ApiRequest, Exchange } from '../http/exchange.js';
import type { Spec } from '../spec.js';

// Like response.rate-limit-window, it judges each response against the run's earlier traffic (the
// recorder keeps one OwnBudget per run that owns its key), so it is described here, not an entry of
// entry.ts; it reads only its own memory of the spans, never another check's findings.
describeCheck({
  id: 'response.rate-limit-budget',
  title:
    "No 429 while the run's own traffic on its key is within the documented per-second budget of the request's class, under any windowing (the run owns its key: no --shared-key, no --burst)",
  source: 'info.x-svc-limits + the 429 response',
  precondition: 'a 429 while the run owns its key (no --shared-key, no --burst)',
});

/** The length of the documented per-second windows. */
const WINDOW_MS = 1000;
/** How long a request stays of interest: no window holding a later request can reach it. */
const KEEP_MS = 3 * WINDOW_MS;
/** At most this many spans are kept (a run paced at the documented rates keeps about 75). */
const MAX_KEPT = 5000;

interface Span {
  sentAt: number;
  receivedAt: number;
  read: boolean;
  write: boolean;
}

export class OwnBudget {
  /** By exchange seq: requests in flight (answered at +Infinity until their answer) and answered ones. */
  private spans = new Map<number, Span>();

  constructor(
    private readonly spec: Spec,
    private readonly apiKey: string,
  ) {}

  /** Whether the server may count the request against the run's key. */
  private countsAgainstKey(request: ApiRequest): boolean {
    const auth = request.auth ?? { kind: 'main' };
    if (auth.kind === 'main') return true;
    if (auth.kind === 'key') return auth.key === this.apiKey;
    return auth.kind === 'header' && this.apiKey !== '' && auth.value.includes(this.apiKey);
  }

  private classOf(method: string): { read: boolean; write: boolean } {
    const { readMethods, writeMethods } = this.spec.contract.limits;
    const read = readMethods.includes(method);
    const write = writeMethods.includes(method);
    return read || write ? { read, write } : { read: true, write: true };
  }

  /** A request leaves: until its answer it may be counted in any later window. */
  sending(seq: number, request: ApiRequest, sentAt: number): void {
    if (!this.countsAgainstKey(request)) return;
    this.keep(seq, { sentAt, receivedAt: Number.POSITIVE_INFINITY, ...this.classOf(request.method.toUpperCase()) });
  }

  /** Problems of one exchange of the run's key; undefined for an exchange of another key or none. */
  observe(exchange: Exchange, now: number): string[] | undefined {
    const span = this.spans.get(exchange.seq);
    if (span === undefined) return undefined;
    span.receivedAt = exchange.receivedAt ?? now;
    if (exchange.status !== 429 || exchange.error !== undefined) return [];
    const { writeMethods, writeRequestsPerSecond, readRequestsPerSecond } = this.spec.contract.limits;
    const method = exchange.request.method.toUpperCase();
    const write = writeMethods.includes(method);
    const budget = write ? writeRequestsPerSecond : readRequestsPerSecond;
    const most = this.mostInOneWindow(span, write);
    if (most > budget) return [];
    return [
      `${method} ${exchange.request.path} → 429: refused while the run's own ${write ? 'writes' : 'reads'} on its key were within the documented ${budget} per second (at most ${most} in any one-second window that can hold it)`,
    ];
  }

  /** The most spans of the class that can share one window with `span`. */
  private mostInOneWindow(span: Span, write: boolean): number {
    const ofClass = [...this.spans.values()].filter((s) => (write ? s.write : s.read));
    // A window [a, a + WINDOW_MS] overlapping the span: a from span.sentAt - WINDOW_MS to span.receivedAt.
    // The count only rises where a request's span starts to overlap (a = sentAt - WINDOW_MS).
    const from = span.sentAt - WINDOW_MS;
    const starts = [from, ...ofClass.map((s) => s.sentAt - WINDOW_MS).filter((a) => a > from && a <= span.receivedAt)];
    let most = 0;
    for (const a of starts) {
      const inside = ofClass.filter((s) => s.sentAt <= a + WINDOW_MS && s.receivedAt >= a).length;
      most = Math.max(most, inside);
    }
    return most;
  }

  private keep(seq: number, span: Span): void {
    const horizon = span.sentAt - KEEP_MS;
    for (const [kept, s] of this.spans) if (s.receivedAt < horizon) this.spans.delete(kept);
    this.spans.set(seq, span);
    if (this.spans.size > MAX_KEPT) this.spans.delete(this.spans.keys().next().value as number);
  }
}
