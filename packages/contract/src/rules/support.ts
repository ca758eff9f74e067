// Small helpers shared by the scenario files.
import { isDeepStrictEqual as deepEqual } from 'node:util';
import { isObject, type JsonObject, type Operation } from '@svc/spec-runtime';
import { scopeStanding } from '@svc/spec-runtime/facts';
import { type ApiRequest, dataOf, type Exchange, header } from '../http/exchange.js';
import type { ConfigKey } from '../types.js';
import { type CheckContext, checkDescription, type Held, type Problem } from './harness.js';
import { unless } from './problems.js';

/** Idempotent writes replayed: an entry per operation and method that promises it (or, on a PATCH, allows it). */
export const IDEMPOTENCY_REPLAY = checkDescription({
  id: 'idempotency.replay',
  title:
    "Every repeat of a key replays the stored response (Idempotency-Replayed: true, same body) without executing again where replay is promised (POST, PUT, DELETE; a search and the batch read too), the conversation action's last repeat sent with another body; on a PATCH, where it is not, a replay or a new execution",
  source:
    'IdempotencyKeyParameter ("The same key sent again to the same endpoint returns the stored response with the header Idempotency-Replayed: true, and the operation is not re-executed"); PatchIdempotencyKeyParameter x-svc-inferred.replay',
  precondition:
    "a successful keyed write (a search and the batch read too: POST), repeated with its key three times (the conversation action's last repeat with another body)",
});

/** A failed keyed write leaves its key usable: one entry per operation it is sent on. */
export const FAILED_NOT_CONSUMED = checkDescription({
  id: 'idempotency.failed-not-consumed',
  title: 'A failed request does not consume its key: the same key on a request that succeeds is executed, not replayed',
  source: 'IdempotencyKeyParameter ("When the request fails (4xx or 5xx), the key is not consumed and can be retried")',
  precondition:
    "a keyed request that failed, then the same key on a valid request: a blank comment (twice), then a comment; a DELETE of a tag the item does not carry (404), then the same DELETE once the tag is added; another such failed DELETE's key then sent on the add (another endpoint)",
});

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

/**
 * Keys of the team, not the run's, that may call the operation: one line-limited key and one active
 * key at most. Their owners are not declared, so two kinds of key make it likelier that one is
 * someone else's.
 */
export function otherCallers(t: CheckContext, op: Operation = t.op()): ConfigKey[] {
  const may = (k: ConfigKey) => k.key !== t.config.apiKey && scopeStanding(op, k.scopes) !== 'insufficient';
  const kindOf = (k: ConfigKey) => k.kind ?? 'active';
  const ofKind = (kind: string) => t.config.config.keys.find((k) => kindOf(k) === kind && may(k));
  return [ofKind('line-limited'), ofKind('active')].filter((k): k is ConfigKey => k !== undefined);
}

/**
 * A skip for a state the server keeps to itself where the description shows no field of it (a
 * conversation's read state; options a list may leave out): no run could judge the rule there, so
 * it is skipped by option, not counted, as a state the API cannot bring about is.
 */
export function notObservable(t: CheckContext, what: string): never {
  return t.skip(`not observable: ${what}`, 'option');
}

/** The members removed from the team the config names (no operation removes one), or a skip by option. */
export function removedMembers(t: CheckContext): string[] {
  const named = t.config.config.fixtures.removed_user_ids ?? [];
  if (named.length > 0) return named;
  return t.skip(
    'no removed member named (fixtures.removed_user_ids): the API removes none, so only a server that has one can name it',
    'option',
  );
}

/**
 * Equal as the description shows them: arrays as sets of entries (the order of a queue's number
 * entries is not stated; each carries its position), everything else structurally.
 */
export function sameEntries(a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) || !Array.isArray(b)) return deepEqual(a, b);
  if (a.length !== b.length) return false;
  const rest = [...b];
  return a.every((x) => {
    const i = rest.findIndex((y) => deepEqual(x, y));
    return i >= 0 && rest.splice(i, 1).length === 1;
  });
}

/** Kinds of config key that are not of the run's team, or may not call at all. */
export const NOT_A_TEAM_CALLER = new Set(['revoked', 'trial', 'other-team', 'legacy-workspace']);

/**
 * Keys of the run's team, other than the run's, that may read through `read` on `line`: a
 * line-limited one (where its lines include it), one that may not also write through `write`, and
 * one that may; the first of each in the config. A server keeping a copy per key shows it only to
 * a key that read before a write and reads after it, whichever kind of key it keeps copies for.
 */
export function teamReaders(t: CheckContext, read: Operation, write: Operation, line: string): ConfigKey[] {
  const team = t.config.config.keys.filter(
    (k) =>
      k.key !== t.config.apiKey &&
      !NOT_A_TEAM_CALLER.has(k.kind ?? 'active') &&
      (k.kind !== 'line-limited' || (k.lines ?? []).includes(line)) &&
      scopeStanding(read, k.scopes) !== 'insufficient',
  );
  const writes = (k: ConfigKey) => scopeStanding(write, k.scopes) !== 'insufficient';
  const picks = [
    team.find((k) => k.kind === 'line-limited'),
    team.find((k) => k.kind !== 'line-limited' && !writes(k)),
    team.find((k) => k.kind !== 'line-limited' && writes(k)),
  ];
  return picks.filter((k): k is ConfigKey => k !== undefined);
}

/** A teammate with an email: from the config, or from the user list where its entries show one (with the id beside it). */
export interface Teammate {
  email: string;
  /** Known where the user list shows the teammate's id beside the email (its shape is not shown). */
  id?: string;
  from: string;
}

/** Teammates with an email, from the config first, then the user list where its entries show one. */
export async function teammates(t: CheckContext): Promise<Teammate[]> {
  const configured = (t.config.config.fixtures.teammate_emails ?? []).map((email) => ({
    email,
    from: 'fixtures.teammate_emails',
  }));
  const listed = await t.call({}, {}, 'listUsers');
  const entries = isObject(listed.body) && Array.isArray(listed.body.data) ? listed.body.data : [];
  const shown = entries.flatMap((u) =>
    isObject(u) && typeof u.email === 'string' && u.email !== '' && typeof u.id === 'string'
      ? [{ email: u.email, id: u.id, from: 'GET /v2/api/users' }]
      : [],
  );
  return [...configured, ...(shown.length > 0 ? shown : await teammatesReadById(t))];
}

/** Where the user list shows no email (its shape is not shown), each known user read by id may (read once a run). */
function teammatesReadById(t: CheckContext): Promise<Teammate[]> {
  return t.once('teammates-read-by-id', async () => {
    const read: Teammate[] = [];
    for (const id of (await t.fixtures()).users.slice(0, t.config.fixturesPerKind ?? 20)) {
      const email = data(await t.call({ params: { id } }, {}, 'getUser'))?.email;
      if (typeof email === 'string' && email !== '') read.push({ email, id, from: `GET /v2/api/users/${id}` });
    }
    return read;
  });
}

/** The first key the config declares of a kind (another team's, a line-limited one, a revoked one, …). */
export function keyOfKind(t: CheckContext, kind: NonNullable<ConfigKey['kind']>): ConfigKey | undefined {
  return t.config.config.keys.find((k) => k.kind === kind);
}

/** The config's key of another team, or a skip (by option: none declared). */
export function otherTeamKey(t: CheckContext): ConfigKey {
  return (
    keyOfKind(t, 'other-team') ?? t.skip('no key of another team declared in --config ("kind": "other-team")', 'option')
  );
}

/** The object whose `id` is `id` in an answer, wherever its shape (not shown, or a list's) puts it. */
export function objectWithId(value: unknown, id: string, depth = 0): Json | undefined {
  if (depth > 6 || value === null || typeof value !== 'object') return undefined;
  if (!Array.isArray(value) && (value as Json).id === id) return value as Json;
  for (const child of Object.values(value)) {
    const found = objectWithId(child, id, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * How long to wait before a write that must change nothing (a repeat, a replay): timestamps may
 * count whole seconds, and a write a second later that touches one moves it where it shows.
 */
export const TIMESTAMP_TICK_MS = 1100;

/** Where two JSON values first differ (`data.comments[2].id`) and what each holds there; undefined when equal. */
export function firstDifference(
  stored: unknown,
  got: unknown,
  at = '',
): { at: string; stored: unknown; got: unknown } | undefined {
  if (deepEqual(stored, got)) return undefined;
  if (Array.isArray(stored) && Array.isArray(got) && stored.length === got.length) {
    const i = stored.findIndex((entry, n) => !deepEqual(entry, got[n]));
    return firstDifference(stored[i], got[i], `${at}[${i}]`);
  }
  if (isObject(stored) && isObject(got)) {
    const key = [...new Set([...Object.keys(stored), ...Object.keys(got)])].find((k) => !deepEqual(stored[k], got[k]));
    if (key !== undefined) return firstDifference(stored[key], got[key], at ? `${at}.${key}` : key);
  }
  return { at: at || '(the whole body)', stored, got };
}

/**
 * `again` must be the stored response of `first` replayed: the same status and body, marked
 * replayed. The problem names each of the three it broke, and where the body first differs.
 */
export function storedReplayProblems(what: string, first: Exchange, again: Exchange, replayed: string): Problem[] {
  const marked = header(again, replayed);
  const body = firstDifference(first.body, again.body);
  const broken = [
    ...(again.status === first.status ? [] : [`status ${again.status}`]),
    ...(marked === 'true' ? [] : [`${replayed}: ${JSON.stringify(marked ?? null)}`]),
    ...(body ? [`a body unlike the stored one at ${body.at}: ${short(body.got)} (stored: ${short(body.stored)})`] : []),
  ];
  return unless(
    broken.length === 0,
    `${what}: expected the stored ${first.status} with ${replayed}: true, got ${broken.join('; ')}`,
    again,
  );
}

/** What a request sent with another key of the config adds to it (nothing for the run's own key). */
export function asKey(key?: Pick<ConfigKey, 'key'>): Partial<ApiRequest> {
  return key ? { auth: { kind: 'key', key: key.key } } : {};
}

export function short(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/** A keyed write whose response is stored "for 1 hour": a repeat later in the run must still be its replay. */
export interface KeptKey {
  what: string;
  first: Exchange;
  /** When the first write was answered (ms since the epoch). */
  at: number;
  /** The first write's request, sent again with its key. */
  resend: () => Promise<Exchange>;
}

/** The keyed writes whose replay was promised and held, this run (one list per run, filled as they are made). */
export function keptKeys(t: CheckContext): Promise<KeptKey[]> {
  return t.once('idempotency-kept-keys', async () => [] as KeptKey[]);
}

/** A keyed write and the three repeats of its key (none when the keyed write itself failed). */
export interface Repeats {
  what: string;
  first: Exchange;
  again: Exchange[];
  /** The X-Request-Id each repeat was sent with (its own), and the header that must answer it. */
  requestIds: { header: string; sent: string[] };
  /** The first write's request sent with the same key by another team's key (a replay promised, such a key declared). */
  otherTeam?: Exchange;
}

/** What a keyed send adds to its request: the key, and for another team's send, its credentials. */
export type Keyed = Pick<ApiRequest, 'idempotencyKey'> & Partial<Pick<ApiRequest, 'auth' | 'requestId'>>;

/**
 * The X-Request-Id a repeat of a key is sent with: its own, so that a replay answering the stored
 * request's id instead shows ("If the client sends an X-Request-Id header, that value is used").
 */
const repeatRequestId = (idempotencyKey: string, repeat: number) => `${idempotencyKey}-repeat-${repeat}`;

/**
 * Sends a write with a fresh Idempotency-Key, then (if it succeeded) the same key three times;
 * `send` is told which send it is (0 the first, 1 to 3 the repeats). Where a replay is promised
 * and the config declares a key of another team, the first request is sent once more with the
 * same key by that team: a stored response belongs to the team whose request made it ("A key
 * belongs to a single team"), so that team's answer is its own, never the stored one replayed.
 */
export async function sendRepeats(
  t: CheckContext,
  what: string,
  purpose: 'replay' | 'repeat',
  send: (keyed: Keyed, repeat: number) => Promise<Exchange>,
): Promise<Repeats> {
  const idempotencyKey = `svc-contract-${t.config.runId}-${purpose}-${what.replace(/[^A-Za-z0-9]+/g, '-')}`;
  const first = await send({ idempotencyKey }, 0);
  const again: Exchange[] = [];
  const requestIds = { header: t.spec.requestIdHeader, sent: [] as string[] };
  if (!ok(first)) return { what, first, again, requestIds };
  for (let n = 1; n <= 3; n++) {
    const requestId = repeatRequestId(idempotencyKey, n);
    requestIds.sent.push(requestId);
    again.push(await send({ idempotencyKey, requestId }, n));
  }
  if (purpose === 'replay') {
    const requestId = repeatRequestId(idempotencyKey, again.length + 1);
    (await keptKeys(t)).push({ what, first, at: Date.now(), resend: () => send({ idempotencyKey, requestId }, 0) });
  }
  const other = keyOfKind(t, 'other-team');
  if (purpose !== 'replay' || !other) return { what, first, again, requestIds };
  const otherTeam = await send({ idempotencyKey, auth: { kind: 'key', key: other.key } }, 0);
  return { what, first, again, requestIds, otherTeam };
}

function keyedWriteProblems({ what, first }: Repeats): Problem[] {
  return unless(ok(first), `${what} with an Idempotency-Key: expected 2xx, got ${first.status}`, first);
}

/**
 * Each repeat answered with the X-Request-Id it was sent with: the stored response is replayed, the
 * request id is this request's own ("If the client sends an X-Request-Id header, that value is used").
 */
function repeatRequestIdProblems({ what, again, requestIds }: Repeats): Problem[] {
  return again.flatMap((x, i) => {
    const [sent, echoed] = [requestIds.sent[i], header(x, requestIds.header)];
    return unless(
      sent === undefined || echoed === sent,
      `${what}, repeat ${i + 1} of the key, sent with ${requestIds.header} ${sent}: answered ${JSON.stringify(echoed ?? null)} (the request id of the request replayed, not its own)`,
      x,
    );
  });
}

/**
 * The idempotency replay rule on one write: the keyed request succeeds, and every repeat of the
 * key (three) answers the stored response, marked replayed, with the same status and body, and
 * the request id it was sent with.
 */
export function replayProblems(repeats: Repeats, replayed: string): Problem[] {
  const { what, first, again, otherTeam } = repeats;
  if (!ok(first)) return keyedWriteProblems(repeats);
  return [
    ...(otherTeam
      ? unless(
          header(otherTeam, replayed) !== 'true',
          `${what}, sent with the same key by another team's key: expected that team's own answer, got one marked ${replayed}: true (${otherTeam.status})`,
          otherTeam,
        )
      : []),
    ...unless(header(first, replayed) !== 'true', `${what}: the first execution says ${replayed}: true`, first),
    ...again.flatMap((x, i) => storedReplayProblems(`${what}, repeat ${i + 1} of the key`, first, x, replayed)),
    ...repeatRequestIdProblems(repeats),
  ];
}

/**
 * Repeats of a key where the contract does not promise replay (a PATCH: x-svc-inferred.replay on
 * its Idempotency-Key parameter): each repeat may be the stored response replayed or the update
 * executed again; both readings pass. What holds either way is checked: every repeat succeeds (the
 * echo of the key is a response check), and a repeat marked replayed is the stored response.
 */
export function unpromisedRepeatProblems(repeats: Repeats, replayed: string): Problem[] {
  const { what, first, again } = repeats;
  if (!ok(first)) return keyedWriteProblems(repeats);
  return [
    ...again.flatMap((x, i) =>
      header(x, replayed) === 'true'
        ? unless(
            x.status === first.status && deepEqual(x.body, first.body),
            `${what}, repeat ${i + 1} of the key says ${replayed}: true but is not the stored ${first.status}: got ${x.status} ${short(x.body)}`,
            x,
          )
        : unless(ok(x), `${what}, repeat ${i + 1} of the key: expected 2xx, got ${x.status}`, x),
    ),
    ...repeatRequestIdProblems(repeats),
  ];
}

/** What unpromised repeats showed of this server, and the readings they accepted (for the report). */
export function unpromisedRepeatsHeld(repeats: Repeats, replayed: string, method: string): Held {
  const seen = new Set(repeats.again.map((x) => (header(x, replayed) === 'true' ? 'replayed' : 'executed again')));
  return {
    detail: `${repeats.what}: 3 repeats (this server: ${[...seen].join(', ')})`,
    readings: `a replay of the stored response or a new execution of each repeat: replay is not promised on ${method} (x-svc-inferred.replay)`,
  };
}
