// Small helpers shared by the scenario files.
import { isDeepStrictEqual as deepEqual } from 'node:util';
import { isObject, type JsonObject } from '@svc/spec-runtime';
import { dataOf, type Exchange, header } from '../http/exchange.js';
import type { CheckContext } from './harness.js';

export type Json = Record<string, unknown>;

/** Structural equality of JSON values (object key order ignored). */
export { deepEqual };

export function ok(exchange: Exchange): boolean {
  return exchange.error === undefined && exchange.status >= 200 && exchange.status < 300;
}

export function data(exchange: Exchange): Json | undefined {
  const d = dataOf(exchange);
  return isObject(d) ? d : undefined;
}

/** The value at a dotted path (knowledge.text, scheduling.calendars). */
export function at(value: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), value);
}

/** An object with a value at a dotted path ({ scheduling: { calendars: ... } }). */
export function nest(path: string, value: unknown): Json {
  const keys = path.split('.');
  return keys.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value) as Json;
}

/** Text that says where it came from, so probe data left on a staging server explains itself. */
export function probeText(t: CheckContext, what: string): string {
  return `svc-contract ${what} (run ${t.config.runId})`;
}

/** The length limits of a string schema (minLength and maxLength, each only where it binds), in the order asked. */
export function lengthLimits(
  schema: JsonObject | undefined,
  keywords: ReadonlyArray<'minLength' | 'maxLength'> = ['minLength', 'maxLength'],
): Array<{ keyword: 'minLength' | 'maxLength'; n: number }> {
  return keywords.flatMap((keyword) => {
    const n = schema?.[keyword];
    return typeof n === 'number' && n > 0 ? [{ keyword, n }] : [];
  });
}

export function short(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/**
 * Repeats of a key where the contract does not promise replay (a PATCH: x-svc-inferred.replay on
 * its Idempotency-Key parameter): each repeat may be the stored response replayed or the update
 * executed again; both readings pass. What holds either way is checked: every repeat succeeds (the
 * echo of the key is a response check), and a repeat marked replayed is the stored response.
 */
export async function expectUnpromisedRepeats(
  t: CheckContext,
  what: string,
  send: (idempotencyKey: string) => Promise<Exchange>,
): Promise<boolean> {
  const key = `svc-contract-${t.config.runId}-repeat-${what.replace(/[^A-Za-z0-9]+/g, '-')}`;
  const replayed = t.spec.idempotencyReplayedHeader;
  const first = await send(key);
  if (!t.expect(ok(first), `${what} with an Idempotency-Key: expected 2xx, got ${first.status}`, first)) return false;
  const seen = new Set<string>();
  for (const n of [1, 2, 3]) {
    const again = await send(key);
    const isReplay = header(again, replayed) === 'true';
    seen.add(isReplay ? 'replayed' : 'executed again');
    t.expect(
      isReplay ? again.status === first.status && deepEqual(again.body, first.body) : ok(again),
      isReplay
        ? `${what}, repeat ${n} of the key says ${replayed}: true but is not the stored ${first.status}: got ${again.status} ${short(again.body)}`
        : `${what}, repeat ${n} of the key: expected 2xx, got ${again.status}`,
      again,
    );
  }
  t.pass(
    `${what}: 3 repeats (this server: ${[...seen].join(', ')})`,
    undefined,
    `a replay of the stored response or a new execution of each repeat: replay is not promised on ${t.op().method} (x-svc-inferred.replay)`,
  );
  return true;
}

/**
 * The idempotency replay rule on one write: the keyed request succeeds, and every repeat of the
 * key (three) answers the stored response, marked replayed, with the same status and body.
 * false when the keyed request itself failed.
 */
export async function expectReplays(
  t: CheckContext,
  what: string,
  send: (idempotencyKey: string) => Promise<Exchange>,
): Promise<boolean> {
  const key = `svc-contract-${t.config.runId}-replay-${what.replace(/[^A-Za-z0-9]+/g, '-')}`;
  const replayed = t.spec.idempotencyReplayedHeader;
  const first = await send(key);
  if (!t.expect(ok(first), `${what} with an Idempotency-Key: expected 2xx, got ${first.status}`, first)) return false;
  t.expect(header(first, replayed) !== 'true', `${what}: the first execution says ${replayed}: true`, first);
  for (const n of [1, 2, 3]) {
    const again = await send(key);
    t.expect(
      again.status === first.status && header(again, replayed) === 'true' && deepEqual(again.body, first.body),
      `${what}, repeat ${n} of the key: expected the stored ${first.status} with ${replayed}: true, got ${again.status} (${replayed}: ${JSON.stringify(header(again, replayed) ?? null)}) ${short(again.body)}`,
      again,
    );
  }
  t.pass(`${what}: 3 repeats replayed`);
  return true;
}
