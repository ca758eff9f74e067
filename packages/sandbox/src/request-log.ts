// The sandbox's request log: the last exchanges it answered, in memory, looked up by request id
// (GET /__sandbox/requests/<id>) and told as they happen to whoever listens (svc-sandbox logs
// tail). Bounded both ways, whichever binds first: a number of exchanges and a number of bytes
// (each exchange's bodies are clipped before they are kept, see request-record.ts), so a flood of
// large answers costs the same as a few. The oldest exchanges go first.

/** What the log keeps of one exchange (built by request-record.ts: redacted, bodies clipped). */
export interface LoggedExchange {
  /** Order of arrival in this log, from 1. */
  readonly seq: number;
  readonly requestId: string;
  /** ISO 8601, from the sandbox's clock. */
  readonly at: string;
  /** The operationId the request was routed to; undefined for an own route or an unknown path. */
  readonly operation: string | undefined;
  /** The name of the sandbox key the request carried; never the key. */
  readonly keyName: string | undefined;
  readonly request: LoggedMessage & { method: string; path: string };
  readonly response: LoggedMessage & { status: number; errorCode: string | undefined };
  /** What the exchange costs the log, in bytes (approximate, counted once). */
  readonly bytes: number;
}

/** A body as the log keeps it. */
export interface KeptBody {
  /** The body's text, whole or its first bytes (never a slice that keeps a 4 MB answer alive), or none. */
  readonly body: string | undefined;
  /** The whole body's size in bytes. */
  readonly bodyBytes: number;
  /** Whether `body` is the whole body. */
  readonly whole: boolean;
}

export interface LoggedMessage extends KeptBody {
  readonly headers: Readonly<Record<string, string>>;
  /** Why no body is kept where one was sent, when that is not plain absence. */
  readonly bodyOmitted?: string;
}

export interface RequestLogLimits {
  /** Most exchanges kept (default 1000). */
  maxEntries: number;
  /** Most bytes kept for all exchanges together (default 8 MiB). */
  maxBytes: number;
  /** Most bytes of each body kept (default 16 KiB). */
  bodyBytes: number;
}

export const DEFAULT_REQUEST_LOG_LIMITS: RequestLogLimits = {
  maxEntries: 1000,
  maxBytes: 8 * 1024 * 1024,
  bodyBytes: 16 * 1024,
};

export type ExchangeListener = (exchange: LoggedExchange) => void;

export class RequestLog {
  readonly limits: RequestLogLimits;
  private readonly bySeq = new Map<number, LoggedExchange>();
  /** The latest exchange of each request id (a client may send the same X-Request-Id twice). */
  private readonly byId = new Map<string, number>();
  private readonly listeners = new Set<ExchangeListener>();
  private nextSeq = 1;
  private heldBytes = 0;

  constructor(limits: Partial<RequestLogLimits> = {}) {
    this.limits = { ...DEFAULT_REQUEST_LOG_LIMITS, ...limits };
  }

  /** The sequence number the next exchange will get (record() takes it). */
  takeSeq(): number {
    return this.nextSeq++;
  }

  add(exchange: LoggedExchange): void {
    if (exchange.bytes <= this.limits.maxBytes) {
      this.bySeq.set(exchange.seq, exchange);
      this.byId.set(exchange.requestId, exchange.seq);
      this.heldBytes += exchange.bytes;
      this.evict();
    }
    for (const listener of this.listeners) {
      try {
        listener(exchange);
      } catch {
        // A listener's failure (a closed stdout) is its own: the answer and the log go on.
      }
    }
  }

  find(requestId: string): LoggedExchange | undefined {
    const seq = this.byId.get(requestId);
    return seq === undefined ? undefined : this.bySeq.get(seq);
  }

  /** Calls `listener` with each exchange as it is answered; returns the way to stop. */
  subscribe(listener: ExchangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get size(): number {
    return this.bySeq.size;
  }

  get bytes(): number {
    return this.heldBytes;
  }

  clear(): void {
    this.bySeq.clear();
    this.byId.clear();
    this.heldBytes = 0;
  }

  private evict(): void {
    const { maxEntries, maxBytes } = this.limits;
    while (this.bySeq.size > maxEntries || this.heldBytes > maxBytes) {
      const [seq, oldest] = this.bySeq.entries().next().value as [number, LoggedExchange];
      this.bySeq.delete(seq);
      this.heldBytes -= oldest.bytes;
      if (this.byId.get(oldest.requestId) === seq) this.byId.delete(oldest.requestId);
    }
  }
}
