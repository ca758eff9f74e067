// The receptionists of the team's lines side by side. Each line has its own ("AI receptionist
// configuration (per line)"; "a line has one from creation"); its scheduling.calendars are "only
// the calendars this receptionist books on", selected by the update among the calendars already
// connected to the team (the API "does not connect calendars (only lists connected ones and selects
// what the receptionist books on)"). A single line read alone shows none of this: a server that
// answers every line with one receptionist, or shows no calendar whatever is selected, looks right.
// So the checks read every line the fixtures know, and select on one line a calendar it does not
// book on yet (one another line shows, or one fixtures.calendar_connection_ids names, since the
// operation that lists the team's calendars has no method or path shown).
import { isObject } from '@svc/spec-runtime';
import { scopeStanding } from '@svc/spec-runtime/facts';
import type { Exchange } from '../http/exchange.js';
import { loadSpec } from '../spec.js';
import type { ConfigKey } from '../types.js';
import { type CheckContext, contractOperation, type Problem, rule, statefulWrite } from './harness.js';
import { unless } from './problems.js';
import { asKey, at, data, deepEqual, type Json, nest, ok, short } from './support.js';

const READ = 'getReceptionist';
const WRITE = 'updateReceptionist';
const CALENDARS = 'scheduling.calendars';

/** The receptionist of one line as read (config undefined where the answer carried none). */
interface LineConfig {
  line: string;
  exchange: Exchange;
  config?: Json;
}

async function readEveryLine(t: CheckContext, key?: ConfigKey): Promise<LineConfig[]> {
  const lines = (await t.fixtures()).lines.slice(0, t.config.fixturesPerKind ?? 20);
  const reads: LineConfig[] = [];
  for (const line of lines) {
    const exchange = await t.call({ params: { number: line } }, asKey(key), READ);
    const config = ok(exchange) ? data(exchange) : undefined;
    reads.push({ line, exchange, ...(config ? { config } : {}) });
  }
  return reads;
}

/** Every line read once per run, for the checks that only read (shared: the same answers serve both). */
const everyLineOnce = (t: CheckContext) => t.once('receptionist-every-line', () => readEveryLine(t));

type Calendar = Json & { calendar_connection_id: string };

function calendarsOf(config: Json | undefined): Calendar[] {
  const list = at(config, CALENDARS);
  return Array.isArray(list)
    ? list.filter((c): c is Calendar => isObject(c) && typeof c.calendar_connection_id === 'string')
    : [];
}

/** The ids of the calendars a receptionist books on, sorted: the order of a set is no part of it. */
const idsOf = (config: Json | undefined) =>
  calendarsOf(config)
    .map((c) => c.calendar_connection_id)
    .sort();

const agentIdOf = (config: Json | undefined) =>
  isObject(config?.agent) && typeof config.agent.id === 'string' ? config.agent.id : undefined;

const readWhere = { operationId: READ, resource: loadSpec().resourceOf(contractOperation(READ)) };

/** Lines answering the same agent, by agent id. */
function sharedAgents(reads: readonly LineConfig[]): Problem[] {
  const byAgent = new Map<string, LineConfig[]>();
  for (const read of reads) {
    const id = agentIdOf(read.config);
    if (id !== undefined) byAgent.set(id, [...(byAgent.get(id) ?? []), read]);
  }
  return [...byAgent].flatMap(([id, same]) =>
    same.length > 1
      ? [
          {
            message: `lines ${same.map((r) => r.line).join(' and ')} answer the same receptionist ${id}: each line has its own ("a line has one from creation")`,
            exchange: (same[1] as LineConfig).exchange,
          },
        ]
      : [],
  );
}

const withAgent = (reads: readonly LineConfig[]) => reads.filter((r) => agentIdOf(r.config) !== undefined);

rule({
  id: 'receptionist.one-per-line',
  title: 'Each line answers its own receptionist: no two lines show the same agent id',
  source:
    'AI receptionist configuration (per line); AI receptionist: "does not create receptionists (a line has one from creation)"',
  precondition: 'the receptionists of two lines or more read (every line GET /v2/api/numbers lists)',
  ...readWhere,
  needs: { stateful: true },
  requests: everyLineOnce,
  problems: sharedAgents,
  passed: (reads) => `${withAgent(reads).length} lines, each its own agent`,
  notReached: (reads) =>
    withAgent(reads).length < 2
      ? `the receptionist of fewer than two lines was read with an agent id (${reads.map((r) => `${r.line}: ${r.exchange.status}`).join(', ') || 'no line known'})`
      : undefined,
});

/** A calendar's owner as read, where it has a user_id and a boolean is_current_user. */
interface Owned {
  line: string;
  calendar: string;
  user: string;
  current: boolean;
  exchange: Exchange;
}

function ownersShown(reads: readonly LineConfig[]): Owned[] {
  return reads.flatMap((read) =>
    calendarsOf(read.config).flatMap((c) => {
      const owner = c.owner;
      return isObject(owner) && typeof owner.user_id === 'string' && typeof owner.is_current_user === 'boolean'
        ? [
            {
              line: read.line,
              calendar: c.calendar_connection_id,
              user: owner.user_id,
              current: owner.is_current_user,
              exchange: read.exchange,
            },
          ]
        : [];
    }),
  );
}

const shown = (o: Owned) => `${o.user} (calendar ${o.calendar} on ${o.line})`;

/** The lines as a key of the team whose member the config names (user_id) reads them. */
interface ReadBy {
  key: ConfigKey & { user_id: string };
  reads: LineConfig[];
}

/**
 * The team's keys whose member the config names (user_id) and that may read the receptionists, one
 * per member (at most three): each reads every line, and is_current_user must name its member.
 */
async function readByMembers(t: CheckContext): Promise<ReadBy[]> {
  const read = t.op(READ);
  const byMember = new Map<string, ConfigKey & { user_id: string }>();
  for (const key of t.config.config.keys)
    if (
      key.user_id !== undefined &&
      key.key !== t.config.apiKey &&
      (key.kind ?? 'active') === 'active' &&
      scopeStanding(read, key.scopes) !== 'insufficient' &&
      !byMember.has(key.user_id) &&
      byMember.size < 3
    )
      byMember.set(key.user_id, { ...key, user_id: key.user_id });
  const readBy: ReadBy[] = [];
  for (const key of byMember.values()) readBy.push({ key, reads: await readEveryLine(t, key) });
  return readBy;
}

/**
 * An owner other than the key's member named current. Its own member need not be (a server may
 * name no owner current for a key, as the run key's reads allow): only another member's calendar
 * called the reader's own is a fault.
 */
function memberProblems({ key, reads }: ReadBy): Problem[] {
  return ownersShown(reads).flatMap((o) =>
    unless(
      !o.current || o.user === key.user_id,
      `read with key ${key.name}, which belongs to ${key.user_id}: owner ${shown(o)} is is_current_user: true ("is_current_user" names the key's member only)`,
      o.exchange,
    ),
  );
}

interface CurrentUser {
  reads: LineConfig[];
  readBy: ReadBy[];
}

/** One user at most is the key's own, and each owner is it or not alike on every calendar. */
function currentUserProblems(reads: readonly LineConfig[]): Problem[] {
  const owners = ownersShown(reads);
  const first = owners.find((o) => o.current);
  const other = owners.find((o) => o.current && first !== undefined && o.user !== first.user);
  const split = owners.find((o) => owners.some((p) => p.user === o.user && p.current !== o.current));
  const problems: Problem[] = [];
  if (first && other)
    problems.push({
      message: `owners ${shown(first)} and ${shown(other)} are both is_current_user: true, but a key acts for one user (the key's owner)`,
      exchange: other.exchange,
    });
  if (split)
    problems.push({
      message: `owner ${split.user} is is_current_user: true on one calendar and false on another, read with the same key`,
      exchange: split.exchange,
    });
  return problems;
}

rule({
  id: 'receptionist.current-user',
  title:
    "is_current_user is true for one calendar owner at most, the key's own, and alike on each of that owner's calendars; read with the team's other keys whose member the config names (user_id), true on no other member's calendar",
  source:
    'scheduling.calendars: "owner { user_id, user_name, email, is_current_user (boolean) }"; dialer queue: "the queue of the API key owner" (a key acts for one user)',
  precondition:
    "calendars of two different owners shown (every line's receptionist read); each line read again by the team's keys whose member --config names (user_id), one per member, after the run's key (a receptionist kept per line shows another member's view)",
  ...readWhere,
  needs: { stateful: true },
  requests: async (t): Promise<CurrentUser> => ({ reads: await everyLineOnce(t), readBy: await readByMembers(t) }),
  problems: ({ reads, readBy }) => [...currentUserProblems(reads), ...readBy.flatMap(memberProblems)],
  passed: ({ reads, readBy }) =>
    `${ownersShown(reads).length} calendars of ${new Set(ownersShown(reads).map((o) => o.user)).size} owners${readBy.length > 0 ? `; read again by the keys of ${readBy.map((r) => r.key.user_id).join(', ')}` : ''}`,
  notReached: ({ reads }) =>
    new Set(ownersShown(reads).map((o) => o.user)).size < 2
      ? 'no two calendars of different owners are shown on the receptionists of the lines read'
      : undefined,
});

/** A calendar connected to the team, known by its entry as another line shows it or by its id alone. */
function knownCalendars(t: CheckContext, reads: readonly LineConfig[]): Map<string, Json> {
  const known = new Map<string, Json>();
  for (const read of reads) for (const c of calendarsOf(read.config)) known.set(c.calendar_connection_id, c);
  for (const id of t.config.config.fixtures.calendar_connection_ids ?? [])
    if (!known.has(id)) known.set(id, { calendar_connection_id: id });
  return known;
}

/** A line and a known calendar outside its selection: a line that books on another first. */
function choose(reads: readonly LineConfig[], known: ReadonlyMap<string, Json>) {
  const options = reads.flatMap((read) => {
    if (!read.config) return [];
    const ids = idsOf(read.config);
    const calendar = [...known.keys()].find((id) => !ids.includes(id));
    return calendar ? [{ read, calendar, booksOn: ids.length }] : [];
  });
  return options.find((o) => o.booksOn > 0) ?? options[0];
}

interface Selection {
  line: string;
  calendar: string;
  before: LineConfig[];
  written: Exchange;
  /** The same calendar sent twice was refused: then it was sent once. */
  duplicateRefused: boolean;
  after: LineConfig[];
  /** Then the line's own calendars with the chosen one after them (where it books on some), read back. */
  together?: { written: Exchange; read?: LineConfig; known: Map<string, Json> };
  restored: Exchange;
}

type NoChoice = { known: string[]; lines: number };

const select = (t: CheckContext, line: string, calendars: unknown[]) =>
  t.call({ params: { number: line }, body: nest(CALENDARS, calendars) }, {}, WRITE);

async function selectOne(t: CheckContext): Promise<Selection | NoChoice> {
  const before = await readEveryLine(t);
  const known = knownCalendars(t, before);
  const choice = choose(before, known);
  if (!choice) return { known: [...known.keys()], lines: before.filter((r) => r.config).length };
  const { read, calendar } = choice;
  const entry = known.get(calendar) as Json;
  // A set: the calendar sent twice is one selection (or refused, and then sent once).
  let written = await select(t, read.line, [entry, entry]);
  const duplicateRefused = written.status === 400;
  if (duplicateRefused) written = await select(t, read.line, [entry]);
  const after = ok(written) ? await readEveryLine(t) : [];
  // Several at once: the line's own, then the chosen one (each calendar shown as itself, the second too).
  const own = calendarsOf(read.config);
  let together: Selection['together'];
  if (ok(written) && own.length > 0) {
    const both = await select(t, read.line, [...own, entry]);
    const again = ok(both) ? (await readEveryLine(t)).find((r) => r.line === read.line) : undefined;
    together = { written: both, ...(again ? { read: again } : {}), known };
  }
  const restored = await select(t, read.line, own);
  return {
    line: read.line,
    calendar,
    before,
    written,
    duplicateRefused,
    after,
    ...(together ? { together } : {}),
    restored,
  };
}

/** Each calendar of a selection of several is shown as itself: as the line that showed it first showed it. */
function togetherProblems({ line, together }: Selection): Problem[] {
  if (!together) return [];
  const { written, read, known } = together;
  if (!ok(written))
    return [
      { message: `selecting several calendars on ${line}: expected 2xx, got ${written.status}`, exchange: written },
    ];
  return calendarsOf(read?.config).flatMap((c) => {
    const found = known.get(c.calendar_connection_id);
    const differs = Object.keys(found ?? {}).filter((k) => k in c && !deepEqual(c[k], found?.[k]));
    return differs.length === 0
      ? []
      : [
          {
            message: `${c.calendar_connection_id}, selected on ${line} with others, shows ${differs.join(', ')} as ${short(differs.map((k) => c[k]))}, where it was found as ${short(differs.map((k) => found?.[k]))}`,
            exchange: read?.exchange ?? written,
          },
        ];
  });
}

function selectionProblems(s: Selection): Problem[] {
  const restoring = unless(
    ok(s.restored),
    `restoring the calendars of ${s.line} failed (${s.restored.status})`,
    s.restored,
  );
  if (!ok(s.written))
    return [
      {
        message: `selecting calendar ${s.calendar} on ${s.line}: expected 2xx, got ${s.written.status}`,
        exchange: s.written,
      },
      ...restoring,
    ];
  const others = s.after.filter((r) => r.line !== s.line);
  const written = s.after.find((r) => r.line === s.line);
  const ids = idsOf(written?.config);
  return [
    ...unless(
      deepEqual(ids, [s.calendar]),
      `${s.line} selected ${s.calendar} alone${s.duplicateRefused ? '' : ' (sent twice: one calendar)'}, but its receptionist books on ${short(ids)}`,
      written?.exchange ?? s.written,
    ),
    ...others.flatMap((r) => {
      const was = idsOf(s.before.find((b) => b.line === r.line)?.config);
      return unless(
        deepEqual(idsOf(r.config), was),
        `${r.line}'s calendars changed from ${short(was)} to ${short(idsOf(r.config))} when only ${s.line}'s were selected`,
        r.exchange,
      );
    }),
    ...togetherProblems(s),
    ...restoring,
  ];
}

rule({
  id: 'receptionist.calendars-selected',
  title:
    "A connected calendar selected on a line (sent twice: a set) is the one calendar its receptionist then books on, and no other line changes; selected after the line's own, each calendar shows as itself (its owner, name, status as found)",
  source:
    'scheduling.calendars: "only the calendars this receptionist books on"; updateReceptionist: "Collections are replaced as complete sets: … scheduling.calendars"; the API "only lists connected ones and selects what the receptionist books on"',
  precondition:
    "a calendar connected to the team (shown on another line's receptionist, or named in fixtures.calendar_connection_ids) outside the selection of a line that books on another one (else on none); then that line's own calendars and it, together",
  ...statefulWrite(WRITE),
  requests: selectOne,
  problems: (s) => ('written' in s ? selectionProblems(s) : []),
  passed: (s) =>
    'written' in s
      ? `${s.calendar} selected on ${s.line}${s.duplicateRefused ? ' (sent twice: refused, then sent once)' : ' (sent twice)'}: shown alone there, the other lines unchanged`
      : undefined,
  notReached: (s) =>
    'written' in s
      ? undefined
      : `no line read (${s.lines}) has a known calendar outside its selection (known: ${s.known.join(', ') || 'none'}; name the team's calendars in fixtures.calendar_connection_ids)`,
});
