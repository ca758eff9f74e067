// A run leaves what it found as it found it wherever the API can undo a change: the team's state
// as every list and get of the contract shows it, before and after a full run with writes, is the
// same but for what the run created and the effects the README names as permanent. A check that
// fails half-way still gets its undo played back, and an undo that fails is reported, not thrown.
import { describe, expect, it } from 'vitest';
import { runContract } from '../src/run.js';
import { loadSpec } from '../src/spec.js';
import { PERMANENT_WRITES, UNDOABLE_WRITES } from '../src/undo/found-state.js';
import { mutatingProxy, sandbox } from './support/servers.js';
import { teamState, WALKED_READS } from './support/team-state.js';

const quiet = { quiet: true, print: false, rate: 'off' as const };

describe('every write of the contract', () => {
  it('is either put back at the end of a run or named as permanent, never both', () => {
    const spec = loadSpec();
    const writes = [...spec.contract.operationsById.values()]
      .filter((op) => spec.contract.limits.writeMethods.includes(op.method) && !spec.isSafe(op))
      .map((op) => op.operationId)
      .sort();
    const decided = [...Object.keys(UNDOABLE_WRITES), ...Object.keys(PERMANENT_WRITES)].sort();
    expect(decided).toEqual(writes);
  });

  it('the state walk reads every read of the contract', () => {
    const spec = loadSpec();
    const reads = [...spec.contract.operationsById.values()]
      .filter((op) => !spec.contract.limits.writeMethods.includes(op.method) || spec.isSafe(op))
      .map((op) => op.operationId)
      .sort();
    expect([...WALKED_READS].sort()).toEqual(reads);
  });
});

type Json = Record<string, unknown>;
const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What a run left, less what it created (threads on items that had none, with their comments:
 * the run comments on a thread it created, never on one it found) and the
 * effects the README names as permanent: ARCHIVE marks the conversation's items read, the tag
 * name of the run's own that tenants.tags-of-team adds stays in the team's list, and a
 * write stamps `updated_at` on a receptionist and on the dialer queue (even the empty update
 * that reads it).
 */
function lessRunEffects(before: Json, after: Json): Json {
  const left: Json = {};
  for (const [request, now] of Object.entries(after)) {
    const was = before[request];
    if (was === undefined && request.startsWith('GET /v2/api/threads/')) continue;
    if (was === null && request.startsWith('GET /v2/api/threads?')) left[request] = null;
    else if (/\/agent$|dialing-queues/.test(request)) left[request] = withStampOf(was, now);
    else if (/^(GET|POST) \/v2\/api\/conversations(\/items|\?)/.test(request)) left[request] = readAsFound(was, now);
    else if (request === 'GET /v2/api/tags') left[request] = withoutRunOwnTags(now);
    else left[request] = now;
  }
  return left;
}

/** The team's tag list less the name of the run's own that tenants.tags-of-team adds (no operation deletes a tag). */
function withoutRunOwnTags(now: unknown): unknown {
  const own = (tag: unknown) =>
    isJson(tag) && typeof tag.name === 'string' && /^svc-contract-\S+-team-only$/.test(tag.name);
  return Array.isArray(now) ? now.filter((tag) => !own(tag)) : now;
}

/** `updated_at` as it was, in the receptionist's agent block or on the queue. */
function withStampOf(was: unknown, now: unknown): unknown {
  if (!isJson(was) || !isJson(now)) return now;
  if (isJson(was.agent) && isJson(now.agent))
    return { ...now, agent: { ...now.agent, updated_at: was.agent.updated_at } };
  return { ...now, updated_at: was.updated_at };
}

/** An item (alone, in a list, or as a conversation's last item) that was unread and is now read, as it was. */
function readAsFound(was: unknown, now: unknown): unknown {
  if (Array.isArray(was) && Array.isArray(now)) return now.map((n, i) => readAsFound(was[i], n));
  if (!isJson(was) || !isJson(now)) return now;
  const item = typeof now.id === 'string' && was.read === false && now.read === true ? { read: false } : {};
  const last = isJson(now.last_item) ? { last_item: readAsFound(was.last_item, now.last_item) } : {};
  return { ...now, ...item, ...last };
}

describe('a full run with writes', () => {
  it('leaves the team as every list and get shows it, but for what it created and the permanent effects', async () => {
    const target = await sandbox();
    try {
      const { fixtures } = target.config;
      const named = { itemIds: fixtures.threadless_item_ids ?? [], dealIds: fixtures.deal_ids ?? [] };
      const before = await teamState(target.url, target.apiKey, named);
      const progress: string[] = [];
      const result = await runContract({
        ...quiet,
        quiet: false,
        stderr: { write: (line: string) => progress.push(line) } as unknown as NodeJS.WritableStream,
        allowWrites: true,
        baseUrl: target.url,
        apiKey: target.apiKey,
        config: target.config,
      });
      expect(result.report.failures).toEqual([]);
      expect(result.exitCode).toBe(0);
      // Some of it was put back by the ledger alone (a queue name, a conversation's read state).
      expect(progress.join('')).toMatch(
        /put back what the run found: \d+ things read again, [1-9]\d* writes? to put back, 0 left changed/,
      );
      const after = await teamState(target.url, target.apiKey, named);
      expect(lessRunEffects(before, after)).toEqual(before);
    } finally {
      await target.close();
    }
  });
});

describe('a check that fails half-way', () => {
  /** A server that loses the custom field's label restore: the first one (or every one) goes to an unknown path. */
  async function losingRestores(every: boolean) {
    const target = await sandbox();
    const fields = (await (
      await fetch(`${target.url}/v2/api/crm/attributes?size=100`, {
        headers: { Authorization: `Api-Key ${target.apiKey}` },
      })
    ).json()) as { data: Array<{ key: string; label: string }> };
    const labels = new Set(fields.data.map((f) => f.label));
    let lost = 0;
    const proxy = await mutatingProxy(target, {
      request: (q) => {
        const body = q.method === 'PATCH' && q.body ? (JSON.parse(q.body) as Json) : undefined;
        // The check's restore sends the label and the description it found (its first PATCH, which
        // reads the description, sends the label alone); the ledger's sends the options too.
        const restoresLabel = body !== undefined && labels.has(body.label as string) && 'description' in body;
        const restoring = restoresLabel && (every || !('options' in body));
        if (!restoring || (!every && lost > 0)) return q;
        lost++;
        return { ...q, path: q.path.replace('/crm/attributes/', '/crm/attributes-lost/') };
      },
    });
    const labelsNow = async () =>
      (
        (await (
          await fetch(`${target.url}/v2/api/crm/attributes?size=100`, {
            headers: { Authorization: `Api-Key ${target.apiKey}` },
          })
        ).json()) as { data: Array<{ label: string }> }
      ).data.map((f) => f.label);
    const run = () =>
      runContract({
        ...quiet,
        allowWrites: true,
        only: ['custom-fields.partial-update'],
        baseUrl: proxy.url,
        apiKey: proxy.apiKey,
        config: proxy.config,
      });
    const close = async () => {
      await proxy.close();
      await target.close();
    };
    return { run, labelsBefore: fields.data.map((f) => f.label), labelsNow, close, lost: () => lost };
  }

  it('fails, and what it changed is put back at the end of the run all the same', async () => {
    const server = await losingRestores(false);
    try {
      const result = await server.run();
      expect(server.lost()).toBe(1);
      expect(result.report.failures.map((f) => f.check)).toContain('custom-fields.partial-update');
      expect(await server.labelsNow()).toEqual(server.labelsBefore);
    } finally {
      await server.close();
    }
  });

  it('an undo that fails too is reported as a failure of its check, not thrown', async () => {
    const server = await losingRestores(true);
    try {
      const result = await server.run();
      expect(result.exitCode).toBe(1);
      const messages = result.report.failures.map((f) => `${f.check}: ${f.message}`);
      expect(messages).toContainEqual(
        expect.stringMatching(
          /^custom-fields\.partial-update: the label, description and options of custom field \S+ was left changed: putting it back got 404$/,
        ),
      );
      expect(await server.labelsNow()).not.toEqual(server.labelsBefore);
    } finally {
      await server.close();
    }
  });
});
