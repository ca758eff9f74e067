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
  const scrub = (item: unknown): unknown => {
    if (typeof item === 'string') return item.split(secret).join(REDACTED);
    if (Array.isArray(item)) return item.map(scrub);
    if (item && typeof item === 'object' && Object.getPrototypeOf(item) === Object.prototype) {
      return Object.fromEntries(Object.entries(item).map(([key, inner]) => [key, scrub(inner)]));
    }
    return item;
  };
  return scrub(value) as T;
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
