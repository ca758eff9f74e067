// The shared recorder: every exchange the client completes is recorded here and run through the
// response checks at once, so no response escapes them, whichever scenario sent it (fixture
// discovery, a negative input, a 429 that was waited out). Outcomes accumulate until the runner
// drains them into the running check's record.
import { API_WIDE } from './catalogue.js';
import { OwnBudget } from './exchange-checks/own-budget.js';
import { RateWindows } from './exchange-checks/rate-windows.js';
import { responseOutcomes } from './exchange-checks/response.js';
import { type ApiRequest, type Exchange, errorCode, wireOf } from './http/exchange.js';
import { exercisedInputs } from './reach/inputs.js';
import type { Redactor } from './redact.js';
import type { Spec } from './spec.js';
import type {
  CheckOutcome,
  ConfigKey,
  ExchangeSummary,
  InputObservation,
  KeyRef,
  Observation,
  TestRecord,
} from './types.js';
import { responseVerdict } from './verdict.js';

const MAX_BODY_CHARS = 4000;

/** A body as the report keeps it: the first MAX_BODY_CHARS characters. */
export function clip(text: string): string {
  return text.length > MAX_BODY_CHARS ? `${text.slice(0, MAX_BODY_CHARS)}… (${text.length} characters)` : text;
}

/** What the running check has recorded so far (exchanges: those its outcomes point at). */
const nothingYet = () => ({
  outcomes: [] as CheckOutcome[],
  exchanges: new Map<number, ExchangeSummary>(),
  observations: [] as Observation[],
  inputs: new Map<string, { sent: Set<string>; broke: Set<string> }>(),
  requests: 0,
  reads: 0,
});

export class Recorder {
  private current = nothingYet();
  /** Summaries of recent exchanges, so that a scenario failure can point at one after the fact. */
  private recent = new Map<number, ExchangeSummary>();
  private readonly windows: RateWindows;
  /** Every documented input sent in a request that succeeded so far in the run: `operationId id`. */
  private readonly sentInRun = new Set<string>();
  /** Every exchange of the run, in order, when a reporter asks for them all (the HAR); at most `maxKept`. */
  private kept: ExchangeSummary[] | undefined;
  private maxKept = 0;

  constructor(
    private readonly spec: Spec,
    private readonly redact: Redactor,
    /** The run's key, for the Authorization header of a reproduction (redacted like every string). */
    private readonly apiKey: string,
    /** The server is a stateless mock (profile mock). */
    private readonly stateless = false,
    /** The run owns its key (no --shared-key, no --burst): a 429 inside its own budget is a failure. */
    ownsKey = false,
  ) {
    this.windows = new RateWindows(spec);
    this.budget = ownsKey ? new OwnBudget(spec, apiKey) : undefined;
  }

  private readonly budget: OwnBudget | undefined;
  /** The run's keys by value, for the key a summary names (identifyKeys). */
  private keyRefs = new Map<string, KeyRef>();

  /** Names the keys a request may carry, so that each summary says which (by name and kind, never by value). */
  identifyKeys(apiKeyEnv: string, keys: readonly ConfigKey[]): void {
    this.keyRefs = new Map(
      keys.map((k) => [k.key, { name: k.name, kind: k.kind ?? 'active', ...(k.env ? { env: k.env } : {}) }]),
    );
    this.keyRefs.set(this.apiKey, { name: 'api-key', kind: 'active', env: apiKeyEnv });
  }

  private keyOf(request: ApiRequest): KeyRef | undefined {
    const auth = request.auth ?? { kind: 'main' };
    if (auth.kind === 'main') return this.keyRefs.get(this.apiKey);
    if (auth.kind !== 'key') return undefined;
    return this.keyRefs.get(auth.key) ?? { name: 'unknown' };
  }

  /** A request of the run leaves (the time its server may start counting it). */
  sending(seq: number, request: ApiRequest, sentAt: number): void {
    this.budget?.sending(seq, request, sentAt);
  }

  /** Keeps the summary of every exchange from now on (the first `max`), for the HAR reporter. */
  keepEvery(max: number): void {
    this.kept = [];
    this.maxKept = max;
  }

  /** The summaries kept by keepEvery (undefined when not asked). */
  get everyExchange(): readonly ExchangeSummary[] | undefined {
    return this.kept;
  }

  record(exchange: Exchange): void {
    this.count(exchange);
    this.observeInputs(exchange);
    for (const outcome of responseOutcomes(this.spec, exchange, this.stateless)) this.add(outcome);
    const operationId = exchange.operation?.operationId ?? API_WIDE;
    const windowProblems = this.windows.observe(exchange);
    if (windowProblems !== undefined)
      this.add(responseVerdict('response.rate-limit-window', operationId, exchange.seq, windowProblems));
    const budgetProblems = this.budget?.observe(exchange, performance.now());
    if (budgetProblems !== undefined)
      this.add(responseVerdict('response.rate-limit-budget', operationId, exchange.seq, budgetProblems));
  }

  /** An exchange counted and kept for reference, but not checked (its body was past the cap): `outcome` says so. */
  recordUnchecked(exchange: Exchange, outcome: CheckOutcome): void {
    this.count(exchange);
    this.add(outcome);
  }

  private count(exchange: Exchange): void {
    this.current.requests++;
    if (this.spec.contract.limits.readMethods.includes(exchange.request.method)) this.current.reads++;
    const summary = this.summarise(exchange);
    this.recent.set(exchange.seq, summary);
    if (this.kept !== undefined && this.kept.length < this.maxKept) this.kept.push(summary);
    if (this.recent.size > 200) this.recent.delete(this.recent.keys().next().value as number);
    if (exchange.error === undefined) {
      this.current.observations.push({
        operationId: exchange.operation?.operationId ?? null,
        status: exchange.status,
        ...(errorCode(exchange) ? { code: errorCode(exchange) } : {}),
      });
    }
  }

  /** The documented inputs the exchange exercised (input coverage), kept per operation as ids. */
  private observeInputs(exchange: Exchange): void {
    if (exchange.error !== undefined || !exchange.operation) return;
    const match = this.spec.contract.matchRoute(exchange.request.method, exchange.request.path.split('?')[0] as string);
    if (!('operation' in match)) return;
    const { sent, broke } = exercisedInputs(
      this.spec,
      match.operation,
      exchange.request,
      match.params,
      exchange.status,
    );
    if (sent.length === 0 && broke.length === 0) return;
    const id = match.operation.operationId;
    const seen = this.current.inputs.get(id) ?? { sent: new Set<string>(), broke: new Set<string>() };
    for (const x of sent) {
      seen.sent.add(x);
      this.sentInRun.add(`${match.operation.operationId} ${x}`);
    }
    for (const x of broke) seen.broke.add(x);
    this.current.inputs.set(id, seen);
  }

  /** Whether a request that succeeded earlier in the run carried this documented input (reach/inputs.ts id). */
  everSent(operationId: string, input: string): boolean {
    return this.sentInRun.has(`${operationId} ${input}`);
  }

  /** A scenario's own verdict (or a response check's). Passes of one check on one operation are counted. */
  add(outcome: CheckOutcome): void {
    const o = outcome.detail === undefined ? outcome : { ...outcome, detail: this.redact(outcome.detail) };
    if (o.status === 'passed' && o.detail === undefined) {
      const same = this.current.outcomes.find(
        (x) =>
          x.status === 'passed' && x.check === o.check && x.operationId === o.operationId && x.detail === undefined,
      );
      if (same) {
        same.count = (same.count ?? 1) + 1;
        return;
      }
    }
    if (o.exchange !== undefined) {
      const summary = this.recent.get(o.exchange);
      if (summary) this.current.exchanges.set(o.exchange, summary);
    }
    this.current.outcomes.push(o);
  }

  /** Everything recorded since the last drain (the running check's share). */
  drain(): TestRecord {
    const { outcomes, exchanges, observations, inputs, requests, reads } = this.current;
    this.current = nothingYet();
    const exercised: InputObservation[] = [...inputs].map(([operationId, x]) => ({
      operationId,
      sent: [...x.sent],
      broke: [...x.broke],
    }));
    return {
      outcomes,
      exchanges: [...exchanges.values()],
      observations,
      ...(exercised.length ? { inputs: exercised } : {}),
      requests,
      reads,
      writes: requests - reads,
    };
  }

  private summarise(exchange: Exchange): ExchangeSummary {
    const r = exchange.request;
    const { headers, body } = wireOf(r, this.apiKey, this.spec);
    const responseHeaders: Record<string, string> = {};
    exchange.headers.forEach((value, name) => {
      responseHeaders[name] = this.redact(value);
    });
    return {
      seq: exchange.seq,
      operationId: exchange.operation?.operationId ?? null,
      method: r.method,
      url: this.redact(exchange.url),
      headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, this.redact(v)])),
      ...(body !== undefined ? { body: this.redact(body) } : {}),
      ...(exchange.error === undefined
        ? { status: exchange.status, responseHeaders, responseBody: this.redact(clip(exchange.text)) }
        : { error: this.redact(exchange.error) }),
      ...(exchange.headers.get(this.spec.requestIdHeader)
        ? { requestId: this.redact(exchange.headers.get(this.spec.requestIdHeader) as string) }
        : {}),
      durationMs: exchange.durationMs,
      ...(this.keyOf(r) ? { key: this.keyOf(r) } : {}),
      ...(exchange.sentAt !== undefined
        ? { startedAt: new Date(performance.timeOrigin + exchange.sentAt).toISOString() }
        : {}),
    };
  }
}
