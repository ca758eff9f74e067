/** What the client reports as it works; every string in it has the API key redacted. */
export type SvcLogEvent = {
  method: string;
  url: string;
  /** 1 for the first attempt, 2 for the first retry, … (as in the message: "attempt 1"). */
  attempt: number;
} & (
  | {
      type: 'request';
      /** The request headers, with `Authorization` (and cookies) replaced by `[REDACTED]`. */
      headers: Record<string, string>;
    }
  | {
      type: 'response';
      status: number;
      durationMs: number;
      requestId: string | undefined;
      replayed: boolean;
    }
  | {
      /** An attempt ended without a response (network failure or timeout). */
      type: 'error';
      durationMs: number;
      error: string;
    }
  | {
      /** The client is about to wait `delayMs`, then send attempt number `attempt` (2 for the first retry). */
      type: 'retry';
      delayMs: number;
      reason: string;
    }
);

/** A console-like logger; `console` itself fits. Each method receives a one-line message and the event. */
export interface SvcLogger {
  debug?(message: string, event: SvcLogEvent): void;
  info?(message: string, event: SvcLogEvent): void;
  warn?(message: string, event: SvcLogEvent): void;
  error?(message: string, event: SvcLogEvent): void;
}

/** The client's log: `enabled` is false when neither hook is given, so no event is even built. */
export interface ClientLog {
  readonly enabled: boolean;
  emit(event: SvcLogEvent): void;
}

const REDACTED = '[REDACTED]';
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);

/** Copies headers for logging, never the credentials. */
export function redactHeaders(headers: Headers): Record<string, string> {
  const copy: Record<string, string> = {};
  headers.forEach((value, name) => {
    copy[name] = SECRET_HEADERS.has(name) ? REDACTED : value;
  });
  return copy;
}

/**
 * Replaces every occurrence of the secret in every string of a JSON-like value. The service's
 * messages include the failing value, so a 401 may echo the key back: the client scrubs what it
 * logs and the error bodies it returns.
 */
export function redactSecret<T>(value: T, secret: string | undefined): T {
  if (!secret) return value;
  // A copy made level by level with a stack of its own, not by recursion: an error body nested
  // thousands deep must not overflow the call stack.
  const copyOf = (item: unknown): unknown => {
    if (typeof item === 'string') return item.split(secret).join(REDACTED);
    if (Array.isArray(item)) return new Array(item.length);
    if (item && typeof item === 'object' && Object.getPrototypeOf(item) === Object.prototype) return {};
    return item;
  };
  const root = copyOf(value);
  const pending: Array<[object, object]> =
    root !== value && typeof root === 'object' ? [[value as object, root as object]] : [];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [from, to] = next;
    for (const [key, inner] of Object.entries(from)) {
      const copy = copyOf(inner);
      // Defined, not assigned: a key named __proto__ (JSON.parse makes one) stays a plain field.
      Object.defineProperty(to, key, { value: copy, writable: true, enumerable: true, configurable: true });
      if (copy !== inner && typeof copy === 'object' && copy !== null) pending.push([inner as object, copy]);
    }
  }
  return root as T;
}

function levelOf(event: SvcLogEvent): keyof SvcLogger {
  if (event.type === 'request') return 'debug';
  if (event.type === 'response') return event.status < 400 ? 'debug' : 'warn';
  return event.type === 'retry' ? 'warn' : 'error';
}

function describe(event: SvcLogEvent): string {
  const target = `${event.method} ${event.url}`;
  switch (event.type) {
    case 'request':
      return `svc: ${target} (attempt ${event.attempt})`;
    case 'response':
      return `svc: ${target} -> ${event.status} (attempt ${event.attempt}) in ${event.durationMs} ms${event.requestId ? ` (${event.requestId})` : ''}${event.replayed ? ' [replayed]' : ''}`;
    case 'error':
      return `svc: ${target} (attempt ${event.attempt}) failed after ${event.durationMs} ms: ${event.error}`;
    case 'retry':
      return `svc: ${target} retrying as attempt ${event.attempt} in ${event.delayMs} ms (${event.reason})`;
  }
}

/**
 * Builds the client's log from its options; disabled when neither hook is given. A hook that
 * throws is ignored: logging must never break a request.
 */
export function createLog(
  logger: SvcLogger | undefined,
  onLog: ((event: SvcLogEvent) => void) | undefined,
  secret: string | undefined,
): ClientLog {
  if (!logger && !onLog) return { enabled: false, emit: () => {} };
  return {
    enabled: true,
    emit: (raw) => {
      const event = redactSecret(raw, secret);
      try {
        onLog?.(event);
        logger?.[levelOf(event)]?.(redactSecret(describe(event), secret), event);
      } catch {
        // A broken logger is the caller's bug, not a reason to fail the request.
      }
    },
  };
}
