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
  /**
   * The kept exchanges, oldest first, in a ring of `maxEntries` slots: adding and forgetting cost
   * no allocation and no hashing (two Maps, by sequence and by id, did both on every answer).
   */
  private readonly ring: (LoggedExchange | undefined)[] = [];
  private oldest = 0;
  private count = 0;
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
    const { maxEntries, maxBytes } = this.limits;
    if (exchange.bytes <= maxBytes && maxEntries > 0) {
      if (this.count === maxEntries) this.forgetOldest();
      this.ring[(this.oldest + this.count) % maxEntries] = exchange;
      this.count++;
      this.heldBytes += exchange.bytes;
      while (this.heldBytes > maxBytes) this.forgetOldest();
    }
    if (this.listeners.size === 0) return;
    for (const listener of this.listeners) {
      try {
        listener(exchange);
      } catch {
        // A listener's failure (a closed stdout) is its own: the answer and the log go on.
      }
    }
  }

  /**
   * The latest exchange kept with this request id (a client may send the same X-Request-Id
   * twice). A walk of at most `maxEntries` entries, newest first: lookups are few (a keyed,
   * rate-limited route), answers are many, so the answers pay for no index.
   */
  find(requestId: string): LoggedExchange | undefined {
    const { maxEntries } = this.limits;
    for (let i = this.count - 1; i >= 0; i--) {
      const exchange = this.ring[(this.oldest + i) % maxEntries]!;
      if (exchange.requestId === requestId) return exchange;
    }
    return undefined;
  }

  /** Calls `listener` with each exchange as it is answered; returns the way to stop. */
  subscribe(listener: ExchangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get size(): number {
    return this.count;
  }

  get bytes(): number {
    return this.heldBytes;
  }

  clear(): void {
    this.ring.length = 0;
    this.oldest = 0;
    this.count = 0;
    this.heldBytes = 0;
  }

  private forgetOldest(): void {
    const exchange = this.ring[this.oldest]!;
    this.ring[this.oldest] = undefined;
    this.oldest = (this.oldest + 1) % this.limits.maxEntries;
    this.count--;
    this.heldBytes -= exchange.bytes;
  }
}
