// What a broken request changed against the request it was made from: the one parameter left
// out (for an error that must name it), or the one value replaced (for a message that must
// include it). Path and query parameters and top-level body fields are compared.
import { isObject } from '@svc/spec-runtime';
import type { OpRequest } from '../expectations/expect.js';

/** The places of a request as flat maps of name to value. */
function placesOf(r: OpRequest): Array<Record<string, unknown>> {
  return [r.params ?? {}, r.query ?? {}, isObject(r.body) ? r.body : {}];
}

interface Change {
  name: string;
  before: unknown;
  after: unknown;
}

function changes(base: OpRequest, broken: OpRequest): Change[] {
  const before = placesOf(base);
  const after = placesOf(broken);
  return before.flatMap((place, i) => {
    const other = after[i] ?? {};
    const names = new Set([...Object.keys(place), ...Object.keys(other)]);
    return [...names]
      .filter((name) => JSON.stringify(place[name]) !== JSON.stringify(other[name]))
      .map((name) => ({ name, before: place[name], after: other[name] }));
  });
}

/** The one parameter or field the broken request left out, if that is all it changed. */
export function missingName(base: OpRequest, broken: OpRequest): string | undefined {
  const [only, ...more] = changes(base, broken);
  return only && more.length === 0 && only.before !== undefined && only.after === undefined ? only.name : undefined;
}

/**
 * The one value the broken request sent instead, or added (as text), if that is all it changed and it can
 * be read in a message: not blank, and short enough that a message need not cut it.
 */
export function brokenValue(base: OpRequest, broken: OpRequest): string | undefined {
  const [only, ...more] = changes(base, broken);
  if (!only || more.length > 0) return undefined;
  const value = only.after;
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const text = String(value);
  return text.trim() !== '' && text.length <= 64 ? text : undefined;
}
