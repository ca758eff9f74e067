// The declared person update (fixtures.person_update): the one update of a person the run sends to
// succeed, since neither its body nor whether PUT merges or replaces is shown. With it, the person
// update meets what every keyed write meets (replay, not re-executed), and what any update of a
// record does: the team's reads show the person as updated (a people search, by every key of the
// team that may search, and a deal that links the person, whose `person` names are shown), then as
// put back. Each check sends the declared undo last; the undo ledger sends it once more at the end.
import { setTimeout as sleep } from 'node:timers/promises';
import { ownExample, requestBodyMedia } from '@svc/spec-runtime/walk';
import type { ApiRequest, Exchange } from '../http/exchange.js';
import type { PersonUpdateFixture } from '../types.js';
import { type CheckContext, contractOperation, type Problem, rule, statefulWrite } from './harness.js';
import { unless } from './problems.js';
import {
  asKey,
  deepEqual,
  firstDifference,
  IDEMPOTENCY_REPLAY,
  type Json,
  objectWithId,
  ok,
  type Repeats,
  replayProblems,
  sendRepeats,
  short,
  storedReplayProblems,
  TIMESTAMP_TICK_MS,
  teamReaders,
} from './support.js';

const OP = 'updatePerson';
const SEARCH = 'searchPeople';

function declared(t: CheckContext): PersonUpdateFixture {
  return (
    t.config.config.fixtures.person_update ??
    t.skip(
      'no person update the server may apply is declared (set fixtures.person_update: its body is not shown)',
      'config',
    )
  );
}

const update = (t: CheckContext, person: PersonUpdateFixture, body: Json, extra: Partial<ApiRequest> = {}) =>
  t.call({ params: { id: person.id }, body }, extra, OP);

/** Who reads the person: a search by a key (the run's own where `key` is absent), or a deal read by id. */
interface Reader {
  what: string;
  read: () => Promise<Exchange>;
  /** A deal keeps its person whatever the names; a search by words may stop finding a renamed one. */
  keepsPerson: boolean;
}

function readers(t: CheckContext, person: PersonUpdateFixture, deals: string[]): Reader[] {
  const search =
    person.search ??
    ownExample(t.spec.contract.bundle, requestBodyMedia(t.spec.contract.bundle, t.op(SEARCH).raw))?.value;
  const searchBy = (key?: { name: string; key: string }): Reader => ({
    what: `a people search (${short(search)}) by ${key ? `the team's key ${key.name}` : 'the run key'}`,
    read: () => t.call({ body: search ?? {} }, asKey(key), SEARCH),
    keepsPerson: false,
  });
  const others = teamReaders(t, t.op(SEARCH), t.op(OP), '');
  return [
    searchBy(),
    ...others.map(searchBy),
    ...deals.map((id) => ({
      what: `the deal ${id}`,
      read: () => t.call({ params: { id } }, {}, 'getDeal'),
      keepsPerson: true,
    })),
  ];
}

/** A reader's view of the person: the fields it shows, where its answer shows the person at all. */
interface View {
  what: string;
  keepsPerson: boolean;
  exchange: Exchange;
  entry?: Json;
  /** How many objects of the answer have the person's id (a list holds a person once). */
  times: number;
}

/** How many objects in an answer have the id (one found is not searched further). */
function timesShown(value: unknown, id: string, depth = 0): number {
  if (depth > 6 || value === null || typeof value !== 'object') return 0;
  if (!Array.isArray(value) && (value as Json).id === id) return 1;
  return Object.values(value).reduce((n: number, child) => n + timesShown(child, id, depth + 1), 0);
}

async function views(person: PersonUpdateFixture, all: Reader[]): Promise<View[]> {
  const seen: View[] = [];
  for (const reader of all) {
    const exchange = await reader.read();
    const entry = ok(exchange) ? objectWithId(exchange.body, person.id) : undefined;
    const times = ok(exchange) ? timesShown(exchange.body, person.id) : 0;
    seen.push({ what: reader.what, keepsPerson: reader.keepsPerson, exchange, times, ...(entry ? { entry } : {}) });
  }
  return seen;
}

/** The fields of `values` a view shows that hold something else. */
function unlike(view: View, values: Json, shownBefore: Json | undefined): string[] {
  const entry = view.entry;
  if (!entry || !shownBefore) return [];
  return Object.entries(values)
    .filter(([field]) => field in shownBefore && !deepEqual(entry[field], values[field]))
    .map(([field, value]) => `${field} ${short(entry[field])} (expected ${short(value)})`);
}

/** A declared update that was refused: nothing after it can be judged. */
function refused(what: string, exchange: Exchange): Problem[] {
  return unless(ok(exchange), `${what}: expected 2xx, got ${exchange.status} ${short(exchange.body)}`, exchange);
}

const { method } = contractOperation(OP);

interface ReplayedUpdate {
  replayed: string;
  repeats: Repeats;
  /** The person as the run key's search shows it after the first update, and after its repeats. */
  searched: View[];
  undone: Exchange;
}

/** "The operation is not re-executed": the person searched after the repeats is as after the first update. */
function reExecuted({ searched: [before, after] }: ReplayedUpdate): Problem[] {
  const difference = before?.entry && after?.entry ? firstDifference(before.entry, after.entry) : undefined;
  if (!difference || !after) return [];
  return [
    {
      message: `the repeats replayed the update but changed the person as searched: ${difference.at} ${short(difference.got)} (after the first update: ${short(difference.stored)}): the operation was executed again`,
      exchange: after.exchange,
    },
  ];
}

rule({
  ...IDEMPOTENCY_REPLAY,
  ...statefulWrite(OP, method),
  requests: async (t): Promise<ReplayedUpdate> => {
    const person = declared(t);
    const [runKeySearch] = readers(t, person, []);
    const searched: View[] = [];
    const repeats = await sendRepeats(
      t,
      `${method} the declared update of ${person.id}`,
      'replay',
      async (keyed, n) => {
        if (n === 1 && runKeySearch) searched.push(...(await views(person, [runKeySearch])));
        // The last repeat a second later: an update executed again moves a timestamp of whole seconds.
        if (n === 3) await sleep(TIMESTAMP_TICK_MS);
        return update(t, person, person.body, keyed);
      },
    );
    if (searched.length > 0 && runKeySearch) searched.push(...(await views(person, [runKeySearch])));
    const undone = await update(t, person, person.undo);
    return { replayed: t.spec.idempotencyReplayedHeader, repeats, searched, undone };
  },
  problems: (s) => [
    ...replayProblems(s.repeats, s.replayed),
    ...reExecuted(s),
    ...(ok(s.repeats.first) ? refused('the declared undo (fixtures.person_update.undo)', s.undone) : []),
  ],
  passed: ({ repeats }) => `${repeats.what}: 3 repeats replayed, then put back`,
});

interface Shown {
  person: PersonUpdateFixture;
  before: View[];
  updated: Exchange;
  after: View[];
  undone?: Exchange;
  restored: View[];
}

rule({
  id: 'people.update-shown',
  title:
    "A person updated shows the update wherever the team reads it (a people search by each of the team's keys that may search, a deal linking the person), and shows the undo after it",
  source:
    '"PUT /v2/api/crm/people/{id} | Updates a person"; "POST /v2/api/crm/people/search | Searches people"; deal "person ({ id, name, last_name })"; "A key belongs to a single team"',
  precondition:
    "fixtures.person_update (the update's body is not shown), the person found by id in the answer of a people search of each key (the run's, and the team's other keys that may search: searched first, so that an answer kept per key shows) or in a deal that links it, before the update",
  ...statefulWrite(OP, 'shown'),
  requests: async (t): Promise<Shown> => {
    const person = declared(t);
    const all = readers(t, person, (await t.fixtures()).deals.slice(0, t.config.fixturesPerKind ?? 20));
    const before = await views(person, all);
    const shown = all.filter((_, i) => before[i]?.entry !== undefined);
    const updated = await update(t, person, person.body);
    if (!ok(updated)) return { person, before, updated, after: [], restored: [] };
    const after = await views(person, shown);
    const undone = await update(t, person, person.undo);
    return { person, before, updated, after, undone, restored: await views(person, shown) };
  },
  problems: ({ person, before, updated, after, undone, restored }) => {
    if (!ok(updated)) return refused(`the declared update of ${person.id} (${short(person.body)})`, updated);
    const shownBefore = (what: string) => before.find((v) => v.what === what)?.entry;
    const differing = (views: View[], values: Json, when: string) =>
      views.flatMap((view) => {
        const fields = unlike(view, values, shownBefore(view.what));
        const gone = view.entry === undefined && view.keepsPerson;
        const once = before.find((v) => v.what === view.what)?.times ?? 0;
        return [
          ...unless(
            fields.length === 0 && !gone,
            gone
              ? `${view.what} ${when}: the person ${person.id} it showed before is not in the answer`
              : `${view.what} ${when} shows ${person.id} with ${fields.join(', ')}`,
            view.exchange,
          ),
          ...unless(
            view.times <= Math.max(once, 1),
            `${view.what} ${when} shows ${person.id} ${view.times} times (${once} before)`,
            view.exchange,
          ),
        ];
      });
    return [
      ...differing(after, person.body, `after the update ${short(person.body)}`),
      ...(undone ? refused('the declared undo (fixtures.person_update.undo)', undone) : []),
      ...(undone && ok(undone) ? differing(restored, person.undo, `after the undo ${short(person.undo)}`) : []),
    ];
  },
  notReached: ({ person, before, after }) =>
    after.some((v) => {
      const shown = before.find((b) => b.what === v.what)?.entry ?? {};
      return v.entry !== undefined && Object.keys(person.body).some((field) => field in shown);
    })
      ? undefined
      : `no people search answer and no deal showed ${person.id} with a field the update sets (set fixtures.person_update.search to a search that finds it)`,
  passed: ({ person, after }) =>
    `${person.id} updated and put back; seen by ${after
      .filter((v) => v.entry)
      .map((v) => v.what)
      .join('; ')}`,
});

interface Rerun {
  person: PersonUpdateFixture;
  first: Exchange;
  undone?: Exchange;
  again?: Exchange;
  after?: View;
  putBack?: Exchange;
}

// Idempotency 3: "the operation is not re-executed". Only a change between the keyed update and its
// replay shows a server that applies the update again and only marks the answer replayed (or that
// answers the person as it is now instead of the stored response): the undo, sent without the key.
rule({
  id: 'people.replay-not-rerun',
  title:
    'A keyed person update sent again after its undo is the stored response replayed, not applied again: the person keeps the undo',
  source:
    'Idempotency 3: "returns the stored response with the header Idempotency-Replayed: true, and the operation is not re-executed"; "PUT /v2/api/crm/people/{id} | Updates a person"',
  precondition:
    'fixtures.person_update: the update with a key, the undo without one, the update again with the key; then the person found by id in a people search (the run key)',
  ...statefulWrite(OP, 'rerun'),
  requests: async (t): Promise<Rerun> => {
    const person = declared(t);
    const idempotencyKey = `svc-contract-${t.config.runId}-rerun-person`;
    const first = await update(t, person, person.body, { idempotencyKey });
    if (!ok(first)) return { person, first };
    const undone = await update(t, person, person.undo);
    const again = await update(t, person, person.body, { idempotencyKey, requestId: `${idempotencyKey}-again` });
    const [search] = readers(t, person, []);
    const [after] = search ? await views(person, [search]) : [];
    // A server that applied the update again is put back; one that did not costs nothing more.
    const kept = after?.entry && unlike(after, person.undo, after.entry).length === 0;
    return {
      person,
      first,
      undone,
      again,
      ...(after ? { after } : {}),
      ...(kept ? {} : { putBack: await update(t, person, person.undo) }),
    };
  },
  problems: ({ person, first, undone, again, after }, t) => {
    if (!undone || !again) return refused(`the declared update of ${person.id} with a key`, first);
    if (!ok(undone)) return refused('the declared undo (fixtures.person_update.undo)', undone);
    const replayed = t.spec.idempotencyReplayedHeader;
    return [
      ...storedReplayProblems(
        `the update of ${person.id} sent again with its key after the undo`,
        first,
        again,
        replayed,
      ),
      ...(after
        ? unless(
            unlike(after, person.undo, after.entry).length === 0,
            `the update of ${person.id} sent again with its key after the undo ran again: ${after.what} shows ${unlike(after, person.undo, after.entry).join(', ')} ("the operation is not re-executed")`,
            after.exchange,
          )
        : []),
    ];
  },
  notReached: ({ person, after }) =>
    after?.entry && Object.keys(person.undo).some((field) => field in (after.entry ?? {}))
      ? undefined
      : `the people search showed no field of ${person.id} the update sets: a second run of the update could not be seen (set fixtures.person_update.search)`,
  passed: ({ person }) => `${person.id}: update (keyed), undo, update (same key): replayed, the undo kept`,
});
