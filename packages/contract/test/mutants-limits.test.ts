// Mutants of the gap classes mutation testing of the reference server left in its rate limiter and
// in what a mention lists (issue 34): each breaks its class somewhere other than the sandbox's own
// code that showed it (a relay in front of the sandbox, not the limiter or the mention resolver), so
// the check is general: writes counted against reads by a relay with windows of its own, a write
// budget never given back, every mention named after the comment's author, no member ever deleted,
// a thread that cannot be read once it mentions an id the team never had. Each is caught by name
// (and again on replay); and what the description allows still passes: another windowing of the
// same budget, mentions named null, listed in another order, with fields of their own.
import { loadSeedFile } from '@svc/sandbox';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../src/spec.js';
import { itCatchesEachByName, type Mutant, PACED, removeOutputs, runAgainst } from './support/mutants.js';
import { isThreadRead } from './support/requests.js';
import { json, type Mutation, mutatingProxy, type ProxiedRequest, sandbox, tooMany } from './support/servers.js';

afterAll(removeOutputs);

// The documented budgets and which methods count as writes, read from the bundled spec.
const DOCUMENTED = loadSpec().contract.limits;
const READS_PER_SECOND = DOCUMENTED.readRequestsPerSecond;
const WRITES_PER_SECOND = DOCUMENTED.writeRequestsPerSecond;
const WRITES = new Set(DOCUMENTED.writeMethods);

/** Arrival times (ms) of the requests of the last second, by budget. */
function slidingLog() {
  const log = new Map<string, number[]>();
  return (budget: string, now: number): number[] => {
    const recent = (log.get(budget) ?? []).filter((at) => at > now - 1000);
    log.set(budget, recent);
    return recent;
  };
}

/**
 * A limiter of its own, over sliding one-second windows: a request is refused when the requests of
 * its budget that came in the second before it already fill `limit(q)`. `budgetOf` says which
 * requests share a budget.
 */
function slidingLimiter(budgetOf: (q: ProxiedRequest) => string, limit: (q: ProxiedRequest) => number): Mutation {
  const recent = slidingLog();
  const refused = new WeakSet<ProxiedRequest>();
  return {
    request: (q) => {
      const now = Date.now();
      // The documented budget is each key's own: requests of the run's other keys never count.
      const log = recent(`${q.headers.get('authorization') ?? ''} ${budgetOf(q)}`, now);
      if (log.length >= limit(q)) refused.add(q);
      log.push(now);
      return q;
    },
    response: (r, q) => (refused.has(q) ? tooMany(r) : r),
  };
}

const limitOf = (q: ProxiedRequest) => (WRITES.has(q.method) ? WRITES_PER_SECOND : READS_PER_SECOND);

/** Reads and writes counted in one budget: a write is refused once its second holds five requests of any kind. */
const countsReadsWithWrites = (): Mutation => slidingLimiter(() => 'every request', limitOf);

/** The write budget is never given back: past the fifth write, every write is refused. */
function neverGivesWritesBack(): Mutation {
  let writes = 0;
  return {
    response: (r, q) => (WRITES.has(q.method) && ++writes > WRITES_PER_SECOND ? tooMany(r) : r),
  };
}

/** Every mention of each comment of a thread read, changed by `change` (given the comment). */
function mentionsOfThreadReads(
  change: (mention: Record<string, unknown>, comment: Record<string, unknown>) => void,
): Mutation {
  return {
    response: (r, q) =>
      isThreadRead(q) && r.status === 200
        ? json(r, (b) => {
            const comments = (b.data as { comments?: Array<Record<string, unknown>> }).comments ?? [];
            for (const c of comments)
              for (const m of (c.mentions as Array<Record<string, unknown>> | undefined) ?? []) change(m, c);
          })
        : r,
  };
}

/** Each mention named after the comment's author (a join on the wrong user). */
const namedAfterAuthor = mentionsOfThreadReads((m, c) => {
  m.name = (c.user as { name?: unknown } | undefined)?.name ?? null;
});

/** No mentioned member is ever reported removed. */
const noneDeleted = mentionsOfThreadReads((m) => {
  m.deleted = false;
});

/** A thread whose comments mention an id the team never had is answered 500 when read. */
function unknownMentionBreaksReads(): Mutation {
  const ever = new Set(loadSeedFile().teams.flatMap((t) => (t.users ?? []).map((u) => u.id)));
  return {
    response: (r, q) => {
      if (!isThreadRead(q) || r.status !== 200) return r;
      const comments = (JSON.parse(r.body) as { data?: { comments?: Array<{ mentions?: unknown[] }> } }).data?.comments;
      const strangers = (comments ?? [])
        .flatMap((c) => c.mentions ?? [])
        .filter((m) => {
          const id = (m as { user_id?: unknown }).user_id;
          return typeof id === 'string' && !ever.has(id);
        });
      if (strangers.length === 0) return r;
      return json({ ...r, status: 500 }, (b) =>
        Object.assign(b, {
          data: undefined,
          error: {
            type: 'server_error',
            code: 'INTERNAL_SERVER_ERROR',
            message: 'Unexpected failure.',
            retryable: true,
            request_id: r.headers.get('x-request-id'),
          },
        }),
      );
    },
  };
}

const LIMITS: Mutant[] = [
  {
    name: 'counts writes with reads in one budget',
    caughtBy: 'rate-limit.within-budget',
    only: ['rate-limit.within-budget'],
    paced: true,
    mutation: countsReadsWithWrites,
  },
  {
    name: 'never gives the write budget back',
    caughtBy: 'rate-limit.within-budget',
    only: ['rate-limit.within-budget'],
    paced: true,
    mutation: neverGivesWritesBack,
  },
  {
    name: "names every mention after the comment's author",
    caughtBy: 'threads.mention-teammate',
    only: ['threads.mention-teammate'],
    allowWrites: true,
    mutation: namedAfterAuthor,
  },
  {
    name: 'reports no mentioned member removed',
    caughtBy: 'threads.mention-removed',
    only: ['threads.mention-removed'],
    allowWrites: true,
    mutation: noneDeleted,
  },
  {
    name: 'cannot read a thread once it mentions an id the team never had',
    caughtBy: 'threads.mention-unknown',
    only: ['threads.mention-unknown'],
    allowWrites: true,
    mutation: unknownMentionBreaksReads,
  },
];

/** Mentions as the description allows them: named null, in reverse order, with a field of their own. */
const mentionsOtherwise: Mutation = {
  response: (r, q) =>
    isThreadRead(q) && r.status === 200
      ? json(r, (b) => {
          const comments = (b.data as { comments?: Array<Record<string, unknown>> }).comments ?? [];
          for (const c of comments) {
            const mentions = (c.mentions as Array<Record<string, unknown>> | undefined) ?? [];
            c.mentions = mentions.reverse().map((m) => ({ ...m, name: null, mentioned_at: c.created_at }));
          }
        })
      : r,
};

const checkStatuses = (result: Awaited<ReturnType<typeof runAgainst>>['result'], id: string) =>
  result.report.operations
    .flatMap((op) => op.checks)
    .filter((c) => c.id === id)
    .map((c) => c.status);

describe('the rate-limit and mention gap classes: each mutant caught by name', () => {
  // The paced mutants of the main list too: this file starts first, so their waits overlap the
  // files that use the cores.
  itCatchesEachByName([...LIMITS, ...PACED]);

  it('each subset passes against the sandbox itself, its check passing', async () => {
    for (const mutant of LIMITS) {
      const upstream = await sandbox();
      try {
        const { result, failed } = await runAgainst(upstream, mutant);
        expect(failed, mutant.name).toEqual([]);
        expect(checkStatuses(result, mutant.caughtBy), mutant.caughtBy).toEqual(['passed']);
      } finally {
        await upstream.close();
      }
    }
  });

  it('a server that enforces the documented budget in windows of its own (sliding, and the sandbox fixed) passes', async () => {
    const upstream = await sandbox({ rateLimit: {} });
    // The sliding windows alone: behind the relay, a sandbox that counts nothing (the relay's own
    // delays must not meet the fixed windows of the one above).
    const unlimited = await sandbox();
    const sliding = await mutatingProxy(
      unlimited,
      slidingLimiter((q) => (WRITES.has(q.method) ? 'writes' : 'reads'), limitOf),
    );
    try {
      for (const target of [upstream, sliding]) {
        const { result, failed } = await runAgainst(target, {
          name: 'the documented budget',
          caughtBy: 'rate-limit.within-budget',
          only: ['rate-limit'],
          paced: true,
        });
        expect(failed).toEqual([]);
        expect(checkStatuses(result, 'rate-limit.within-budget')).toEqual(['passed']);
      }
    } finally {
      await sliding.close();
      await unlimited.close();
      await upstream.close();
    }
  });

  it('mentions named null, listed in another order, with a field of their own, pass', async () => {
    const upstream = await sandbox();
    const target = await mutatingProxy(upstream, mentionsOtherwise);
    try {
      const checks = ['threads.mention-teammate', 'threads.mention-removed', 'threads.mention-unknown'];
      const { result, failed } = await runAgainst(target, {
        name: 'mentions otherwise',
        caughtBy: 'threads.mention-teammate',
        only: [...checks, 'threads.mentions'],
        allowWrites: true,
      });
      expect(failed).toEqual([]);
      for (const check of checks) expect(checkStatuses(result, check), check).toEqual(['passed']);
    } finally {
      await target.close();
      await upstream.close();
    }
  });
});
