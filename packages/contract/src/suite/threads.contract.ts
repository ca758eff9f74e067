// Threads and their comments, with the idempotency rules exercised on comments (a write whose
// effect is easy to count). Staging servers keep what earlier runs left, so thread creation
// looks for an item without a thread and, when every known item has one, checks the documented
// path instead: 409 THREAD_ALREADY_EXISTS, find the thread, add a comment.
import { deref, isObject, type Operation, propertiesOf } from '@svc/spec-runtime';
import { expectedFor, listedCode, ownCodes } from '../checks/expect.js';
import { type Fixtures, type ItemFixture, MissingFixture, need } from '../fixtures.js';
import { constraintId } from '../generate/constraints.js';
import { type Exchange, header } from '../http/exchange.js';
import { once } from '../session.js';
import type { CheckContext } from './harness.js';
import { documentedHeaders, operationChecks } from './operation-checks.js';
import { data, expectReplays, lengthLimits, ok, probeText, short } from './support.js';

function entities(f: Fixtures): ItemFixture[] {
  return [...f.items, ...f.notes];
}

/** The thread of an item, through the lookup operation (its response shape is not shown: data.id). */
async function findThread(t: CheckContext, item: ItemFixture): Promise<{ id?: string; exchange: Exchange }> {
  const exchange = await t.call({ query: { entity_type: item.entityType, entity_id: item.id } }, {}, 'findThread');
  const d = data(exchange);
  return { ...(typeof d?.id === 'string' ? { id: d.id } : {}), exchange };
}

async function readThread(
  t: CheckContext,
  id: string,
): Promise<{ exchange: Exchange; thread?: Record<string, unknown>; comments: Array<Record<string, unknown>> }> {
  const exchange = await t.call({ params: { id } }, {}, 'getThread');
  const thread = data(exchange);
  const comments = Array.isArray(thread?.comments) ? thread.comments.filter(isObject) : [];
  return { exchange, ...(thread ? { thread } : {}), comments };
}

/** A thread the scenarios can comment on: a known one, else one created on a free item. */
function probeThread(t: CheckContext): Promise<string> {
  return once(t.session, 'probe-thread', async () => {
    const f = await t.fixtures();
    const known = f.threads.find((th) => th.id);
    if (known) return known.id;
    for (const item of entities(f)) {
      const created = await t.call(
        { body: { entity_type: item.entityType, entity_id: item.id, content: probeText(t, 'thread') } },
        {},
        'createThread',
      );
      const id = data(created)?.id;
      if (ok(created) && typeof id === 'string') return id;
    }
    throw new MissingFixture('no fixture: a thread (none is known and none could be created)');
  });
}

function comment(
  t: CheckContext,
  thread: string,
  content: string,
  extra: { idempotencyKey?: string } = {},
): Promise<Exchange> {
  const headers = documentedHeaders(t.op('addThreadComment'), `${t.config.runId}-comment-${thread}-${content.length}`);
  return t.call({ params: { id: thread }, body: { content } }, { ...headers, ...extra }, 'addThreadComment');
}

operationChecks('findThread', {
  baseline: (_t, f) => {
    const item = need(entities(f)[0], 'a conversation item or note');
    return { query: { entity_type: item.entityType, entity_id: item.id } };
  },
});

operationChecks('getThread', {
  baseline: (_t, f) => ({
    params: { id: need(f.threads[0], 'a thread (no known item has one; or set fixtures.thread_ids)').id },
  }),
});

operationChecks('createThread', {
  success: false,
  baseline: (t, f) => {
    const item = need(entities(f)[0], 'a conversation item or note');
    return { body: { entity_type: item.entityType, entity_id: item.id, content: probeText(t, 'thread') } };
  },
  scenarios: (op, scenario) => {
    scenario('threads.create-then-read', async (t) => {
      const f = await t.fixtures();
      const content = probeText(t, 'thread');
      for (const item of entities(f)) {
        const existing = await findThread(t, item);
        if (existing.id !== undefined || !ok(existing.exchange)) continue;
        const created = await t.call(
          { body: { entity_type: item.entityType, entity_id: item.id, content } },
          documentedHeaders(op, `${t.config.runId}-create-${item.id}`),
        );
        if (
          !t.expect(
            ok(created),
            `creating a thread on ${item.id} (which has none): expected 2xx, got ${created.status}`,
            created,
          )
        )
          return;
        const thread = data(created);
        const first = Array.isArray(thread?.comments) ? thread.comments[0] : undefined;
        t.expect(
          thread?.comment_count === 1 && Array.isArray(thread?.comments) && thread.comments.length === 1,
          `a new thread holds its first comment and comment_count 1; got ${short({ comment_count: thread?.comment_count, comments: thread?.comments })}`,
          created,
        );
        t.expect(
          isObject(first) && first.content === content,
          `the first comment's content is not what was sent: ${short(isObject(first) ? first.content : first)}`,
          created,
        );
        t.expect(
          thread?.entity_id === item.id && thread?.entity_type === item.entityType,
          `the thread is on ${short([thread?.entity_type, thread?.entity_id])}, not ${item.entityType} ${item.id}`,
          created,
        );
        if (typeof thread?.id !== 'string') return;
        const read = await readThread(t, thread.id);
        t.expect(
          ok(read.exchange) && read.thread?.id === thread.id && read.comments[0]?.content === content,
          `reading ${thread.id} back does not show the thread as created: ${short(read.thread)}`,
          read.exchange,
        );
        t.pass(`created ${thread.id} on ${item.id} and read it back`);
        return;
      }
      // Every known item already has a thread (earlier runs): the documented path instead.
      const item = need(entities(f)[0], 'a conversation item or note');
      const refused = await t.call({ body: { entity_type: item.entityType, entity_id: item.id, content } });
      if (
        !t.expectError(
          refused,
          {
            status: 409,
            codes: ownCodes(t.spec, op, 409),
            why: `every known item already has a thread, ${item.id} too`,
          },
          'creating a second thread',
        )
      )
        return;
      const found = await findThread(t, item);
      if (
        !t.expect(
          found.id !== undefined,
          `GET /v2/api/threads did not find the thread of ${item.id}: ${short(found.exchange.body)}`,
          found.exchange,
        )
      )
        return;
      const added = await comment(t, found.id as string, content);
      t.expect(ok(added), `adding a comment to ${found.id}: expected 2xx, got ${added.status}`, added);
      const read = await readThread(t, found.id as string);
      t.expect(
        read.comments.at(-1)?.content === content,
        `the comment added to ${found.id} is not the last one read back`,
        read.exchange,
      );
      t.pass(`every known item has a thread: 409, found ${found.id}, commented`);
    });

    // The limits of the first comment from inside: each accepted value takes an item that has no
    // thread yet (a thread per item), so it needs two of them (fixtures.threadless_item_ids).
    scenario('threads.create-content-limits', async (t) => {
      const f = await t.fixtures();
      const content = propertiesOf(
        t.spec.contract,
        deref(t.spec.contract, t.spec.resolve(op.requestBody?.schemaPointer ?? '')),
      ).content;
      const lengths = lengthLimits(content, ['maxLength', 'minLength']);
      if (lengths.length === 0) return t.skip('the thread content has no length limits in the contract');
      const free: ItemFixture[] = [];
      for (const item of [...f.threadless, ...unsentKindsFirst(t, op, entities(f))]) {
        if (free.length === lengths.length) break;
        if (free.some((i) => i.id === item.id)) continue;
        const existing = await findThread(t, item);
        if (ok(existing.exchange) && existing.id === undefined) free.push(item);
      }
      if (free.length < lengths.length)
        return t.skip(
          `${lengths.length} items without a thread are needed, ${free.length} found: set fixtures.threadless_item_ids`,
          'config',
        );
      for (const [index, { keyword, n: length }] of lengths.entries()) {
        const item = free[index] as ItemFixture;
        const text = length > 20 ? `${probeText(t, 'limit')} `.padEnd(length, 'x') : 'x'.repeat(length);
        const created = await t.call({ body: { entity_type: item.entityType, entity_id: item.id, content: text } });
        if (
          !t.expect(
            ok(created),
            `a thread whose content is exactly ${length} character${length === 1 ? '' : 's'} must be accepted, got ${created.status}`,
            created,
          )
        )
          continue;
        const first = data(created)?.comments;
        t.expect(
          Array.isArray(first) && isObject(first[0]) && first[0].content === text,
          `the first comment of the thread does not hold the ${length} characters sent`,
          created,
        );
        t.pass(`thread content of ${length} character${length === 1 ? '' : 's'}`, {
          id: constraintId('body', 'content', keyword, length),
          side: 'inside',
        });
      }
    });

    // Each kind of item the contract lets a thread be on (entity_type's enum) that no thread of
    // this run was created on yet, on a free item of that kind; kinds with no free item are named.
    // After the other creations, so that a run leaves as few threads as its reach needs.
    scenario('threads.create-each-kind', async (t) => {
      const f = await t.fixtures();
      const kinds = enumAt(t, op, 'entity_type');
      const created: string[] = [];
      const none: string[] = [];
      const done = kinds.filter((kind) => t.session.recorder.everSent(op.operationId, `body entity_type=${kind}`));
      for (const kind of kinds.filter((k) => !done.includes(k))) {
        let made = false;
        for (const item of entities(f)
          .filter((i) => i.entityType === kind)
          .slice(0, t.config.fixturesPerKind ?? 20)) {
          if ((await findThread(t, item)).id !== undefined) continue;
          const body = { entity_type: kind, entity_id: item.id, content: probeText(t, 'thread') };
          const answer = await t.call({ body }, documentedHeaders(op, `${t.config.runId}-thread-${item.id}`));
          t.expect(
            ok(answer) && data(answer)?.entity_type === kind,
            `a thread on ${kind} ${item.id}: got ${answer.status} ${short(data(answer)?.entity_type)}`,
            answer,
          );
          created.push(`${kind} ${item.id}`);
          made = true;
          break;
        }
        if (!made) none.push(kind);
      }
      if (none.length > 0)
        return t.skip(
          `no item without a thread is known of ${none.join(', ')} (fixtures.threadless_item_ids)`,
          'config',
        );
      t.pass(`threads on ${[...done.map((k) => `${k} (earlier in the run)`), ...created].join(', ')}`);
    });

    scenario('threads.duplicate', async (t) => {
      const f = await t.fixtures();
      let target = f.threads.find((th) => th.entityId !== '');
      if (!target) {
        // Threads created by this run are not in the discovered list: look them up.
        for (const item of entities(f)) {
          const found = await findThread(t, item);
          if (found.id) {
            target = { id: found.id, entityId: item.id, entityType: item.entityType };
            break;
          }
        }
      }
      if (!target) return t.skip('no item with a thread is known', 'config');
      const again = await t.call({
        body: { entity_type: target.entityType, entity_id: target.entityId, content: probeText(t, 'duplicate thread') },
      });
      t.expectError(
        again,
        { ...listedCode(t.spec, op, 'THREAD_ALREADY_EXISTS'), codes: ownCodes(t.spec, op, 409) },
        `a second thread on ${target.entityId}`,
      );
    });
  },
});

operationChecks('addThreadComment', {
  success: false,
  baseline: async (t, f) => ({
    params: {
      id: f.threads[0]?.id ?? (t.config.allowWrites ? await probeThread(t) : need(f.threads[0], 'a thread').id),
    },
    body: { content: probeText(t, 'comment') },
  }),
  scenarios: (op, scenario) => {
    scenario('threads.comment-then-read', async (t) => {
      const thread = await probeThread(t);
      const before = await readThread(t, thread);
      const count = before.thread?.comment_count;
      const content = probeText(t, 'comment');
      const added = await comment(t, thread, content);
      if (!t.expect(ok(added), `adding a comment: expected 2xx, got ${added.status}`, added)) return;
      const after = await readThread(t, thread);
      t.expect(
        after.comments.at(-1)?.content === content,
        `the new comment is not the last one of ${thread}: ${short(after.comments.at(-1))}`,
        after.exchange,
      );
      if (typeof count === 'number')
        t.expect(
          after.thread?.comment_count === count + 1,
          `comment_count went from ${count} to ${String(after.thread?.comment_count)}, not ${count + 1}`,
          after.exchange,
        );
      t.expect(
        after.thread?.comment_count === after.comments.length,
        `comment_count ${String(after.thread?.comment_count)} but ${after.comments.length} comments`,
        after.exchange,
      );
    });

    scenario('threads.content-limits', async (t) => {
      const thread = await probeThread(t);
      const limit = propertiesOf(
        t.spec.contract,
        deref(t.spec.contract, t.spec.resolve(op.requestBody?.schemaPointer ?? '')),
      ).content?.maxLength;
      if (typeof limit !== 'number') return t.skip('the comment content has no maxLength in the contract');
      const exact = `${probeText(t, 'limit')} `.padEnd(limit, 'x');
      const accepted = await comment(t, thread, exact);
      const id = constraintId('body', 'content', 'maxLength', limit);
      if (
        t.expect(
          ok(accepted),
          `content of exactly ${limit} characters must be accepted, got ${accepted.status}`,
          accepted,
        )
      )
        t.pass(`content of ${limit} characters`, { id, side: 'inside' });
      const shortest = t.spec.schema('NoteContent')?.minLength;
      if (typeof shortest === 'number' && shortest > 0) {
        const minimal = await comment(t, thread, 'x'.repeat(shortest));
        if (
          t.expect(
            ok(minimal),
            `content of exactly ${shortest} character${shortest === 1 ? '' : 's'} must be accepted, got ${minimal.status}`,
            minimal,
          )
        )
          t.pass(`content of ${shortest} characters`, {
            id: constraintId('body', 'content', 'minLength', shortest),
            side: 'inside',
          });
      }
      for (const content of [`${exact}x`, '   ']) {
        const expected = expectedFor(t.spec, op, { params: { id: thread }, body: { content } });
        if (!expected) continue;
        const over = content.trim() !== '';
        if (
          t.expectError(
            await comment(t, thread, content),
            expected,
            over ? `content of ${content.length} characters` : 'blank content',
          ) &&
          over
        )
          t.pass(`content of ${content.length} characters`, { id, side: 'outside' });
      }
    });

    scenario('threads.mentions', async (t) => {
      const thread = await probeThread(t);
      const user = need((await t.fixtures()).users[0], 'a user id to mention');
      const added = await comment(t, thread, `${probeText(t, 'mention')} @[Svc Contract](${user})`);
      if (!t.expect(ok(added), `adding a comment with a mention: expected 2xx, got ${added.status}`, added)) return;
      const read = await readThread(t, thread);
      const mentions = read.comments.at(-1)?.mentions;
      t.expect(
        Array.isArray(mentions) && mentions.some((m) => isObject(m) && m.user_id === user),
        `the mention of ${user} is not in the comment's mentions: ${short(mentions)}`,
        read.exchange,
      );
    });

    scenario('idempotency.replay', async (t) => {
      const thread = await probeThread(t);
      const before = await readThread(t, thread);
      const content = probeText(t, 'idempotent comment');
      // Every repeat replays, not only the first: the description states it for each.
      if (
        !(await expectReplays(t, 'a keyed comment', (idempotencyKey) =>
          comment(t, thread, content, { idempotencyKey }),
        ))
      )
        return;
      const after = await readThread(t, thread);
      const copies = after.comments.filter((c) => c.content === content).length;
      t.expect(copies === 1, `the keyed comment was executed ${copies} times`, after.exchange);
      const count = before.thread?.comment_count;
      if (typeof count === 'number')
        t.expect(
          after.thread?.comment_count === count + 1,
          `comment_count went from ${count} to ${String(after.thread?.comment_count)} after a write and its replay`,
          after.exchange,
        );
    });

    scenario('idempotency.key-reuse', async (t) => {
      const thread = await probeThread(t);
      const key = `svc-contract-${t.config.runId}-reuse`;
      const first = await comment(t, thread, probeText(t, 'keyed comment'), { idempotencyKey: key });
      if (!t.expect(ok(first), `the keyed comment: expected 2xx, got ${first.status}`, first)) return;
      // The same key on another endpoint whose idempotency is promised (not the read-only item
      // search: that it takes part is only inferred, x-svc-inferred.idempotency): a new thread on
      // the item that already has the probe thread, so a server that ignored the key would only
      // answer 409 THREAD_ALREADY_EXISTS and create nothing.
      const create = t.op('createThread');
      const probe = (await readThread(t, thread)).thread;
      const reused = await t.call(
        { body: { entity_type: probe?.entity_type, entity_id: probe?.entity_id, content: probeText(t, 'reused key') } },
        { idempotencyKey: key },
        create.operationId,
      );
      t.expectError(
        reused,
        listedCode(t.spec, create, 'IDEMPOTENCY_KEY_REUSE'),
        `the key of a comment sent to ${create.method} ${create.path}`,
      );
      // And with another method (a PUT): the description names the method as well as the endpoint.
      const action = t.op('applyConversationAction');
      const contact = (await t.fixtures()).contacts[0];
      if (contact === undefined) return;
      const actions = t.spec.schema('ConversationAction')?.enum;
      const other = await t.call(
        { params: { contact_number: contact }, body: { action: Array.isArray(actions) ? actions[0] : undefined } },
        { idempotencyKey: key },
        action.operationId,
      );
      t.expectError(
        other,
        listedCode(t.spec, action, 'IDEMPOTENCY_KEY_REUSE'),
        `the key of a comment sent with ${action.method} to ${action.path}`,
      );
    });

    scenario('idempotency.failed-not-consumed', async (t) => {
      const thread = await probeThread(t);
      const key = `svc-contract-${t.config.runId}-failed`;
      const blank = '   ';
      const expected = expectedFor(t.spec, op, { params: { id: thread }, body: { content: blank } });
      if (!expected) return t.skip('the contract accepts blank content');
      const failed = await comment(t, thread, blank, { idempotencyKey: key });
      if (!t.expectError(failed, expected, 'a blank comment')) return;
      const retried = await comment(t, thread, probeText(t, 'retried comment'), { idempotencyKey: key });
      t.expect(
        ok(retried),
        `the key of a failed request must stay usable: expected 2xx, got ${retried.status}`,
        retried,
      );
      t.expect(
        header(retried, t.spec.idempotencyReplayedHeader) !== 'true',
        'the failed response was replayed',
        retried,
      );
    });
  },
});

/** The enum of a top-level body field, read from the operation's request schema. */
function enumAt(t: CheckContext, op: Operation, field: string): string[] {
  const body = op.requestBody ? t.spec.resolve(op.requestBody.schemaPointer) : undefined;
  const schema = deref(t.spec.contract, propertiesOf(t.spec.contract, body)[field]);
  return Array.isArray(schema.enum) ? schema.enum.map(String) : [];
}

/**
 * Items with one of each kind no thread of this run was created on first, then the rest: the
 * threads a run must create anyway also show every entity_type, so it leaves as few as it can.
 */
function unsentKindsFirst(t: CheckContext, op: Operation, items: ItemFixture[]): ItemFixture[] {
  const unsent = (i: ItemFixture) => !t.session.recorder.everSent(op.operationId, `body entity_type=${i.entityType}`);
  const first: ItemFixture[] = [];
  for (const item of items.filter(unsent)) if (!first.some((i) => i.entityType === item.entityType)) first.push(item);
  return [...first, ...items.filter((i) => !first.includes(i))];
}
