// Mutants of the gap classes mutation testing of the reference server left (issue 34): each breaks
// its class somewhere other than the handler mutant that showed it, so the check is general: a
// conflict answered with a blank message, a write's refusal worded without the value that failed,
// a new option given the key of an option kept beside it, a description "cleared" to the blank
// sent. Each is caught by name, and its report replayed (itCatchesEachByName): the two message
// relays fail response.error-message on an answer to a request a rule that changes data sent, so
// replay runs that rule again and judges the check on its answers (MadeBy); and what the
// description allows still passes (a message quoting the failing value in other words). Where only
// the rule run again can show the failure (a conflict its own first request provoked, met again on
// a server started afresh), each failure is asserted to fail again. The messages themselves are
// read on made-up answers in error-message.test.ts.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runReplay } from '../src/run.js';
import {
  itCatchesEachByName,
  itPassesEachAgainstTheSandbox,
  keysEnvironment,
  type Mutant,
  removeOutputs,
  runAgainst,
} from './support/mutants.js';
import { isFieldUpdate } from './support/requests.js';
import {
  bodyOf,
  json,
  type Mutation,
  mutatingProxy,
  type ProxiedRequest,
  pathOf,
  sandbox,
  type Target,
} from './support/servers.js';

afterAll(removeOutputs);

const errorIn = (b: Record<string, unknown>) =>
  typeof b.error === 'object' && b.error !== null ? (b.error as Record<string, unknown>) : undefined;

/** Every conflict (409) answered with a blank message, its code and other fields kept. */
const conflictsUnexplained: Mutation = {
  response: (r) =>
    r.status === 409
      ? json(r, (b) => {
          const error = errorIn(b);
          if (error) error.message = '';
        })
      : r,
};

/** A refused write (400) naming its cause in param, worded without the value that failed. */
const writeRefusalsWithoutValue: Mutation = {
  response: (r, q) =>
    q.method !== 'GET' && r.status === 400
      ? json(r, (b) => {
          const error = errorIn(b);
          if (error && typeof error.param === 'string') error.message = 'The request was refused; see param.';
        })
      : r,
};

/** A new option whose label spells the key of an option sent with its key (a stop aside) is answered with that key. */
const newOptionTakesKeptKey: Mutation = {
  response: (r, q) => {
    if (!isFieldUpdate(q) || r.status !== 200) return r;
    const sent = Array.isArray(bodyOf(q).options) ? (bodyOf(q).options as Array<Record<string, unknown>>) : [];
    const keptKeys = new Set(sent.filter((o) => typeof o.key === 'string').map((o) => o.key as string));
    // The label as a key reads it: without the stop a label may end with.
    const asKey = (label: unknown) => String(label).replace(/[.]+$/, '');
    const spelled = sent.filter((o) => o.key === undefined && keptKeys.has(asKey(o.label)));
    return json(r, (b) => {
      const options = (b.data as { options?: Array<Record<string, unknown>> }).options ?? [];
      for (const o of options) if (spelled.some((s) => s.label === o.label)) o.key = asKey(o.label);
    });
  },
};

/** A description sent blank is answered as the blank sent (not cleared). */
const blankDescriptionKept: Mutation = {
  response: (r, q) => {
    const description = bodyOf(q).description;
    if (!isFieldUpdate(q) || r.status !== 200 || typeof description !== 'string' || description.trim() !== '') return r;
    return json(r, (b) => {
      (b.data as Record<string, unknown>).description = description;
    });
  },
};

/** An unknown path answered 404 with a message that names no path ("No endpoint at this URL" kept vague). */
const unknownPathUnnamed: Mutation = {
  response: (r, q) =>
    r.status === 404 && !pathOf(q).startsWith('/__sandbox')
      ? json(r, (b) => {
          const error = errorIn(b);
          if (error?.code === 'ENDPOINT_NOT_FOUND') error.message = 'No endpoint at this URL.';
        })
      : r,
};

/** A keyed POST of tags executed again on every repeat: the key never reaches the store, and is echoed all the same. */
function tagsKeyIgnored(): Mutation {
  const keys = new Map<ProxiedRequest, string>();
  const isTagAdd = (q: ProxiedRequest) =>
    q.method === 'POST' && /^\/v2\/api\/conversations\/items\/[^/]+\/tags$/.test(pathOf(q));
  return {
    request: (q) => {
      const key = q.headers.get('idempotency-key');
      if (!isTagAdd(q) || key === null) return q;
      const headers = new Headers(q.headers);
      headers.delete('idempotency-key');
      const stripped = { ...q, headers };
      keys.set(stripped, key);
      return stripped;
    },
    response: (r, q) => {
      const key = keys.get(q);
      if (key === undefined) return r;
      const headers = new Headers(r.headers);
      headers.set('idempotency-key', key);
      return { ...r, headers };
    },
  };
}

/**
 * A transition's effect missing from another read: once ARCHIVE succeeded on a conversation, its
 * items read singly answer read=false (the list entry and the action's answer untouched).
 */
function itemsUnreadAfterArchive(): Mutation {
  const archived = new Set<string>();
  return {
    response: (r, q) => {
      const action = pathOf(q).match(/^\/v2\/api\/conversations\/([^/]+)\/action$/);
      if (action && q.method === 'PUT' && r.status === 200 && bodyOf(q).action === 'ARCHIVE')
        archived.add(decodeURIComponent(action[1] as string));
      if (q.method !== 'GET' || !pathOf(q).startsWith('/v2/api/conversations/items/') || r.status !== 200) return r;
      return json(r, (b) => {
        const item = b.data as Record<string, unknown>;
        if (archived.has(String(item.contact_number))) item.read = false;
      });
    },
  };
}

const GAPS: Mutant[] = [
  {
    name: 'answers every conflict with a blank message',
    caughtBy: 'response.error-message',
    only: ['threads.duplicate'],
    allowWrites: true,
    mutation: conflictsUnexplained,
  },
  {
    name: "words a refused write's message without the value its param names",
    caughtBy: 'response.error-message',
    only: ['custom-fields.built-in'],
    allowWrites: true,
    mutation: writeRefusalsWithoutValue,
  },
  {
    name: "words an unknown field's refusal without the field or its value",
    caughtBy: 'response.error-message',
    only: ['receptionist.read-only'],
    allowWrites: true,
    mutation: writeRefusalsWithoutValue,
  },
  {
    name: "gives a new option whose label spells a kept option's key that same key",
    caughtBy: 'custom-fields.option-rules',
    only: ['custom-fields.option-rules'],
    allowWrites: true,
    mutation: newOptionTakesKeptKey,
  },
  {
    name: 'answers a description sent blank with the blank sent',
    caughtBy: 'custom-fields.description',
    only: ['custom-fields.description'],
    allowWrites: true,
    mutation: blankDescriptionKept,
  },
  {
    name: 'answers an unknown path with a message that does not name it',
    caughtBy: 'response.error-message',
    only: ['routing.unknown-path'],
    mutation: unknownPathUnnamed,
  },
  {
    name: 'executes a keyed POST of tags again on each repeat (409 TAG_ALREADY_EXISTS)',
    caughtBy: 'idempotency.replay',
    only: ['idempotency.replay'],
    allowWrites: true,
    mutation: tagsKeyIgnored,
  },
  {
    name: "reads an archived conversation's items as unread",
    caughtBy: 'conversations.archive',
    only: ['conversations.archive'],
    allowWrites: true,
    mutation: itemsUnreadAfterArchive,
  },
];

/** Each error message naming a value in param reworded around that value, as sent. */
const messagesInOtherWords: Mutation = {
  response: (r, q) =>
    r.status >= 400
      ? json(r, (b) => {
          const error = errorIn(b);
          if (!error || typeof error.param !== 'string') return;
          const fromBody = bodyOf(q)[error.param];
          const segment = decodeURIComponent(pathOf(q).split('/').at(-1) ?? '');
          const value = typeof fromBody === 'string' ? fromBody : segment;
          error.message = `Refused: the ${error.param} sent was «${value}».`;
        })
      : r,
};

describe('the gap classes mutation testing found: each mutant caught by name', () => {
  itCatchesEachByName(GAPS);

  itPassesEachAgainstTheSandbox(GAPS);

  it("an archived conversation's items: read back read where they show it (an unread one among them), and a server whose items show no read state passes", async () => {
    const archiving: Mutant = {
      name: 'items read singly without a read state',
      caughtBy: 'conversations.archive',
      only: ['conversations.archive'],
      allowWrites: true,
    };
    const passDetail = async (mutation?: Mutation) => {
      const upstream = await sandbox();
      const target = mutation ? await mutatingProxy(upstream, mutation) : upstream;
      try {
        const { result, failed } = await runAgainst(target, archiving);
        expect(failed).toEqual([]);
        const check = result.report.operations.flatMap((op) => op.checks).find((c) => c.id === archiving.caughtBy);
        expect(check?.status).toBe('passed');
        return check?.details.join('; ');
      } finally {
        if (target !== upstream) await target.close();
        await upstream.close();
      }
    };
    // The sandbox shows `read` on items (its own addition) and its seed holds unread ones.
    expect(await passDetail()).toMatch(/on [1-9]\d* item\(s\) read singly \([1-9]\d* unread before ARCHIVE\)/);
    const withoutReadState: Mutation = {
      response: (r, q) =>
        q.method === 'GET' && pathOf(q).startsWith('/v2/api/conversations/items/') && r.status === 200
          ? json(r, (b) => {
              delete (b.data as Record<string, unknown>).read;
            })
          : r,
    };
    expect(await passDetail(withoutReadState)).not.toMatch(/item/);
  });

  it('a conflict its rule provoked (a key reused after its first use) fails again on the broken server started afresh, each failure by its rule run again', async () => {
    const conflictAfterFirstUse: Mutant = {
      name: 'answers a reused idempotency key with a blank message',
      caughtBy: 'response.error-message',
      only: ['idempotency.key-reuse'],
      allowWrites: true,
    };
    const upstream = await sandbox();
    const broken = await mutatingProxy(upstream, conflictsUnexplained);
    try {
      const { failed, output } = await runAgainst(broken, conflictAfterFirstUse);
      expect(failed).toContain('response.error-message');
      const report = join(output, 'report.json');
      const { failures } = JSON.parse(readFileSync(report, 'utf8')) as { failures: Array<Record<string, unknown>> };
      const own = failures.filter((f) => f.check === 'response.error-message');
      // Each conflict answers a request of the rule that followed its first use of the key.
      expect(own.length).toBeGreaterThan(0);
      for (const f of own)
        expect(f.madeBy).toEqual({ check: 'idempotency.key-reuse', operationId: 'addThreadComment', writes: true });
      // A server started afresh knows no key the run used: one request sent again alone meets no
      // conflict there (a PUT is simply applied), only the rule run again (first use, then reuse) does.
      const replayOn = async (server: Target) => {
        const { results, exitCode } = await runReplay({
          inputs: [report],
          checks: ['response.error-message'],
          baseUrl: server.url,
          allowWrites: true,
          config: server.config,
          env: keysEnvironment(server),
          print: false,
        });
        return { exitCode, outcomes: results.map((r) => [r.outcome, r.again, r.rule]) };
      };
      const sequence = ['sequence', 'idempotency.key-reuse on addThreadComment'];
      const afreshUpstream = await sandbox();
      const afresh = await mutatingProxy(afreshUpstream, conflictsUnexplained);
      try {
        const again = await replayOn(afresh);
        expect(again.outcomes).toEqual(own.map(() => ['still fails', ...sequence]));
        expect(again.exitCode).toBe(1);
      } finally {
        await afresh.close();
        await afreshUpstream.close();
      }
      const fixed = await sandbox();
      try {
        const now = await replayOn(fixed);
        expect(now.outcomes).toEqual(own.map(() => ['passes', ...sequence]));
        expect(now.exitCode).toBe(0);
      } finally {
        await fixed.close();
      }
    } finally {
      await broken.close();
      await upstream.close();
    }
  });

  it('a message that quotes the failing value in other words passes', async () => {
    const upstream = await sandbox();
    try {
      const target = await mutatingProxy(upstream, messagesInOtherWords);
      const { failed } = await runAgainst(target, {
        name: 'messages in other words',
        caughtBy: 'response.error-message',
        only: ['threads.duplicate', 'custom-fields.built-in'],
        allowWrites: true,
      });
      expect(failed).toEqual([]);
    } finally {
      await upstream.close();
    }
  });
});
