// The cross-team check of every operation (OWASP API1, broken object level authorization): a key
// belongs to one team, so a key of another team (declared in --config, kind other-team) that
// sends the request built from the run's team's fixtures finds none of that team's resources: an
// id of the team is answered as an unknown id is (the operation's documented not-found), and no
// answer, lists included, carries the team's data. Without such a key the check is skipped, never
// passed.

import { idPrefixes, isObject, type JsonObject, type Operation, propertiesOf } from '@svc/spec-runtime';
import { API_WIDE } from '../catalogue.js';
import { documentedCodes, type Expected, type OpRequest } from '../expectations/expect.js';
import { API_WIDE_RESOURCE } from '../filters.js';
import type { Fixtures } from '../fixtures.js';
import { knownPrefixes } from '../generate/id-prefix-sets.js';
import { UNKNOWN_SUFFIX } from '../generate/negative-values.js';
import { negativeCases } from '../generate/negatives.js';
import { isPhone } from '../generate/schema.js';
import { dataOf, type Exchange, errorCode } from '../http/exchange.js';
import type { ConfigKey } from '../types.js';
import { type CheckContext, checkDescription, type Problem, rule } from './harness.js';
import type { OperationUnderTest } from './operation-context.js';
import { errorsOf, unless } from './problems.js';
import { objectWithId, otherTeamKey, teammates } from './support.js';

/** What the other team's key was sent and got, and what the contract expects of it. */
export interface CrossTeam {
  what: string;
  exchange: Exchange;
  /** The documented not-found, where the request addresses one of the team's resources by id. */
  expected?: Expected;
  /** The team's values (ids, lines) the answer carries that the request did not. */
  leaked: string[];
}

/**
 * Values that belong to the run's team alone: prefixed ids and its lines. Contact numbers, tag
 * names and custom field keys are left out: another team may hold the same ones of its own (a
 * listed custom field is compared whole instead: teamFieldsListed).
 */
export function teamMarkers(f: Fixtures): string[] {
  return [
    ...f.users,
    ...f.lines,
    ...f.items.map((i) => i.id),
    ...f.notes.map((n) => n.id),
    ...f.threads.map((th) => th.id),
    ...f.deals,
    ...f.people,
    ...f.summaryTemplates,
  ].filter((m, i, all) => m.length > 0 && all.indexOf(m) === i);
}

/**
 * The markers an answer carries that its request did not (a not-found message, a batch's list of
 * ids not found, quote what was sent), and those it sent that the answer shows as a resource: an
 * object whose id is the marker (a batch that answers another team's item).
 */
export function leakedMarkers(markers: readonly string[], request: OpRequest, exchange: Exchange): string[] {
  const sent = JSON.stringify(request);
  const wasSent = (m: string) => sent.includes(m) || sent.includes(encodeURIComponent(m));
  return markers.filter(
    (m) => exchange.text.includes(m) && (!wasSent(m) || objectWithId(exchange.body, m) !== undefined),
  );
}

/**
 * The team's custom fields an answer lists (custom fields carry no id: a field is identified by its
 * key). Another team may hold a field of the same key, so an entry counts only where it is the
 * team's field as discovery read it: the same key, type and label.
 */
export function teamFieldsListed(f: Fixtures, exchange: Exchange): string[] {
  const data = dataOf(exchange);
  if (!Array.isArray(data)) return [];
  return data
    .filter(isObject)
    .filter((entry) => entry.id === undefined && typeof entry.key === 'string')
    .filter((entry) =>
      f.customFields.some(
        (field) =>
          field.key === entry.key && field.type === (entry.type ?? null) && field.label === (entry.label ?? null),
      ),
    )
    .map((entry) => `custom field ${String(entry.key)}`);
}

const holdsScope = (op: Operation, key: ConfigKey) =>
  op.security.length === 0 || op.security.some((alt) => alt.every((s) => key.scopes.includes(s)));

async function sendAsOtherTeam(u: OperationUnderTest, t: CheckContext): Promise<CrossTeam> {
  const key = otherTeamKey(t);
  if (!holdsScope(u.op, key))
    return t.skip(
      `the other team's key "${key.name}" holds none of ${u.op.operationId}'s scope alternatives: declare one that does`,
      'config',
    );
  const f = await t.fixtures();
  const request = u.plan.otherTeam ? await u.plan.otherTeam(t, f) : await u.baseline(t);
  // The id of the team's resource is answered as an id of no resource is: the unknown-id cases'
  // expectation, whatever the prefix (each case's codes are those of its own prefix's kind).
  const unknown = negativeCases(u.spec, u.op, request).filter((c) => c.kind === 'negative.unknown-id');
  const first = unknown[0]?.expected;
  const expected = first && {
    ...first,
    codes: [...new Set(unknown.filter((c) => c.expected.status === first.status).flatMap((c) => c.expected.codes))],
  };
  const exchange = await t.call(request, { auth: { kind: 'key', key: key.key } });
  return {
    what: `key "${key.name}" of another team`,
    exchange,
    ...(expected ? { expected } : {}),
    leaked: [...leakedMarkers(teamMarkers(f), request, exchange), ...teamFieldsListed(f, exchange)],
  };
}

export function crossTeamProblems(s: CrossTeam): Problem[] {
  return [
    ...(s.expected ? errorsOf(s.exchange, s.expected, `${s.what} on the team's resource`) : []),
    ...unless(
      s.leaked.length === 0,
      `${s.what}: the answer (${s.exchange.status}) carries the team's ${s.leaked.slice(0, 5).join(', ')}`,
      s.exchange,
    ),
  ];
}

const OTHER_TEAM = checkDescription({
  id: 'tenants.other-team',
  title:
    "A key of another team (declared in --config) finds none of the team's resources: an id of the team gets the operation's not-found, and no answer, lists included, carries the team's ids, lines or custom fields (by key, type and label: they have no id)",
  source:
    '"A key belongs to a single team." (Authentication) + the 404 response; custom field "key | Unique key; immutable"',
  precondition:
    "a key of another team (a config key of kind other-team), sent the team's own ids and lines, and every list it may read (the team's custom fields known from discovery)",
});

/** The cross-team check of one operation (writes only with --allow-writes: a faulty server would apply them). */
export function otherTeamRule(u: OperationUnderTest): void {
  rule({
    ...OTHER_TEAM,
    ...u.where,
    needs: { writes: u.changesData, stateful: true, keys: true },
    requests: (t) => sendAsOtherTeam(u, t),
    problems: crossTeamProblems,
    passed: (s) =>
      s.expected
        ? `${s.what}: ${s.exchange.status} ${errorCode(s.exchange) ?? ''}, nothing of the team`
        : `${s.what}: ${s.exchange.status}, nothing of the team in the answer`,
  });
}

/** The ids of the contract's prefixes (usr-…, cll-…) a list's entries hold, nested ones included (a conversation's last item). */
function collectIds(
  value: unknown,
  prefixes: readonly string[],
  own: ReadonlySet<string>,
  found: Set<string>,
  depth = 0,
): void {
  if (typeof value === 'string') {
    if (value.length <= 64 && prefixes.some((p) => value.startsWith(p)) && !own.has(value)) found.add(value);
  } else if (depth < 4 && value !== null && typeof value === 'object')
    for (const v of Object.values(value)) collectIds(v, prefixes, own, found, depth + 1);
}

/**
 * Prefixed ids of another team: those its key's config names (`ids`), then those the key reads in
 * the lists it may read (once per run), the team's own left out. Every list of the contract without
 * a required input is read once with that key.
 */
async function otherTeamIds(t: CheckContext, key: ConfigKey): Promise<string[]> {
  return (await otherTeamFound(t, key)).ids;
}

/** What another team's key shows in its lists: its ids, the phone numbers of its entries the team's lists show nowhere, and its entries' emails. */
interface OtherTeamFound {
  ids: string[];
  numbers: string[];
  emails: string[];
}

function otherTeamFound(t: CheckContext, key: ConfigKey): Promise<OtherTeamFound> {
  return t.once(`ids of ${key.name}`, async () => {
    const f = await t.fixtures();
    const own = new Set(teamMarkers(f));
    const found = new Set<string>((key.ids ?? []).filter((id) => !own.has(id)));
    const numbers = new Set<string>();
    const emails = new Set<string>();
    const ownNumbers = new Set([...f.contacts, ...f.lines]);
    const lists = t.spec.contract.operations.filter(
      (op) => op.method === 'GET' && !op.parameters.some((p) => p.in === 'path' || p.required) && holdsScope(op, key),
    );
    for (const op of lists) {
      const exchange = await t.call({}, { auth: { kind: 'key', key: key.key } }, op.operationId);
      const entries = dataOf(exchange);
      const listed = Array.isArray(entries) ? entries.slice(0, 100) : [];
      collectIds(listed, knownPrefixes(t.spec), own, found);
      for (const n of phoneNumbersIn(t, listed)) if (!ownNumbers.has(n)) numbers.add(n);
      for (const e of emailsIn(listed)) emails.add(e);
    }
    return { ids: [...found], numbers: [...numbers], emails: [...emails] };
  });
}

/** The top-level emails of a list's entries (the user list's shape is not shown: any value of an email's form). */
function emailsIn(entries: unknown[]): string[] {
  const isEmail = (v: unknown): v is string =>
    typeof v === 'string' && v.length <= 254 && v.indexOf('@') > 0 && !v.endsWith('@') && !/\s/.test(v);
  return entries.filter(isObject).flatMap((entry) => Object.values(entry).filter(isEmail));
}

/** The top-level phone numbers (the contract's PhoneNumber pattern) of a list's entries. */
function phoneNumbersIn(t: CheckContext, entries: unknown[]): string[] {
  const pattern = t.spec.schema('PhoneNumber')?.pattern;
  if (typeof pattern !== 'string') return [];
  const phone = new RegExp(pattern, 'u');
  return entries
    .filter(isObject)
    .flatMap((entry) =>
      Object.values(entry).filter((v): v is string => typeof v === 'string' && v.length <= 16 && phone.test(v)),
    );
}

/**
 * The run's own key naming in the request body, where it names one of the team's resources by id
 * (a teammate's user_id, an item's entity_id), another team's resource of the same prefix instead:
 * answered as an id of no resource is. A server that looks the path's resource up within the key's
 * team may still take a body's reference from anywhere.
 */
async function nameOtherTeamsResource(u: OperationUnderTest, t: CheckContext): Promise<CrossTeam[]> {
  const key = otherTeamKey(t);
  const f = await t.fixtures();
  const ids = await otherTeamIds(t, key);
  // The operation's own way of naming an id in its body, else the team's request with the id swapped.
  const requests = u.plan.naming
    ? ids.flatMap((id) => u.plan.naming?.(t, id) ?? [])
    : [u.plan.otherTeam ? await u.plan.otherTeam(t, f) : await u.baseline(t)];
  const prefixed = requests.flatMap((request) =>
    negativeCases(u.spec, u.op, request).flatMap((c) =>
      c.kind === 'negative.unknown-id' && c.idPrefix && c.label.startsWith('body ')
        ? [{ ...c, prefix: c.idPrefix }]
        : [],
    ),
  );
  if (prefixed.length === 0 && !u.plan.naming && emailFields(u).length === 0)
    return t.skip('the request names no resource by a prefixed id or an email in its body');
  const crossed: CrossTeam[] = [];
  const byId = prefixed.find((c) => ids.some((id) => id.startsWith(c.prefix)));
  if (byId) {
    const foreign = ids.find((id) => id.startsWith(byId.prefix)) as string;
    const request = JSON.parse(
      JSON.stringify(byId.request).replace(`${byId.prefix}${UNKNOWN_SUFFIX}`, foreign),
    ) as OpRequest;
    crossed.push({
      what: `the run's key naming ${foreign} of another team (${byId.label.split('=')[0]})`,
      exchange: await t.call(request),
      expected: byId.expected,
      leaked: [],
    });
  }
  crossed.push(...(await nameOtherTeamsMember(u, t, key)));
  if (crossed.length > 0) return crossed;
  return t.skip(
    `the lists another team's key "${key.name}" reads show no id or email the body of ${u.op.operationId} takes${prefixed.length > 0 ? ` (${[...new Set(prefixed.map((c) => c.prefix))].join(', ')})` : ''}`,
    'config',
  );
}

/** The top-level properties of the operation's request body ({} where it takes none). */
function bodyProperties(u: OperationUnderTest): Record<string, JsonObject> {
  const pointer = u.op.requestBody?.schemaPointer;
  return pointer ? propertiesOf(u.spec.contract, u.spec.resolve(pointer)) : {};
}

/** The top-level body fields of the operation that name someone by email (format: email). */
function emailFields(u: OperationUnderTest): string[] {
  return Object.entries(bodyProperties(u))
    .filter(([, p]) => p.format === 'email')
    .map(([name]) => name);
}

/**
 * A member of another team named by email where the body names a teammate that way (the dialer
 * queue's email): answered as an email matching no teammate is, the operation's not-found. The
 * body's fields naming someone by id are left out, since an id wins over the email.
 */
async function nameOtherTeamsMember(u: OperationUnderTest, t: CheckContext, key: ConfigKey): Promise<CrossTeam[]> {
  const [field] = emailFields(u);
  const codes = documentedCodes(u.spec, u.op, 404);
  if (field === undefined || codes.length === 0) return [];
  const own = new Set((await teammates(t)).map((m) => m.email.toLowerCase()));
  const foreign = (await otherTeamFound(t, key)).emails.find((e) => !own.has(e.toLowerCase()));
  if (foreign === undefined) return [];
  const base = await u.baseline(t);
  const properties = bodyProperties(u);
  const byId = (name: string) => {
    const property = properties[name];
    return property !== undefined && idPrefixes(property).length > 0;
  };
  const kept = isObject(base.body) ? Object.entries(base.body).filter(([name]) => !byId(name)) : [];
  const request: OpRequest = { ...base, body: { ...Object.fromEntries(kept), [field]: foreign } };
  return [
    {
      what: `the run's key naming ${foreign}, a member of another team, by ${field}`,
      exchange: await t.call(request),
      expected: { status: 404, codes, why: `${foreign} is no teammate: a key belongs to a single team` },
      leaked: [],
    },
  ];
}

const OTHER_TEAMS_RESOURCE = checkDescription({
  id: 'tenants.other-teams-resource',
  title:
    "The run's key naming in a request body a resource of another team (an id another team's key, declared in --config, reads in its lists) where the body names one of the team's by id, and a member of that team by email where the body names a teammate by email: the operation's not-found",
  source:
    '"A key belongs to a single team." (Authentication) + the 404 response; user_id "must belong to the same team"',
  precondition:
    "an id of another team's resource of the prefix the request names, and an email of another team's member where the body takes an email, read in the lists of a key of another team (a config key of kind other-team)",
});

/** The cross-team check the other way round: the team's key, another team's id (writes only with --allow-writes). */
export function otherTeamsResourceRule(u: OperationUnderTest): void {
  if (!u.op.codesByStatus.has(404) || !namesResourceInBody(u)) return;
  rule({
    ...OTHER_TEAMS_RESOURCE,
    ...u.where,
    needs: { writes: u.changesData, stateful: true, keys: true },
    requests: (t) => nameOtherTeamsResource(u, t),
    problems: (crossed) => crossed.flatMap(crossTeamProblems),
    passed: (crossed) =>
      crossed.map((s) => `${s.what}: ${s.exchange.status} ${errorCode(s.exchange) ?? ''}`).join('; '),
  });
}

/** Whether a top-level field of the request body holds a prefixed id (entity_id, user_id) or an email. */
function namesResourceInBody(u: OperationUnderTest): boolean {
  return Object.values(bodyProperties(u)).some((p) => idPrefixes(p).length > 0) || emailFields(u).length > 0;
}

/** A read by one prefixed path id (getUser, getThread): its operation, the parameter and its prefixes. */
interface ReadById {
  op: Operation;
  param: string;
  prefixes: string[];
}

function readsById(t: CheckContext): ReadById[] {
  return t.spec.contract.operations.flatMap((op) => {
    const path = op.parameters.filter((p) => p.in === 'path');
    const [param] = path;
    if (op.method !== 'GET' || path.length !== 1 || !param || !op.codesByStatus.has(404)) return [];
    const prefixes = idPrefixes(param.schema);
    return prefixes.length > 0 ? [{ op, param: param.name, prefixes }] : [];
  });
}

interface ReadsCrossed {
  crossed: CrossTeam[];
  /** The reads no id of another team was known for, by the prefixes they take. */
  unknown: string[];
}

/** A read by one phone number in its path (a conversation's notes): its operation and the parameter. */
function readsByNumber(t: CheckContext): Array<{ op: Operation; param: string }> {
  return t.spec.contract.operations.flatMap((op) => {
    const path = op.parameters.filter((p) => p.in === 'path');
    const [param] = path;
    return op.method === 'GET' && path.length === 1 && param && isPhone(t.spec, param.schema)
      ? [{ op, param: param.name }]
      : [];
  });
}

/**
 * The reads by phone number, with a number only another team's lists show (a contact of that team
 * alone): the answer, whatever its status, carries none of that team's ids (its notes, its items).
 */
async function readOtherTeamsNumbers(t: CheckContext, key: ConfigKey): Promise<CrossTeam[]> {
  const { ids, numbers } = await otherTeamFound(t, key);
  const crossed: CrossTeam[] = [];
  // A few of them: a line of that team and a contact it alone talks to are both among its numbers.
  for (const { op, param } of readsByNumber(t))
    for (const number of numbers.slice(0, 3)) {
      const exchange = await t.call({ params: { [param]: number } }, {}, op.operationId);
      crossed.push({
        what: `${op.operationId} of ${number}, a number only another team's lists show`,
        exchange,
        leaked: ids.filter((id) => exchange.text.includes(id)),
      });
    }
  return crossed;
}

async function readOtherTeamsResources(t: CheckContext): Promise<ReadsCrossed> {
  const key = otherTeamKey(t);
  const ids = await otherTeamIds(t, key);
  const state: ReadsCrossed = { crossed: await readOtherTeamsNumbers(t, key), unknown: [] };
  for (const { op, param, prefixes } of readsById(t)) {
    const foreign = ids.find((id) => prefixes.some((p) => id.startsWith(p)));
    if (!foreign) {
      state.unknown.push(`${op.operationId} (${prefixes.join(', ')})`);
      continue;
    }
    const request = { params: { [param]: foreign } };
    // The answer an id of no resource gets: the unknown-id case of that request, of the id's own kind.
    const prefix = prefixes.find((p) => foreign.startsWith(p)) ?? '';
    const expected = negativeCases(t.spec, op, request).find(
      (c) => c.kind === 'negative.unknown-id' && c.idPrefix === prefix,
    )?.expected;
    const exchange = await t.call(request, {}, op.operationId);
    state.crossed.push({
      what: `${op.operationId} of ${foreign}, another team's`,
      exchange,
      ...(expected ? { expected } : {}),
      leaked: [],
    });
  }
  if (state.crossed.length === 0)
    return t.skip(
      `the lists another team's key "${key.name}" reads show no id any read by id takes (${state.unknown.join('; ')})`,
      'config',
    );
  return state;
}

// The reads by id, the other way round from tenants.other-team: the run's own key on a resource of
// another team, for each kind whose id the other team's key shows in its lists (users, items).
rule({
  id: 'tenants.other-teams-read',
  title:
    "The run's key reading by id a resource of another team (each kind whose id another team's key, declared in --config, reads in its lists) gets the read's not-found; reading by a phone number only that team's lists show (a conversation's notes), it gets none of that team's ids",
  source: '"A key belongs to a single team." (Authentication) + the 404 responses',
  precondition:
    "an id of another team's resource, read in a list with a key of another team (a config key of kind other-team), for at least one read by id; the reads of kinds no such list shows are named; numbers of that team's list entries the team's own lists show nowhere, for the reads by phone number",
  operationId: API_WIDE,
  resource: API_WIDE_RESOURCE,
  needs: { stateful: true, keys: true },
  requests: readOtherTeamsResources,
  problems: ({ crossed }) => crossed.flatMap(crossTeamProblems),
  passed: ({ crossed, unknown }) =>
    `${crossed.map((c) => `${c.what}: ${c.exchange.status} ${errorCode(c.exchange) ?? ''}`.trim()).join('; ')}${unknown.length > 0 ? `; no id of another team known for ${unknown.join(', ')}` : ''}`,
});
