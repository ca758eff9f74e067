// How a per-exchange check is written: one entry, registered in the order the checks' outcomes
// are reported, with its description (check-descriptions.ts, as for a rule() entry) and two pure
// functions of the response seen: whether the check applies to it, and the problems it finds.
// A problem is the check's own: no entry reads what another found. Where two could report the
// same fact (a header spec-runtime finds missing), the entries say which owns it (`ownsHeaders`,
// `leavesHeaders`). responseOutcomes (response.ts) runs them; verdict.ts decides.
import { type CheckDescription, describeCheck } from '../check-descriptions.js';
import type { Exchange } from '../http/exchange.js';
import type { Spec } from '../spec.js';

/** One response, as every per-exchange check sees it. */
export interface Seen {
  spec: Spec;
  exchange: Exchange;
  /** The response body, or undefined when there is none. */
  body: unknown;
  /** `METHOD path → status`: how messages name the response. */
  where: string;
  /** The server is a mock (profile mock) that cannot echo what was asked or keep what it was told. */
  stateless: boolean;
}

export interface ExchangeCheck extends CheckDescription {
  /**
   * The problems of this response (messages as the report shows them), or undefined where the
   * check does not apply to it; one that applies passes unless it finds a problem.
   */
  problems: (seen: Seen) => string[] | undefined;
  /** Judges the exchanges that got no answer (a connection failure, a timeout), and only those; every other check judges answers. */
  withoutAnswer?: boolean;
  /** The headers whose problems are this check's (spec-runtime's header problems included). */
  ownsHeaders?: (spec: Spec) => readonly string[];
  /** The checks whose headers (ownsHeaders) this one leaves to them. */
  leavesHeaders?: readonly string[];
}

const entries: ExchangeCheck[] = [];

/** Declares a per-exchange check: its description goes to the catalogue, the check to responseOutcomes. */
export function exchangeCheck(entry: ExchangeCheck): ExchangeCheck {
  const { id, title, source, enforces, precondition } = entry;
  describeCheck({ id, title, source, ...(enforces ? { enforces } : {}), ...(precondition ? { precondition } : {}) });
  if (entries.some((e) => e.id === id)) throw new Error(`The per-exchange check ${id} is declared twice.`);
  entries.push(entry);
  return entry;
}

/** Every per-exchange check, in declaration order. */
export function exchangeChecks(): readonly ExchangeCheck[] {
  return entries;
}

/** The headers the given checks own, lower case. */
export function headersOwnedBy(spec: Spec, checks: readonly string[]): Set<string> {
  return new Set(
    entries
      .filter((e) => checks.includes(e.id))
      .flatMap((e) => e.ownsHeaders?.(spec) ?? [])
      .map((name) => name.toLowerCase()),
  );
}
