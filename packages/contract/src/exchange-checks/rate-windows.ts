// The rate-limit headers move the way their names say, checked passively over a normal run's
// exchanges (the --burst run checks them under load). For each key and request class:
// - X-RateLimit-Limit is the documented budget of the class (info.x-svc-limits);
// - inside one window, X-RateLimit-Remaining never rises from one request to the next. It may fall
//   by more than one: other clients may share the key.
// Two requests are only compared when the second was sent after the first's response arrived and
// both are certainly in one window: the same X-RateLimit-Reset when it is a Unix time, or, when it
// counts seconds (its unit is not shown), the second answered before the first's reset could have
// come even if the server rounds the seconds up. Anything less certain is not compared, so a
// server with sub-second windows is never accused of a rise that a new window explains.
import { createHash } from 'node:crypto';
import { describeCheck } from '../check-descriptions.js';
import type { Exchange } from '../http/exchange.js';
import type { Spec } from '../spec.js';

// A per-exchange check that compares each response with the one before it of the same key and
// class (the recorder keeps one RateWindows per run): not an entry of entry.ts, which judge one
// response alone; it reads only its own memory of the windows, never another check's findings.
describeCheck({
  id: 'response.rate-limit-window',
  title:
    "X-RateLimit-Limit is the documented budget of the request's class; X-RateLimit-Remaining never rises inside one window (per key and class)",
  source: 'info.x-svc-limits + RateLimitLimitHeader/RateLimitRemainingHeader/RateLimitResetHeader',
  precondition:
    'two answers to one key and class certainly in one window (the second sent after the first was answered)',
});

/** Reset values at or above this are Unix times (seconds); below, seconds until the reset. */
const UNIX_TIME_FROM = 1_000_000_000;

interface Seen {
  remaining: number;
  reset: number;
  sentAt: number;
  receivedAt: number;
  where: string;
}

function numeric(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** The key a request used, as the server would bucket it; undefined when it sent none. */
function keyOf(exchange: Exchange): string | undefined {
  const auth = exchange.request.auth ?? { kind: 'main' };
  if (auth.kind === 'none') return undefined;
  if (auth.kind === 'main') return 'main';
  // Held as a digest: what is kept per key stays small whatever a client sends.
  const digest = (text: string) => createHash('sha256').update(text).digest('base64');
  return auth.kind === 'key' ? `key ${digest(auth.key)}` : `header ${digest(auth.value)}`;
}

/** Whether `later` (sent after `earlier` was answered) is certainly in `earlier`'s window. */
function sameWindow(earlier: Seen, later: Seen): boolean {
  if (earlier.reset >= UNIX_TIME_FROM || later.reset >= UNIX_TIME_FROM)
    return earlier.reset === later.reset && earlier.reset >= UNIX_TIME_FROM;
  // The server counted earlier.reset seconds no sooner than the earlier request was sent; rounded
  // up, the window then had more than reset - 1 seconds left.
  return later.receivedAt < earlier.sentAt + (earlier.reset - 1) * 1000;
}

export class RateWindows {
  private readonly last = new Map<string, Seen>();

  constructor(private readonly spec: Spec) {}

  /** Problems of one exchange against the ones before it; undefined when the check does not apply. */
  observe(exchange: Exchange): string[] | undefined {
    if (exchange.error !== undefined || exchange.sentAt === undefined || exchange.receivedAt === undefined)
      return undefined;
    // A refused key may be bucketed by anything (an address): only keys the server took part.
    if (exchange.status === 401) return undefined;
    const key = keyOf(exchange);
    if (key === undefined) return undefined;
    const names = this.spec.rateLimitHeaders;
    const limit = numeric(exchange.headers.get(names.limit));
    const remaining = numeric(exchange.headers.get(names.remaining));
    const reset = numeric(exchange.headers.get(names.reset));
    // Missing or malformed values are response.rate-limit-headers' to report.
    if (limit === undefined || remaining === undefined || reset === undefined) return undefined;
    const limits = this.spec.contract.limits;
    const write = limits.writeMethods.includes(exchange.request.method.toUpperCase());
    const documented = write ? limits.writeRequestsPerSecond : limits.readRequestsPerSecond;
    const path = exchange.request.path;
    const where = `${exchange.request.method} ${path.length > 200 ? `${path.slice(0, 200)}…` : path} → ${exchange.status}`;
    const problems: string[] = [];
    if (limit !== documented)
      problems.push(
        `${where}: ${names.limit} ${limit}, but the documented ${write ? 'write' : 'read'} limit is ${documented}`,
      );

    const track = `${write ? 'write' : 'read'} ${key}`;
    const seen: Seen = { remaining, reset, sentAt: exchange.sentAt, receivedAt: exchange.receivedAt, where };
    const before = this.last.get(track);
    if (
      before !== undefined &&
      seen.sentAt >= before.receivedAt &&
      sameWindow(before, seen) &&
      remaining > before.remaining
    ) {
      problems.push(
        `${where}: ${names.remaining} rose from ${before.remaining} (${before.where}) to ${remaining} inside one window (${names.reset} ${before.reset}, then ${reset})`,
      );
    }
    // Keep the latest answer; a request that overlapped the last one is compared no further.
    if (before === undefined || seen.sentAt >= before.receivedAt) this.remember(track, seen);
    return problems;
  }

  /** Most keys followed at once: a proxy sees any number, so the least recently answered is forgotten. */
  static readonly MAX_TRACKED = 10_000;

  get tracked(): number {
    return this.last.size;
  }

  private remember(track: string, seen: Seen): void {
    this.last.delete(track);
    this.last.set(track, seen);
    if (this.last.size > RateWindows.MAX_TRACKED) this.last.delete(this.last.keys().next().value as string);
  }
}
