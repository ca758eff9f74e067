// The checks every operation gets, generated from its place in the contract: success, request-id
// echo, authentication (no key, malformed header, unknown key), scopes, and every kind of negative
// input its parameters and body allow. A suite file only says how to build one valid request for
// the operation from the fixtures (its baseline); everything else is read from the spec.
import { deref, isObject, type Operation, type OperationParameter, propertiesOf, requiredOf } from '@svc/spec-runtime';
import { isScopeInferred, scopeStanding } from '@svc/spec-runtime/facts';
import { documentedCodes, errorProblems, expectedFor, listedCode, type OpRequest } from '../checks/expect.js';
import {
  describeReadings,
  INSUFFICIENT_SCOPE,
  LINE_FORBIDDEN,
  lineAccessReadings,
  scopeRefusalReading,
  withReadings,
} from '../checks/readings.js';
import type { Fixtures } from '../fixtures.js';
import { boundaryCases } from '../generate/boundaries.js';
import { MALFORMED_BODY, type NegativeKind, negativeCases } from '../generate/negatives.js';
import { isPhone, sample } from '../generate/schema.js';
import { type ApiRequest, errorCode, errorOf, header } from '../http/exchange.js';
import type { ConfigKey } from '../model.js';
import { documentedInputs } from '../reach/inputs.js';
import { loadSpec, type Spec } from '../spec.js';
import { eachLineProblems, linePathParameter, readEachLine } from './each-line.js';
import { explore, exploreProblems } from './explore-inputs.js';
import { type CheckContext, check, rule, type Scenario, scenarioOf } from './harness.js';
import { listProblems, pagingOf, walkList } from './lists-walk.js';

export interface OperationPlan {
  /** One valid request built from the fixtures (throw through need() when one is missing). */
  baseline(t: CheckContext, fixtures: Fixtures): OpRequest | Promise<OpRequest>;
  /**
   * Whether conformance.success sends the baseline. Off where a stateful scenario of the same file
   * covers success (creating a thread twice would be a 409, not a success).
   */
  success?: boolean;
  /**
   * Why no request of the operation is meant to succeed at all (a PUT whose merge or replace is
   * not shown could wipe a record): its inputs are reported as withheld, with this reason, instead
   * of counted as never sent.
   */
  withheld?: string;
  /** The operation's scenario checks, declared after its generated ones. */
  scenarios?: (op: Operation, scenario: Scenario) => void;
}

export { INSUFFICIENT_SCOPE, LINE_FORBIDDEN };

/** A request built from an operation's examples: enough to learn which negative kinds apply. */
function sampleRequest(spec: Spec, op: Operation): OpRequest {
  const samples = (pick: (p: OperationParameter) => boolean) =>
    Object.fromEntries(op.parameters.filter(pick).map((p) => [p.name, String(sample(spec, p.schema))]));
  // Required fields only: the generator adds each optional top-level field itself, broken.
  return {
    params: samples((x) => x.in === 'path'),
    query: samples((x) => x.in === 'query' && x.required),
    ...(op.requestBody ? { body: sample(spec, spec.resolve(op.requestBody.schemaPointer)) } : {}),
  };
}

export function negativeKinds(spec: Spec, op: Operation): NegativeKind[] {
  const kinds = negativeCases(spec, op, sampleRequest(spec, op)).map((c) => c.kind);
  // The sample holds required fields only: a range deeper in an optional block still needs its check.
  if (documentedInputs(spec, op).rules.some((r) => /^body \S+ (minimum|maximum)$/.test(r)))
    kinds.push('negative.out-of-range');
  return [...new Set(kinds)];
}

/** The codes of the key kinds' refusals: the description names each, and the operations list them. */
export const REVOKED = 'API_KEY_REVOKED';
export const TRIAL_NOT_ALLOWED = 'API_KEY_TRIAL_NOT_ALLOWED';

const isActive = (key: ConfigKey) => (key.kind ?? 'active') === 'active';

/** Keys of the config that hold none of the operation's scope alternatives (fewest scopes first). */
export function keysLackingScope(op: Operation, keys: readonly ConfigKey[]): ConfigKey[] {
  const lacks = (key: ConfigKey) =>
    op.security.length > 0 && op.security.every((alt) => alt.some((scope) => !key.scopes.includes(scope)));
  const holdsNone = (key: ConfigKey) => !op.security.flat().some((scope) => key.scopes.includes(scope));
  return keys.filter((k) => isActive(k) && lacks(k) && holdsNone(k)).sort((a, b) => a.scopes.length - b.scopes.length);
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
  if (placed === 0 && op.requestBody && isObject(body)) {
    const schema = deref(spec.contract, spec.resolve(op.requestBody.schemaPointer));
    const required = requiredOf(spec.contract, schema);
    const lineFields = Object.entries(propertiesOf(spec.contract, schema)).filter(
      ([name, prop]) => !required.includes(name) && isPhone(spec, prop),
    );
    for (const [name] of lineFields) body = { ...(body as Record<string, unknown>), [name]: line };
    placed += lineFields.length;
  }
  return placed > 0 ? { ...request, params, query, ...(body !== undefined ? { body } : {}) } : undefined;
}

/** The optional headers an operation documents as parameters, with fresh values (request id, idempotency key). */
export function documentedHeaders(op: Operation, unique: string): Partial<ApiRequest> {
  const spec = loadSpec();
  const takes = (name: string) =>
    op.parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === name.toLowerCase());
  return {
    ...(takes(spec.requestIdHeader) ? { requestId: `svc-contract-${unique}` } : {}),
    ...(takes(spec.idempotencyKeyHeader) ? { idempotencyKey: `svc-contract-${unique}` } : {}),
  };
}

const withheld = new Map<string, string>();

/** The operations no request is meant to succeed on, each with the reason (OperationPlan.withheld). */
export function withheldOperations(): ReadonlyMap<string, string> {
  return withheld;
}

export function operationChecks(operationId: string, plan: OperationPlan): void {
  const spec = loadSpec();
  if (plan.withheld) withheld.set(operationId, plan.withheld);
  const op = spec.contract.operationsById.get(operationId);
  if (!op) throw new Error(`The contract has no operation ${operationId}.`);
  const changesData = spec.contract.limits.writeMethods.includes(op.method) && !spec.isSafe(op);
  const where = { operationId, resource: spec.resourceOf(op) };
  const baseline = async (t: CheckContext): Promise<OpRequest> => {
    const request = await plan.baseline(t, await t.fixtures());
    const invalid = expectedFor(spec, op, request);
    if (invalid)
      return t.skip(
        `the baseline request built from the fixtures is itself invalid per the contract (${invalid.why})`,
        'config',
      );
    return request;
  };

  if (plan.success !== false) {
    rule({
      id: 'conformance.success',
      ...where,
      needs: { writes: changesData },
      // With every documented header it takes (its own request id, an idempotency key), so that
      // they too are sent in a request that succeeded (input coverage).
      requests: async (t) => t.call(await baseline(t), documentedHeaders(op, `${t.config.runId}-${operationId}-ok`)),
      problems: (exchange) =>
        exchange.error === undefined && exchange.status >= 200 && exchange.status < 300
          ? []
          : [
              {
                message: `${op.method} ${op.path} with a valid request: got ${exchange.error ?? exchange.status}${errorCode(exchange) ? ` ${errorCode(exchange)}` : ''}`,
                exchange,
              },
            ],
    });
  }

  if (!changesData && op.parameters.some((p) => p.in === 'query' && !p.required))
    rule({
      id: 'inputs.explore',
      ...where,
      needs: {},
      requests: async (t) => explore(t, op, await baseline(t)),
      problems: exploreProblems,
      passed: (explored) => `sent ${explored.tried.map((x) => x.label).join(', ')}`,
    });

  if (!changesData && linePathParameter(spec, op, LINE_FORBIDDEN))
    rule({
      id: 'reads.every-line',
      ...where,
      needs: { stateful: true },
      requests: async (t) => readEachLine(t, op, await baseline(t), LINE_FORBIDDEN),
      problems: eachLineProblems,
      passed: ({ reads }) => `read on ${reads.map((r) => `${r.line} (${r.key})`).join(', ')}`,
    });

  // A stateless mock invents each page on its own: only a server that holds the list is walked.
  if (!changesData && pagingOf(spec, op))
    rule({
      id: 'lists.walk',
      ...where,
      needs: { stateful: true },
      requests: async (t) => walkList(t, op, await baseline(t)),
      problems: listProblems,
      passed: ({ small, whole }) =>
        `walked at size ${whole.size} (${whole.pages.length} page) and ${small.size} (${small.pages.length} pages)`,
    });

  check('request-id.echo', where, { writes: changesData && !op.requestBody }, async (t) => {
    const base = await baseline(t);
    const echoes = async (suffix: string, extra: Partial<ApiRequest>) => {
      const sent = `svc-contract-${t.config.runId}-${operationId}-${suffix}`;
      const exchange = await t.call(base, { requestId: sent, ...extra });
      const echoed = header(exchange, spec.requestIdHeader);
      t.expect(
        echoed === sent,
        `sent ${spec.requestIdHeader} ${sent}, the response header was ${JSON.stringify(echoed ?? null)}`,
        exchange,
      );
      const body = errorOf(exchange);
      if (exchange.status >= 400)
        t.expect(
          body?.request_id === sent,
          `sent ${spec.requestIdHeader} ${sent}, error.request_id was ${JSON.stringify(body?.request_id ?? null)}`,
          exchange,
        );
    };
    if (!changesData) await echoes('ok', {});
    // An error too, so the body's request_id is checked: malformed JSON where there is a body
    // (it cannot execute anything), otherwise no key.
    await echoes('error', op.requestBody ? { rawBody: MALFORMED_BODY, unparseable: true } : { auth: { kind: 'none' } });
  });

  const unauthorized = () => ({
    status: 401,
    codes: documentedCodes(spec, op, 401),
    why: 'the request is not authenticated',
  });
  check('auth.missing-key', where, { writes: changesData }, async (t) => {
    t.expectError(await t.call(await baseline(t), { auth: { kind: 'none' } }), unauthorized());
  });
  check('auth.malformed-header', where, { writes: changesData }, async (t) => {
    const base = await baseline(t);
    for (const value of ['Bearer svc-contract-malformed', 'Api-Key'])
      t.expectError(await t.call(base, { auth: { kind: 'header', value } }), unauthorized(), `Authorization: ${value}`);
  });
  check('auth.unknown-key', where, { writes: changesData, keys: true }, async (t) => {
    t.expectError(
      await t.call(await baseline(t), { auth: { kind: 'key', key: `svc_contract_unknown_${t.config.runId}` } }),
      unauthorized(),
    );
  });

  check('auth.insufficient-scope', where, { writes: changesData, keys: true }, async (t) => {
    if (op.security.length === 0) return t.skip('the operation needs no scope');
    // Inferred (x-svc-inferred.scope) or alternative scopes: which one the 403 names is not certain.
    const uncertain = isScopeInferred(op) || op.security.length > 1;
    const [key] = keysLackingScope(op, t.config.config.keys);
    if (!key)
      return t.skip(
        `no key in the config holds none of ${op.security.map((a) => a.join('+')).join(' / ')} (add one under "keys" with its scopes)`,
        'config',
      );
    const exchange = await t.call(await baseline(t), { auth: { kind: 'key', key: key.key } });
    const codes = documentedCodes(spec, op, 403).filter((c) => c === INSUFFICIENT_SCOPE);
    if (codes.length === 0) return t.skip(`${operationId} does not list ${INSUFFICIENT_SCOPE}`);
    if (
      !t.expectError(exchange, {
        status: 403,
        codes,
        why: `key "${key.name}" holds ${key.scopes.join(', ') || 'no scope'}`,
      })
    )
      return;
    const error = errorOf(exchange);
    const text = `${String(error?.message ?? '')} ${String(error?.suggestion ?? '')}`;
    if (uncertain) {
      // Inferred or ambiguous scopes: only the refusal itself is certain, not which scope is named.
      t.pass(
        `refused; the scope is ${op.security.length > 1 ? 'ambiguous' : 'inferred'} (${op.security.map((a) => a.join('+')).join(' or ')}), so its name is not checked`,
        undefined,
        `a 403 naming any scope, or none: the scope is ${op.security.length > 1 ? 'ambiguous' : 'inferred'} (${op.security.map((a) => a.join('+')).join(' or ')})`,
      );
      return;
    }
    const missing = op.security.flatMap((alt) => alt.filter((scope) => !key.scopes.includes(scope)));
    for (const scope of missing)
      t.expect(
        text.includes(scope),
        `the 403 does not name the missing scope ${scope}: ${JSON.stringify(error?.message)}`,
        exchange,
      );
  });

  const codeStatus = (code: string) => spec.contract.catalogue.get(code)?.status ?? 0;
  const lists = (code: string) => documentedCodes(spec, op, codeStatus(code)).includes(code);

  if (op.security.length > 0)
    check('auth.sufficient-scope', where, { writes: changesData, keys: true }, async (t) => {
      const [choice] = keysHoldingScope(op, t.config.config.keys);
      if (!choice)
        return t.skip(
          `no key in the config holds exactly ${op.security.map((a) => a.join('+')).join(' or ')} (add one under "keys" with its scopes)`,
          'config',
        );
      const base = await baseline(t);
      // Where the suite never sends the baseline as a success (it would create or delete for
      // real), an unknown id shows the same thing: past the scope check, a documented 404.
      const probe =
        plan.success === false
          ? negativeCases(spec, op, base).find((c) => c.kind === 'negative.unknown-id')
          : undefined;
      const exchange = await t.call(probe?.request ?? base, { auth: { kind: 'key', key: choice.key.key } });
      const holds = `key "${choice.key.name}" holds ${choice.key.scopes.join(', ')}`;
      const refusal =
        scopeStanding(op, choice.key.scopes) === 'depends' ? scopeRefusalReading(op, choice.key) : undefined;
      const readings = refusal
        ? `success or 403 ${INSUFFICIENT_SCOPE} for a key satisfying only some readings of the scope (${op.security.map((a) => a.join('+')).join(' or ')}; x-svc-ambiguity or x-svc-inferred.scope)`
        : undefined;
      if (refusal && errorProblems(exchange, refusal).length === 0) {
        // One reading of the scope refuses this key, another accepts it: neither is required.
        t.pass(`${holds}: refused for scope, as one reading of the scope says`, undefined, readings);
        return;
      }
      if (probe) {
        if (t.expectError(exchange, probe.expected, `${holds}; ${probe.label}`))
          t.pass(`${holds}: ${exchange.status}`, undefined, readings);
        return;
      }
      if (
        !t.expectStatus(
          exchange,
          (s) => s !== 401 && s !== 403 && s < 500,
          `${holds}, which the operation's security requirement accepts`,
        )
      )
        return;
      t.pass(
        `${holds}: ${exchange.status}${choice.extra.length ? ` (it also holds ${choice.extra.join(', ')}: a server demanding one of those would not be seen)` : ''}`,
        undefined,
        readings,
      );
    });

  // Keys declared in the config by kind: each refusal runs where the operation lists its code.
  const kindCheck = (id: 'auth.revoked-key' | 'auth.trial-plan', kind: 'revoked' | 'trial', code: string) => {
    if (!lists(code)) return;
    check(id, where, { writes: changesData, keys: true }, async (t) => {
      const key = t.config.config.keys.find((k) => k.kind === kind);
      if (!key) return t.skip(`no ${kind} key declared in --config ("kind": "${kind}")`, 'option');
      const scopeFirst = kind === 'trial' ? scopeRefusalReading(op, key) : undefined;
      const expected = withReadings(listedCode(spec, op, code), scopeFirst ? [scopeFirst] : []);
      const exchange = await t.call(await baseline(t), { auth: { kind: 'key', key: key.key } });
      if (t.expectError(exchange, expected, `key "${key.name}" (${kind})`))
        t.pass(`key "${key.name}" (${kind}): ${exchange.status}`, undefined, describeReadings(expected));
    });
  };
  kindCheck('auth.revoked-key', 'revoked', REVOKED);
  kindCheck('auth.trial-plan', 'trial', TRIAL_NOT_ALLOWED);

  if (lists(LINE_FORBIDDEN))
    check('auth.line-forbidden', where, { writes: changesData, keys: true }, async (t) => {
      const key = t.config.config.keys.find((k) => k.kind === 'line-limited');
      if (!key) return t.skip('no line-limited key declared in --config ("kind": "line-limited", "lines")', 'option');
      const lines = (await t.fixtures()).lines;
      const other = lines.find((l) => !(key.lines ?? []).includes(l));
      if (!other)
        return t.skip(
          `no line of the team outside ${(key.lines ?? []).join(', ')} is known (GET /v2/api/numbers, fixtures.lines)`,
          'config',
        );
      const request = onLine(spec, op, await baseline(t), lines, other);
      if (!request) return t.skip('the request has no place for a line');
      const scopeFirst = scopeRefusalReading(op, key);
      const expected = withReadings(listedCode(spec, op, LINE_FORBIDDEN), [
        ...lineAccessReadings(spec, op),
        ...(scopeFirst ? [scopeFirst] : []),
      ]);
      const what = `key "${key.name}" (lines ${(key.lines ?? []).join(', ')}) on ${other}`;
      const exchange = await t.call(request, { auth: { kind: 'key', key: key.key } });
      if (t.expectError(exchange, expected, what))
        t.pass(`${what}: ${exchange.status}`, undefined, describeReadings(expected));
    });

  if (boundaryCases(spec, op, sampleRequest(spec, op), plan.success !== false).length > 0)
    check('boundary.inside', where, { writes: changesData }, async (t) => {
      const cases = boundaryCases(spec, op, await baseline(t), plan.success !== false);
      if (cases.length === 0) return t.skip('no documented limit applies to the request');
      for (const c of cases) {
        const exchange = await t.call(c.request);
        if (t.expectStatus(exchange, (s) => s >= 200 && s < 300, `${c.label} is inside the documented limit`))
          t.pass(c.label, { id: c.constraint, side: 'inside' });
      }
    });

  for (const kind of negativeKinds(spec, op)) {
    const needs = {
      writes: changesData && kind !== 'negative.malformed-json',
      stateful: kind === 'negative.unknown-id',
    };
    check(kind, where, needs, async (t) => {
      const cases = negativeCases(spec, op, await baseline(t)).filter((c) => c.kind === kind);
      if (cases.length === 0) return t.skip('no case of this kind applies to the request the fixtures allow');
      for (const c of cases) {
        const extra: Partial<ApiRequest> = c.raw
          ? {
              rawBody: c.raw.body,
              ...(c.raw.contentType ? { contentType: c.raw.contentType } : {}),
              ...(c.raw.unparseable ? { unparseable: true } : {}),
            }
          : {};
        const exchange = await t.call(c.request, extra);
        if (t.expectError(exchange, c.expected, c.label))
          t.pass(
            c.label,
            c.constraint ? { id: c.constraint, side: 'outside' } : undefined,
            describeReadings(c.expected),
          );
      }
    });
  }

  plan.scenarios?.(op, scenarioOf(op));
}
