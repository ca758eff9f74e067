// described.order: whether a list in a response comes in the order an x-svc-response-rules entry
// of kind `order` states. Timestamps are compared as instants only where both carry a zone or
// both carry none: the description allows zone-less timestamps, whose instant is not certain
// beside a zoned one, so such a pair proves nothing either way.
import type { Exchange } from '../http/exchange.js';
import { type OrderRule, valueAtPath } from '../reach/response-rules.js';
import type { Problem } from './harness.js';
import { short } from './support.js';

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;
const ZONE = /(Z|[+-]\d{2}:?\d{2})$/i;

type Key = { kind: 'time'; zoned: boolean; ms: number } | { kind: 'number'; n: number } | { kind: 'text'; s: string };

function keyOf(value: unknown): Key | undefined {
  if (typeof value === 'number') return { kind: 'number', n: value };
  if (typeof value !== 'string') return undefined;
  if (!DATE_TIME.test(value)) return { kind: 'text', s: value };
  const zoned = ZONE.test(value);
  // A zone-less value is read as UTC: only compared with other zone-less values, so the zone cancels out.
  const ms = Date.parse(zoned ? value : `${value}Z`);
  return Number.isNaN(ms) ? undefined : { kind: 'time', zoned, ms };
}

/** -1, 0 or 1 where the two keys can be compared; undefined where they cannot. */
export function compareKeys(a: Key, b: Key): number | undefined {
  if (a.kind === 'time' && b.kind === 'time') return a.zoned === b.zoned ? Math.sign(a.ms - b.ms) : undefined;
  if (a.kind === 'number' && b.kind === 'number') return Math.sign(a.n - b.n);
  if (a.kind === 'text' && b.kind === 'text') return a.s < b.s ? -1 : a.s > b.s ? 1 : 0;
  return undefined;
}

/** The first pair of entries (every pair, not only neighbours) out of the stated order, if any. */
export function outOfOrder(
  entries: unknown[],
  by: string,
  direction: OrderRule['direction'],
): [number, number] | undefined {
  const keys = entries.map((e) => keyOf(valueAtPath(e, by)));
  const wrong = direction === 'ascending' ? 1 : -1;
  for (let i = 0; i < keys.length; i++)
    for (let j = i + 1; j < keys.length; j++) {
      const a = keys[i];
      const b = keys[j];
      if (a && b && compareKeys(a, b) === wrong) return [i, j];
    }
  return undefined;
}

export function orderProblems(entry: OrderRule, exchange: Exchange): Problem[] {
  if (exchange.error !== undefined || exchange.status < 200 || exchange.status >= 300)
    return [{ message: `${entry.rule}: the read failed (${exchange.error ?? exchange.status})`, exchange }];
  const entries = valueAtPath(exchange.body, entry.array);
  if (!Array.isArray(entries)) return [{ message: `${entry.rule}: no list at ${entry.array}`, exchange }];
  const pair = outOfOrder(entries, entry.by, entry.direction);
  if (!pair) return [];
  const [i, j] = pair;
  const at = (n: number) => short(valueAtPath(entries[n], entry.by));
  return [
    {
      message: `${entry.rule}: ${entry.array}[${i}] (${entry.by} ${at(i)}) comes before ${entry.array}[${j}] (${at(j)}), not in ${entry.direction} order of ${entry.by}`,
      exchange,
    },
  ];
}
