// The generated checks of who may call an operation: no key, a malformed header, an unknown key,
// a key lacking the scope and one holding it, and the keys the config declares by kind (revoked,
// trial plan, limited to some lines). Each is one rule() entry; the keys come from the config.
import { deref, isObject, type Operation, propertiesOf, requiredOf } from '@svc/spec-runtime';
import { isScopeInferred, scopeStanding } from '@svc/spec-runtime/facts';
import { documentedCodes, type Expected, errorProblems, listedCode, type OpRequest } from '../expectations/expect.js';
import {
  describeReadings,
  INSUFFICIENT_SCOPE,
  LINE_FORBIDDEN,
  lineAccessReadings,
  scopeRefusalReading,
  withReadings,
} from '../expectations/readings.js';
import { negativeCases } from '../generate/negatives.js';
import { isPhone } from '../generate/schema.js';
import { type ApiRequest, dataOf, type Exchange, errorOf } from '../http/exchange.js';
import { caseSwapped, redactedAnywhere } from '../redact.js';
import type { Spec } from '../spec.js';
import type { ConfigKey } from '../types.js';
import { type CheckContext, checkDescription, rule } from './harness.js';
import { documentedHeaders, type OperationUnderTest } from './operation-context.js';
import { errorsOf, statusIs, unless } from './problems.js';
import { keyOfKind } from './support.js';

/** The codes of the key kinds' refusals: the description names each, and the operations list them. */
export const REVOKED = 'API_KEY_REVOKED';
export const TRIAL_NOT_ALLOWED = 'API_KEY_TRIAL_NOT_ALLOWED';
/** A workspace not on the new contact model (TEAM_NOT_FOUND's own meaning): its key gets this where the operation lists it. */
export const TEAM_NOT_FOUND = 'TEAM_NOT_FOUND';

const isActive = (key: ConfigKey) => (key.kind ?? 'active') === 'active';
const scopesText = (op: Operation, join: string) => op.security.map((a) => a.join('+')).join(join);

/** Keys of the config that hold none of the operation's scope alternatives (fewest scopes first). */
export function keysLackingScope(op: Operation, keys: readonly ConfigKey[]): ConfigKey[] {
  const lacks = (key: ConfigKey) =>
    op.security.length > 0 && op.security.every((alt) => alt.some((scope) => !key.scopes.includes(scope)));
  const holdsNone = (key: ConfigKey) => !op.security.flat().some((scope) => key.scopes.includes(scope));
  return keys.filter((k) => isActive(k) && lacks(k) && holdsNone(k)).sort((a, b) => a.scopes.length - b.scopes.length);
}

/** The resource a scope names (THREADS of THREADS_READ), and whether it grants writing. */
const resourceOfScope = (scope: string) => scope.replace(/_(READ_WRITE|READ|WRITE)$/, '');
const grantsWriting = (scope: string) => scope.endsWith('_WRITE');

/**
 * Keys lacking the operation's scopes but holding the one next to them, and what they hold: for a
 * scope that writes, every key holding the read scope of the same resource (read but not write:
 * a server may let one such key through and not another, as it may check a key's name or its
 * scope list), else one holding the write scope of another resource; for a read scope, every key
 * holding the plain write scope of the same resource (a server may take writing to imply reading),
 * and one holding the read scope of another resource. A server that checks only the resource, or only reading
 * against writing, lets them through.
 */
export function neighbourKeys(op: Operation, keys: readonly ConfigKey[]): Array<{ key: ConfigKey; why: string }> {
  const required = op.security.flat();
  const lacking = keysLackingScope(op, keys);
  const fitting = (fits: (held: string, needed: string) => boolean) =>
    lacking.filter((k) => k.scopes.some((held) => required.some((needed) => fits(held, needed))));
  const readOfSame = fitting(
    (held, needed) =>
      grantsWriting(needed) && !grantsWriting(held) && resourceOfScope(held) === resourceOfScope(needed),
  );
  if (readOfSame.length > 0) return readOfSame.map((key) => ({ key, why: 'the read scope of the same resource' }));
  // A plain write scope (TAGS_WRITE, not a _READ_WRITE one) is not the read scope of its resource.
  const writeOfSame = fitting(
    (held, needed) =>
      !grantsWriting(needed) &&
      held.endsWith('_WRITE') &&
      !held.endsWith('_READ_WRITE') &&
      resourceOfScope(held) === resourceOfScope(needed),
  ).map((key) => ({ key, why: 'the write scope of the same resource' }));
  const [sameAccess] = fitting(
    (held, needed) =>
      grantsWriting(held) === grantsWriting(needed) && resourceOfScope(held) !== resourceOfScope(needed),
  );
  if (!sameAccess) return writeOfSame;
  const access = required.some(grantsWriting) ? 'write' : 'read';
  return [...writeOfSame, { key: sameAccess, why: `the ${access} scope of another resource` }];
}

/**
 * Active keys that hold every scope of one alternative, closest first: the fewest scopes beyond
 * the alternative (a key holding exactly the documented scope shows a server that demands another).
 */
export function keysHoldingScope(
  op: Operation,
  keys: readonly ConfigKey[],
): Array<{ key: ConfigKey; extra: string[] }> {
  const fits = keys.filter(isActive).flatMap((key) => {
    const alternatives = op.security.filter((alt) => alt.every((scope) => key.scopes.includes(scope)));
    if (alternatives.length === 0) return [];
    const extra = key.scopes.filter((scope) => !alternatives.some((alt) => alt.includes(scope)));
    return [{ key, extra }];
  });
  // Among equally close keys, one satisfying every reading of an ambiguous scope first: with it
  // the readings agree that it suffices.
  const readings = (key: ConfigKey) => (scopeStanding(op, key.scopes) === 'sufficient' ? 0 : 1);
  return fits.sort((a, b) => a.extra.length - b.extra.length || readings(a.key) - readings(b.key));
}

/** Optional top-level phone fields of the body: where a line goes when neither path nor query holds one. */
function bodyLineFields(spec: Spec, op: Operation): string[] {
  if (!op.requestBody) return [];
  const schema = deref(spec.contract, spec.resolve(op.requestBody.schemaPointer));
  const required = requiredOf(spec.contract, schema);
  return Object.entries(propertiesOf(spec.contract, schema))
    .filter(([name, prop]) => !required.includes(name) && isPhone(spec, prop))
    .map(([name]) => name);
}

/**
 * The request with a line the key may not access in every place a line goes: path phone numbers
 * that hold one of the team's lines, optional phone query parameters, and where neither holds one,
 * optional top-level phone fields of the body (svc_number). undefined when the request has no
 * place for a line.
 */
export function onLine(
  spec: Spec,
  op: Operation,
  request: OpRequest,
  lines: readonly string[],
  line: string,
): OpRequest | undefined {
  let placed = 0;
  const params = { ...request.params };
  for (const p of op.parameters.filter((x) => x.in === 'path' && isPhone(spec, x.schema))) {
    const value = params[p.name];
    if (value !== undefined && lines.includes(value)) {
      params[p.name] = line;
      placed++;
    }
  }
  const query = { ...request.query };
  for (const p of op.parameters.filter((x) => x.in === 'query' && !x.required && isPhone(spec, x.schema))) {
    query[p.name] = line;
    placed++;
  }
  let body = request.body;
  // A line in the path is the one thing changed; body fields only where the path holds none.
  if (placed === 0 && isObject(body)) {
    const fields = bodyLineFields(spec, op);
    for (const name of fields) body = { ...(body as Record<string, unknown>), [name]: line };
    placed += fields.length;
  }
  return placed > 0 ? { ...request, params, query, ...(body !== undefined ? { body } : {}) } : undefined;
}

let refused = 0;

/**
 * The documented headers of a request sent to be refused (its own request id, an Idempotency-Key
 * on a write): a refusal is a response like any other, so it answers the id sent and echoes the
 * key ("echoed on every response to a request that included it"), which the response checks read.
 */
function refusedHeaders(u: OperationUnderTest, t: CheckContext): Partial<ApiRequest> {
  return documentedHeaders(u.op, `${t.config.runId}-${u.op.operationId}-refused-${++refused}`);
}

/** Sends the baseline with other credentials (or none). */
async function withAuth(u: OperationUnderTest, t: CheckContext, auth: ApiRequest['auth']): Promise<Exchange> {
  return t.call(await u.baseline(t), { auth, ...refusedHeaders(u, t) });
}

/** A request that gets past authentication and scope without creating or deleting for real. */
interface PastAuth {
  request: OpRequest;
  /** Where the baseline is never sent as a success: an unknown id and its documented 404. */
  probe?: { label: string; expected: Expected };
}

/** The baseline with an unknown id (and its documented not-found), where the operation takes an id. */
const unknownIdCase = (u: OperationUnderTest, base: OpRequest) =>
  negativeCases(u.spec, u.op, base).find((c) => c.kind === 'negative.unknown-id');

async function pastAuth(u: OperationUnderTest, t: CheckContext): Promise<PastAuth> {
  const base = await u.baseline(t);
  // Where the suite never sends the baseline as a success (it would create or delete for
  // real), an unknown id shows the same thing: past the scope check, a documented 404.
  const probe = u.plan.success === false ? unknownIdCase(u, base) : undefined;
  return probe
    ? { request: probe.request, probe: { label: probe.label, expected: probe.expected } }
    : { request: base };
}

/**
 * Schemes other than the documented `Api-Key`, each sent with the run's own (valid) key: one per
 * operation, in turn through the contract's operations, so that a full run sends each of them.
 * '' is the key alone, with no scheme.
 */
const OTHER_SCHEMES = ['Bearer', 'bearer', 'Token', ''] as const;

/** The run's key in another scheme, for this operation; undefined where the key is redacted only after `Api-Key`. */
function otherScheme(u: OperationUnderTest, t: CheckContext): { value: string; label: string } | undefined {
  if (!redactedAnywhere(t.config.apiKey)) return undefined;
  const at = Math.max(0, u.spec.contract.operations.indexOf(u.op));
  const scheme = OTHER_SCHEMES[at % OTHER_SCHEMES.length] ?? '';
  return {
    value: scheme === '' ? t.config.apiKey : `${scheme} ${t.config.apiKey}`,
    label: scheme === '' ? "the run's key with no scheme" : `${scheme} <the run's key>`,
  };
}

interface Unauthenticated {
  what: string;
  exchange: Exchange;
}

/**
 * The baseline without valid credentials, and where the operation addresses a resource by id, the
 * same with an unknown id: the key is checked before the lookup, so a server that looks first and
 * answers 404 tells a caller with no valid key which ids exist.
 */
async function sendUnauthenticated(
  u: OperationUnderTest,
  t: CheckContext,
  auth: ApiRequest['auth'],
): Promise<Unauthenticated[]> {
  const base = await u.baseline(t);
  const unknown = unknownIdCase(u, base);
  const sent = [{ what: 'the baseline', exchange: await t.call(base, { auth, ...refusedHeaders(u, t) }) }];
  if (unknown)
    sent.push({ what: unknown.label, exchange: await t.call(unknown.request, { auth, ...refusedHeaders(u, t) }) });
  return sent;
}

/** A key no team holds; then the run's own key in another case (a server matching keys without case takes it). */
async function sendUnknownKeys(u: OperationUnderTest, t: CheckContext): Promise<Unauthenticated[]> {
  const sent = await sendUnauthenticated(u, t, { kind: 'key', key: `svc_contract_unknown_${t.config.runId}` });
  const swapped = caseSwapped(t.config.apiKey);
  if (swapped === undefined) return sent;
  const exchange = await t.call(await u.baseline(t), { auth: { kind: 'key', key: swapped }, ...refusedHeaders(u, t) });
  return [...sent, { what: "the baseline with the run's key, each letter in the other case", exchange }];
}

/** No key, a malformed Authorization header, an unknown key: each the documented 401. */
export function authenticationRules(u: OperationUnderTest): void {
  const { spec, op, where, changesData } = u;
  const unauthorized = (): Expected => ({
    status: 401,
    codes: documentedCodes(spec, op, 401),
    why: 'the request is not authenticated',
  });
  const unauthenticatedProblems = (sent: Unauthenticated[]) =>
    sent.flatMap((s) => errorsOf(s.exchange, unauthorized(), s.what));
  rule({
    id: 'auth.missing-key',
    title: 'No key: 401 with a code the operation lists, before any lookup (an unknown id too)',
    source: 'security + 401 response',
    precondition:
      'a request the server must refuse: no Authorization header, on the baseline and, where the operation takes an id, on an unknown id',
    ...where,
    needs: { writes: changesData },
    requests: (t) => sendUnauthenticated(u, t, { kind: 'none' }),
    problems: unauthenticatedProblems,
  });
  rule({
    id: 'auth.malformed-header',
    title:
      "Malformed Authorization header, or the run's valid key in a scheme other than Api-Key: 401 with a listed code",
    source:
      'security scheme + 401 response: "Every request carries an API key in the Authorization header, in the form Authorization: Api-Key <API_KEY>"',
    precondition:
      "a request the server must refuse: an Authorization header of another scheme (the run's valid key among them), or no key after Api-Key",
    ...where,
    needs: { writes: changesData },
    requests: async (t) => {
      const sent: Array<{ value: string; exchange: Exchange }> = [];
      for (const value of ['Bearer svc-contract-malformed', 'Api-Key'])
        sent.push({ value, exchange: await withAuth(u, t, { kind: 'header', value }) });
      const other = otherScheme(u, t);
      if (other) {
        const { request } = await pastAuth(u, t);
        const exchange = await t.call(request, { auth: { kind: 'header', value: other.value } });
        sent.push({ value: other.label, exchange });
      }
      return sent;
    },
    problems: (sent) => sent.flatMap((s) => errorsOf(s.exchange, unauthorized(), `Authorization: ${s.value}`)),
    held: (sent) =>
      sent
        .filter((s) => errorsOf(s.exchange, unauthorized()).length === 0)
        .map((s) => ({ detail: `Authorization: ${s.value}: ${s.exchange.status}` })),
  });
  rule({
    id: 'auth.unknown-key',
    title:
      "Unknown key: 401 with a listed code, before any lookup (an unknown id too); the run's key in another case is unknown too",
    source: '401 response; API_KEY_INVALID "Key invalid or does not exist"',
    precondition:
      "a request the server must refuse: a key no team holds, on the baseline and, where the operation takes an id, on an unknown id; the run's key with each letter's case swapped, on the baseline",
    ...where,
    needs: { writes: changesData, keys: true },
    requests: (t) => sendUnknownKeys(u, t),
    problems: unauthenticatedProblems,
  });
}

interface ScopeRefusal {
  key: ConfigKey;
  exchange: Exchange;
  expected: Expected;
  /** What the key holds, for the report: its scopes, and why it was chosen where it is the neighbour. */
  holds: string;
}

/** A key's scopes for the report: those it lacks where it holds most of them. */
export function holdingOf(spec: Spec, key: ConfigKey): string {
  const all = Object.keys(spec.contract.scopes);
  const lacking = all.filter((scope) => !key.scopes.includes(scope));
  if (key.scopes.length > all.length / 2) return `every scope but ${lacking.join(', ')}`;
  return key.scopes.join(', ') || 'no scope';
}

/**
 * The key with the fewest scopes that holds none of the operation's, where the config has them the
 * keys holding the scope next to the required one (neighbourKeys: for a write, every key holding
 * the read scope of the same resource), and the key with the most scopes that holds none of the
 * operation's (the sandboxes declare one holding every other scope: a server that takes any other
 * scope in its place lets it through): each the documented 403.
 * All but the first run where the baseline is never sent as a success only with its unknown-id
 * probe, so that a server letting the key through creates or deletes nothing.
 */
async function sendWithoutScope(u: OperationUnderTest, t: CheckContext): Promise<ScopeRefusal[]> {
  const { spec, op } = u;
  if (op.security.length === 0) return t.skip('the operation needs no scope');
  const keys = t.config.config.keys;
  const [key] = keysLackingScope(op, keys);
  if (!key)
    return t.skip(
      `no key in the config holds none of ${scopesText(op, ' / ')} (add one under "keys" with its scopes)`,
      'config',
    );
  const codes = documentedCodes(spec, op, 403).filter((c) => c === INSUFFICIENT_SCOPE);
  if (codes.length === 0) return t.skip(`${op.operationId} does not list ${INSUFFICIENT_SCOPE}`);
  const holding = (k: ConfigKey, also = '') => `${holdingOf(spec, k)}${also}`;
  const refusal = (k: ConfigKey, exchange: Exchange, also = ''): ScopeRefusal => ({
    key: k,
    exchange,
    expected: { status: 403, codes, why: `key "${k.name}" holds ${holding(k, also)}` },
    holds: holding(k, also),
  });
  const refusals = [refusal(key, await withAuth(u, t, { kind: 'key', key: key.key }))];
  const widest = keysLackingScope(op, keys).at(-1);
  const others = [
    ...neighbourKeys(op, keys),
    ...(widest ? [{ key: widest, why: "the most scopes of any key lacking the operation's" }] : []),
  ];
  for (const other of others) {
    if (refusals.some((r) => r.key === other.key)) continue;
    const { request } = await pastAuth(u, t);
    const exchange = await t.call(request, { auth: { kind: 'key', key: other.key.key }, ...refusedHeaders(u, t) });
    refusals.push(refusal(other.key, exchange, ` (${other.why})`));
  }
  return refusals;
}

/** Inferred (x-svc-inferred.scope) or alternative scopes: which one the 403 names is not certain. */
const scopeUncertain = (op: Operation) => isScopeInferred(op) || op.security.length > 1;

function scopeRefusalProblems(op: Operation, { key, exchange, expected }: ScopeRefusal) {
  const refused = errorsOf(exchange, expected);
  if (refused.length > 0 || scopeUncertain(op)) return refused;
  const error = errorOf(exchange);
  const text = `${String(error?.message ?? '')} ${String(error?.suggestion ?? '')}`;
  const missing = op.security.flatMap((alt) => alt.filter((scope) => !key.scopes.includes(scope)));
  return missing.flatMap((scope) =>
    unless(
      text.includes(scope),
      `the 403 does not name the missing scope ${scope}: ${JSON.stringify(error?.message)}`,
      exchange,
    ),
  );
}

/** A key holding none of the operation's scopes: the documented 403, naming the scope where it is certain. */
export function insufficientScopeRule(u: OperationUnderTest): void {
  const { op, where, changesData } = u;
  rule({
    id: 'auth.insufficient-scope',
    title: 'A key lacking the scope: 403 API_KEY_INSUFFICIENT_SCOPE naming the scope',
    source:
      'security requirement scopes + 403 response: "Key lacking the scope: HTTP 403, type permission_error, code API_KEY_INSUFFICIENT_SCOPE"',
    precondition:
      "a key of the team lacking every scope alternative of the operation, and, where the config has them, the keys holding the neighbouring scope (for a write, every key holding the read scope of the same resource but not the write scope, else one holding another resource's scope of the same access; for a read, every key holding the plain write scope of the same resource, and one holding another resource's read scope), and the key with the most scopes lacking the operation's (config keys with their scopes; the embedded and started sandboxes declare one per scope, and one per operation holding every scope but its own)",
    ...where,
    needs: { writes: changesData, keys: true },
    requests: (t) => sendWithoutScope(u, t),
    problems: (refusals) => refusals.flatMap((refusal) => scopeRefusalProblems(op, refusal)),
    passed: (refusals) => {
      const refused = `refused keys holding ${refusals.map((r) => r.holds).join('; ')}`;
      // Inferred or ambiguous scopes: only the refusal itself is certain, not which scope is named.
      if (!scopeUncertain(op)) return refused;
      const why = `${op.security.length > 1 ? 'ambiguous' : 'inferred'} (${scopesText(op, ' or ')})`;
      return {
        detail: `${refused}; the scope is ${why}, so its name is not checked`,
        readings: `a 403 naming any scope, or none: the scope is ${why}`,
      };
    },
  });
}

interface ScopeAcceptance {
  holds: string;
  exchange: Exchange;
  /** Where the baseline is never sent as a success: an unknown id and its documented 404. */
  probe?: { label: string; expected: Expected };
  /** One reading of an ambiguous scope refuses this key (then that refusal passes too). */
  refusal?: Expected;
  extra: string[];
}

async function sendWithScope(u: OperationUnderTest, t: CheckContext): Promise<ScopeAcceptance> {
  const { op } = u;
  const [choice] = keysHoldingScope(op, t.config.config.keys);
  if (!choice)
    return t.skip(
      `no key in the config holds exactly ${scopesText(op, ' or ')} (add one under "keys" with its scopes)`,
      'config',
    );
  const { request, probe } = await pastAuth(u, t);
  const exchange = await t.call(request, { auth: { kind: 'key', key: choice.key.key } });
  const refusal = scopeStanding(op, choice.key.scopes) === 'depends' ? scopeRefusalReading(op, choice.key) : undefined;
  return {
    holds: `key "${choice.key.name}" holds ${choice.key.scopes.join(', ')}`,
    exchange,
    ...(probe ? { probe } : {}),
    ...(refusal ? { refusal } : {}),
    extra: choice.extra,
  };
}

const refusedAsReadingSays = (s: ScopeAcceptance) =>
  s.refusal !== undefined && errorProblems(s.exchange, s.refusal).length === 0;

function scopeAcceptanceProblems(s: ScopeAcceptance) {
  // One reading of the scope refuses this key, another accepts it: neither is required.
  if (refusedAsReadingSays(s)) return [];
  if (s.probe) return errorsOf(s.exchange, s.probe.expected, `${s.holds}; ${s.probe.label}`);
  return statusIs(
    s.exchange,
    (status) => status !== 401 && status !== 403 && status < 500,
    `${s.holds}, which the operation's security requirement accepts`,
  );
}

function scopeAcceptanceDetail(s: ScopeAcceptance): string {
  if (refusedAsReadingSays(s)) return `${s.holds}: refused for scope, as one reading of the scope says`;
  if (s.probe || s.extra.length === 0) return `${s.holds}: ${s.exchange.status}`;
  return `${s.holds}: ${s.exchange.status} (it also holds ${s.extra.join(', ')}: a server demanding one of those would not be seen)`;
}

/** A key holding exactly the documented scope gets past the scope check. */
export function sufficientScopeRule(u: OperationUnderTest): void {
  const { op, where, changesData } = u;
  if (op.security.length === 0) return;
  rule({
    id: 'auth.sufficient-scope',
    title:
      'A key holding exactly the documented scope is not refused for scope (success, or a documented non-scope error)',
    source: 'security requirement scopes',
    precondition:
      "a key holding exactly the operation's scope (a config key with its scopes; the embedded and started sandboxes declare one per scope)",
    ...where,
    needs: { writes: changesData, keys: true },
    requests: (t) => sendWithScope(u, t),
    problems: scopeAcceptanceProblems,
    passed: (s) => ({
      detail: scopeAcceptanceDetail(s),
      ...(s.refusal
        ? {
            readings: `success or 403 ${INSUFFICIENT_SCOPE} for a key satisfying only some readings of the scope (${scopesText(op, ' or ')}; x-svc-ambiguity or x-svc-inferred.scope)`,
          }
        : {}),
    }),
  });
}

/** A refusal of a declared key: what was sent, the answer and what the contract expects of it. */
interface KeyRefusal {
  what: string;
  exchange: Exchange;
  expected: Expected;
}

const keyRefusalRule = (u: OperationUnderTest) => ({
  ...u.where,
  needs: { writes: u.changesData, keys: true },
  problems: (s: KeyRefusal) => errorsOf(s.exchange, s.expected, s.what),
  passed: (s: KeyRefusal) => ({ detail: `${s.what}: ${s.exchange.status}`, readings: describeReadings(s.expected) }),
});

/** The refusal each declared kind shows, and the check that expects it (described once). */
const KEY_KIND_CHECKS = {
  revoked: {
    code: REVOKED,
    check: checkDescription({
      id: 'auth.revoked-key',
      title: 'A revoked key (declared in --config): 401 API_KEY_REVOKED',
      source: 'the 401 response + the catalogue',
      precondition: 'a revoked key of the team (a config key of kind revoked)',
    }),
  },
  trial: {
    code: TRIAL_NOT_ALLOWED,
    check: checkDescription({
      id: 'auth.trial-plan',
      title: 'A key of a trial plan (declared in --config): 403 API_KEY_TRIAL_NOT_ALLOWED',
      source: 'the 403 response + the catalogue',
      precondition: 'a key of an account on a trial plan (a config key of kind trial)',
    }),
  },
  'legacy-workspace': {
    code: TEAM_NOT_FOUND,
    check: checkDescription({
      id: 'tenants.legacy-workspace',
      title:
        'A key of a workspace not on the new contact model (declared in --config): 404 TEAM_NOT_FOUND where the operation lists it',
      source: 'TEAM_NOT_FOUND (workspace not on the new contact model) on the custom field operations',
      precondition: 'a key of a workspace not on the new contact model (a config key of kind legacy-workspace)',
    }),
  },
};

/** Keys declared in the config by kind (revoked, trial, legacy workspace): each refusal runs where the operation lists its code. */
export function keyKindRule(u: OperationUnderTest, kind: keyof typeof KEY_KIND_CHECKS): void {
  const { spec, op } = u;
  const { code, check } = KEY_KIND_CHECKS[kind];
  if (!lists(u, code)) return;
  rule({
    ...check,
    ...keyRefusalRule(u),
    requests: async (t): Promise<KeyRefusal> => {
      const key = keyOfKind(t, kind);
      if (!key) return t.skip(`no ${kind} key declared in --config ("kind": "${kind}")`, 'option');
      const scopeFirst = kind === 'trial' ? scopeRefusalReading(op, key) : undefined;
      const expected = withReadings(listedCode(spec, op, code), scopeFirst ? [scopeFirst] : []);
      const exchange = await withAuth(u, t, { kind: 'key', key: key.key });
      return { what: `key "${key.name}" (${kind})`, exchange, expected };
    },
  });
}

/** Whether the operation lists a code (documentedCodes falls back to the API-wide code of the status). */
function lists(u: OperationUnderTest, code: string): boolean {
  return documentedCodes(u.spec, u.op, u.spec.contract.catalogue.get(code)?.status ?? 0).includes(code);
}

async function sendOnForbiddenLine(u: OperationUnderTest, t: CheckContext): Promise<KeyRefusal> {
  const { spec, op } = u;
  const key = keyOfKind(t, 'line-limited');
  if (!key) return t.skip('no line-limited key declared in --config ("kind": "line-limited", "lines")', 'option');
  const lines = (await t.fixtures()).lines;
  const other = lines.find((l) => !(key.lines ?? []).includes(l));
  if (!other)
    return t.skip(
      `no line of the team outside ${(key.lines ?? []).join(', ')} is known (GET /v2/api/numbers, fixtures.lines)`,
      'config',
    );
  const request = onLine(spec, op, await u.baseline(t), lines, other);
  if (!request) return t.skip('the request has no place for a line');
  const scopeFirst = scopeRefusalReading(op, key);
  const expected = withReadings(listedCode(spec, op, LINE_FORBIDDEN), [
    ...lineAccessReadings(spec, op),
    ...(scopeFirst ? [scopeFirst] : []),
  ]);
  const exchange = await t.call(request, { auth: { kind: 'key', key: key.key } });
  return { what: `key "${key.name}" (lines ${(key.lines ?? []).join(', ')}) on ${other}`, exchange, expected };
}

/** A key limited to some lines, used on another line: the documented refusal. */
export function lineForbiddenRule(u: OperationUnderTest): void {
  if (!lists(u, LINE_FORBIDDEN)) return;
  rule({
    id: 'auth.line-forbidden',
    title: 'A line-limited key (declared in --config) on another line: 403 SVC_NUMBER_FORBIDDEN',
    source: 'the 403 response + the catalogue',
    precondition: 'a line of the team outside the lines of a line-limited key (a config key of kind line-limited)',
    ...keyRefusalRule(u),
    requests: (t) => sendOnForbiddenLine(u, t),
  });
}

/** The lines GET /v2/api/numbers shows another team's key that are no line of the team (once per run). */
function otherTeamLines(t: CheckContext, key: ConfigKey, teamLines: readonly string[]): Promise<string[]> {
  return t.once(`lines of ${key.name}`, async () => {
    const exchange = await t.call({}, { auth: { kind: 'key', key: key.key } }, 'listNumbers');
    const pattern = t.spec.schema('PhoneNumber')?.pattern;
    if (typeof pattern !== 'string' || exchange.status < 200 || exchange.status >= 300) return [];
    const phone = new RegExp(pattern);
    const data = dataOf(exchange);
    const entries = (Array.isArray(data) ? data.slice(0, 100) : []).filter(isObject);
    const numbers = entries.flatMap((e) => Object.values(e).filter((v): v is string => typeof v === 'string'));
    return [...new Set(numbers.filter((n) => n.length <= 16 && phone.test(n) && !teamLines.includes(n)))];
  });
}

async function sendOnOtherTeamsLine(u: OperationUnderTest, t: CheckContext): Promise<KeyRefusal> {
  const { spec, op } = u;
  const other = keyOfKind(t, 'other-team');
  if (!other)
    return t.skip(
      'no key of another team declared in --config ("kind": "other-team"): its lines are the lines known to be no line of the team',
      'option',
    );
  const lines = (await t.fixtures()).lines;
  const [line] = await otherTeamLines(t, other, lines);
  if (line === undefined)
    return t.skip(
      `GET /v2/api/numbers with the other team's key "${other.name}" shows no line outside the team's`,
      'config',
    );
  const request = onLine(spec, op, await u.baseline(t), lines, line);
  if (!request) return t.skip('the request has no place for a line');
  const expected = withReadings(listedCode(spec, op, LINE_FORBIDDEN), lineAccessReadings(spec, op));
  const exchange = await t.call(request);
  return { what: `the run's key on ${line}, a line of another team (key "${other.name}")`, exchange, expected };
}

/** The run's own key (every line of its team) on a line of another team: the documented refusal. */
export function lineOfOtherTeamRule(u: OperationUnderTest): void {
  if (!lists(u, LINE_FORBIDDEN)) return;
  rule({
    id: 'auth.line-of-other-team',
    title:
      "The run's key, which may use every line of its team, on a line of another team (GET /v2/api/numbers with the other team's key declared in --config): 403 SVC_NUMBER_FORBIDDEN",
    source:
      'Authentication: "A key belongs to a single team" and "A line the key may not access: 403 SVC_NUMBER_FORBIDDEN"; SVC_NUMBER_FORBIDDEN "No access to this line; list lines with GET /v2/api/numbers"',
    precondition:
      "a line that is no line of the team: one GET /v2/api/numbers shows a key of another team (a config key of kind other-team), and the team's own list does not",
    ...keyRefusalRule(u),
    requests: (t) => sendOnOtherTeamsLine(u, t),
  });
}
