// Mutants of the receptionist and people gap classes mutation testing of the reference server left
// (issue 34): each breaks its class somewhere other than the handler mutant that showed it, so the
// check is general. The sandbox's mutants showed no calendar, or the first connected one, whatever
// was selected; here a server shows only its key's own user's calendars, or lists a calendar sent
// twice twice. They never applied a single value of the agent block; here the relay drops those
// values before the server reads them. They found no person for any id; here the id is lowercased
// on its way. They answered every line with the first receptionist; here the path is routed to the
// main line. They marked every calendar's owner the current user; here the owner is current on
// every line but the main one. Each is caught by name (and its report replayed), and what the
// description allows still passes: a duplicate calendar refused, no owner the current user, the
// single values taken only inside the agent block, a person update accepted.
import { afterAll, describe, expect, it } from 'vitest';
import { itCatchesEachByName, type Mutant, removeOutputs, runAgainst } from './support/mutants.js';
import { json, type Mutation, mutatingProxy, type ProxiedRequest, sandbox } from './support/servers.js';

afterAll(removeOutputs);

/** The seed's main line, the one every other line is routed to by the mutant. */
const MAIN_LINE = '+14155550100';

const pathOf = (q: ProxiedRequest) => q.path.split('?')[0] ?? '';
const lineOf = (q: ProxiedRequest) => /^\/v2\/api\/numbers\/([^/]+)\/agent$/.exec(pathOf(q))?.[1];
const isAgent = (q: ProxiedRequest) => lineOf(q) !== undefined;
const bodyOf = (q: ProxiedRequest): Record<string, unknown> => {
  try {
    const body = JSON.parse(q.body ?? '') as unknown;
    return typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};
const withBody = (q: ProxiedRequest, body: Record<string, unknown>): ProxiedRequest => ({
  ...q,
  body: JSON.stringify(body),
});

type Calendar = { calendar_connection_id?: unknown; owner?: { user_id?: unknown; is_current_user?: unknown } };

/** The calendars of a receptionist answer changed (a 2xx with a body only). */
function calendarsOfAnswer(change: (calendars: Calendar[], q: ProxiedRequest) => Calendar[]): Mutation {
  return {
    response: (r, q) =>
      isAgent(q) && r.status === 200
        ? json(r, (b) => {
            const scheduling = (b.data as { scheduling?: { calendars?: Calendar[] } } | undefined)?.scheduling;
            if (scheduling && Array.isArray(scheduling.calendars))
              scheduling.calendars = change(scheduling.calendars, q);
          })
        : r,
  };
}

/** The key's own user: the owner the sandbox marks current on the main line's calendars. */
const ownCalendarsOnly = calendarsOfAnswer((calendars) => calendars.filter((c) => c.owner?.is_current_user === true));

/** The calendars of each line as last sent, duplicates kept, shown in place of the set the server stored. */
function listsAsSent(): Mutation {
  const sent = new Map<string, unknown[]>();
  const shown = calendarsOfAnswer((calendars, q) => {
    const ids = sent.get(lineOf(q) ?? '');
    if (!ids) return calendars;
    return ids.flatMap((id) => calendars.filter((c) => c.calendar_connection_id === id).slice(0, 1));
  });
  return {
    request: (q) => {
      const calendars = (bodyOf(q).scheduling as { calendars?: Calendar[] } | undefined)?.calendars;
      if (q.method === 'PATCH' && isAgent(q) && Array.isArray(calendars))
        sent.set(
          lineOf(q) ?? '',
          calendars.map((c) => c.calendar_connection_id),
        );
      return q;
    },
    ...shown,
  };
}

/** The single values of a receptionist update (flat, or in the agent block) dropped before the server reads them. */
const dropsSingleValues: Mutation = {
  request: (q) => {
    if (q.method !== 'PATCH' || !isAgent(q)) return q;
    const { agent: _agent, ...rest } = bodyOf(q);
    const kept = Object.entries(rest).filter(([, value]) => typeof value === 'object' && value !== null);
    return withBody(q, Object.fromEntries(kept));
  },
};

/** The person id of an update lowercased on its way (ids are case-sensitive: per-6Kx2hD9m is not per-6kx2hd9m). */
const lowercasesPersonIds: Mutation = {
  request: (q) =>
    q.method === 'PUT' && pathOf(q).startsWith('/v2/api/crm/people/')
      ? { ...q, path: q.path.replace(/\/crm\/people\/([^/?]+)/, (_m, id: string) => `/crm/people/${id.toLowerCase()}`) }
      : q,
};

/** Every line's receptionist read from the main line (the number in the path taken for the team's default line). */
const routesToMainLine: Mutation = {
  request: (q) =>
    q.method === 'GET' && isAgent(q)
      ? { ...q, path: q.path.replace(/\/numbers\/[^/]+\/agent/, `/numbers/${encodeURIComponent(MAIN_LINE)}/agent`) }
      : q,
};

/** is_current_user read as "owned by someone of this line" on every line but the main one. */
const currentPerLine = calendarsOfAnswer((calendars, q) =>
  decodeURIComponent(lineOf(q) ?? '') === MAIN_LINE
    ? calendars
    : calendars.map((c) => ({ ...c, owner: { ...c.owner, is_current_user: true } })),
);

const GAPS: Mutant[] = [
  {
    name: "shows on a receptionist only the calendars of the key's own user",
    caughtBy: 'receptionist.calendars-selected',
    only: ['receptionist.calendars-selected'],
    allowWrites: true,
    mutation: ownCalendarsOnly,
  },
  {
    name: 'lists a calendar selected twice twice',
    caughtBy: 'receptionist.calendars-selected',
    only: ['receptionist.calendars-selected'],
    allowWrites: true,
    mutation: () => listsAsSent(),
  },
  {
    name: 'drops the single values of a receptionist update, flat or in the agent block',
    caughtBy: 'receptionist.merge-rules',
    only: ['receptionist.merge-rules'],
    allowWrites: true,
    mutation: dropsSingleValues,
  },
  {
    name: 'looks a person up by its id lowercased',
    caughtBy: 'people.update-existing',
    only: ['people.update-existing'],
    allowWrites: true,
    mutation: lowercasesPersonIds,
  },
  {
    name: "answers every line with the main line's receptionist",
    caughtBy: 'receptionist.one-per-line',
    only: ['receptionist.one-per-line'],
    mutation: routesToMainLine,
  },
  {
    name: 'marks the owner of every calendar the current user on every line but the main one',
    caughtBy: 'receptionist.current-user',
    only: ['receptionist.current-user'],
    mutation: currentPerLine,
  },
];

/** An error answer in the API's dialect (a documented code of the operation), its request id kept. */
function refusal(
  status: number,
  type: string,
  code: string,
  fields: Record<string, unknown> = {},
): NonNullable<Mutation['response']> {
  return (r) => {
    const headers = new Headers(r.headers);
    headers.set('content-type', 'application/json');
    const error = { type, code, message: `${code} (a harmless variation)`, retryable: false, ...fields };
    return {
      status,
      headers,
      body: JSON.stringify({ error: { ...error, request_id: r.headers.get('x-request-id') } }),
    };
  };
}

/** A calendar sent twice in one selection refused as invalid (400 INVALID_REQUEST). */
const refusesDuplicateCalendars: Mutation = {
  response: (r, q) => {
    const calendars = (bodyOf(q).scheduling as { calendars?: Calendar[] } | undefined)?.calendars;
    const ids = Array.isArray(calendars) ? calendars.map((c) => c.calendar_connection_id) : [];
    return q.method === 'PATCH' && isAgent(q) && new Set(ids).size < ids.length
      ? refusal(400, 'validation_error', 'INVALID_REQUEST', {
          message: 'Request validation failed',
          errors: [
            {
              field: 'scheduling.calendars',
              code: 'INVALID_REQUEST',
              message: 'a calendar is selected twice (a harmless variation)',
            },
          ],
        })(r, q)
      : r;
  },
};

/** Single values refused flat (400 UNKNOWN_FIELD): the body-form reading that takes them in the agent block only. */
const refusesFlatSingleValues: Mutation = {
  response: (r, q) => {
    const flat = Object.entries(bodyOf(q)).find(([, value]) => typeof value === 'string')?.[0];
    return q.method === 'PATCH' && isAgent(q) && flat !== undefined
      ? refusal(400, 'validation_error', 'UNKNOWN_FIELD', {
          message: `${flat} is not a field of this body (a harmless variation)`,
        })(r, q)
      : r;
  },
};

/** Each calendar entry with a field more and the list in the other order. */
const calendarsReordered = calendarsOfAnswer((calendars) =>
  [...calendars].reverse().map((c) => ({ ...c, booking_url: 'https://calendar.example/book' })),
);

/** A response's headers for an answer without a body (every other header kept: request id, rate limits). */
function withoutBody(headers: Headers): Headers {
  const kept = new Headers(headers);
  kept.delete('content-type');
  return kept;
}

const ALLOWED: Array<{ name: string; exercises: string; only: string[]; allowWrites?: boolean; mutation: Mutation }> = [
  {
    name: 'a calendar sent twice refused',
    exercises: 'receptionist.calendars-selected',
    only: ['receptionist.calendars-selected'],
    allowWrites: true,
    mutation: refusesDuplicateCalendars,
  },
  {
    name: 'calendar entries with a field more, in the other order',
    exercises: 'receptionist.calendars-selected',
    only: ['receptionist.calendars-selected', 'receptionist.current-user'],
    allowWrites: true,
    mutation: calendarsReordered,
  },
  {
    name: 'no owner the current user',
    exercises: 'receptionist.current-user',
    only: ['receptionist.current-user'],
    mutation: calendarsOfAnswer((calendars) =>
      calendars.map((c) => ({ ...c, owner: { ...c.owner, is_current_user: false } })),
    ),
  },
  {
    name: 'the single values taken inside the agent block only (refused flat)',
    exercises: 'receptionist.merge-rules',
    only: ['receptionist.merge-rules'],
    allowWrites: true,
    mutation: refusesFlatSingleValues,
  },
  {
    name: 'a person update accepted (204)',
    exercises: 'people.update-existing',
    only: ['people.update-existing'],
    allowWrites: true,
    mutation: {
      response: (r, q) =>
        q.method === 'PUT' && pathOf(q).startsWith('/v2/api/crm/people/')
          ? { status: 204, headers: withoutBody(r.headers), body: '' }
          : r,
    },
  },
];

describe('the receptionist and people gap classes: each mutant caught by name', () => {
  itCatchesEachByName(GAPS);

  it('the same subsets pass against the sandbox itself, each check passing', async () => {
    const upstream = await sandbox();
    try {
      for (const mutant of GAPS) {
        const { result, failed } = await runAgainst(upstream, mutant);
        expect(failed, mutant.only.join(',')).toEqual([]);
        const checks = result.report.operations.flatMap((op) => op.checks).filter((c) => c.id === mutant.caughtBy);
        expect(
          checks.map((c) => c.status),
          mutant.caughtBy,
        ).toEqual(['passed']);
      }
    } finally {
      await upstream.close();
    }
  });

  for (const allowed of ALLOWED)
    it(`what the description allows passes: ${allowed.name}`, async () => {
      const upstream = await sandbox();
      const target = await mutatingProxy(upstream, allowed.mutation);
      try {
        const { result, failed } = await runAgainst(target, { ...allowed, caughtBy: allowed.exercises });
        expect(failed).toEqual([]);
        expect(result.exitCode).toBe(0);
        const checks = result.report.operations.flatMap((op) => op.checks).filter((c) => c.id === allowed.exercises);
        expect(checks.map((c) => c.status)).toEqual(['passed']);
      } finally {
        await target.close();
        await upstream.close();
      }
    });
});
