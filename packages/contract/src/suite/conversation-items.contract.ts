// Conversation items (calls and text messages): search, batch, fetch, and tags on an item.
import { deref, idPrefixes, propertiesOf } from '@svc/spec-runtime';
import { listedCode, ownCodes } from '../checks/expect.js';
import { type Fixtures, type ItemFixture, need } from '../fixtures.js';
import { constraintId } from '../generate/constraints.js';
import { sample } from '../generate/schema.js';
import type { Exchange } from '../http/exchange.js';
import { readEachFixture } from './each-fixture.js';
import type { CheckContext } from './harness.js';
import { documentedHeaders, operationChecks } from './operation-checks.js';
import { expectReplays, ok } from './support.js';

function anItem(t: CheckContext, f: Fixtures): ItemFixture {
  // Text messages first: a call with several completed summaries needs a template_key to be fetched.
  const [message = ''] = idPrefixes(t.spec.schema('TextMessageId') ?? {});
  const isMessage = (item: ItemFixture) => message !== '' && item.id.startsWith(message);
  return need(
    f.items.find(isMessage) ?? f.items[0],
    'a call or text message (no conversation listed a last item; or set fixtures.item_ids)',
  );
}

function searchQuery(t: CheckContext, f: Fixtures): string {
  if (f.searchQuery !== undefined) return f.searchQuery;
  const op = t.op('searchConversationItems');
  const schema = t.spec.resolve(op.requestBody?.schemaPointer ?? '') as
    | { properties?: Record<string, unknown> }
    | undefined;
  return String(sample(t.spec, schema?.properties?.query ?? { examples: ['a'] }));
}

operationChecks('searchConversationItems', { baseline: (t, f) => ({ body: { query: searchQuery(t, f) } }) });

operationChecks('batchGetConversationItems', {
  // Every known item in one batch (up to --fixtures-per-kind): one request reads them all.
  baseline: (t, f) => ({
    body: {
      ids: need(
        f.items.slice(0, t.config.fixturesPerKind ?? 20).map((i) => i.id),
        'call or message ids',
      ),
    },
  }),
});

operationChecks('getConversationItem', { baseline: (t, f) => ({ params: { id: anItem(t, f).id } }) });

readEachFixture('getConversationItem', {
  param: 'id',
  ids: (f) => f.items.map((i) => i.id),
  what: 'calls and messages (the last item of each conversation, on each line; fixtures.item_ids)',
});

function tagOf(t: CheckContext, f: Fixtures): string {
  return f.tags[0] ?? `svc-contract-${t.config.runId}`;
}

operationChecks('addConversationItemTags', {
  // Success depends on whether the tag is already there: tags.add-remove handles that state.
  success: false,
  baseline: (t, f) => ({ params: { id: anItem(t, f).id }, body: { tags: [tagOf(t, f)] } }),
  scenarios: (op, scenario) => {
    scenario('tags.add-remove', async (t) => {
      const f = await t.fixtures();
      const item = anItem(t, f).id;
      const tag = tagOf(t, f);
      // With every header each documents (a request id, an idempotency key), fresh per request.
      let n = 0;
      const headers = (id: string) => documentedHeaders(t.op(id), `${t.config.runId}-tags-${++n}`);
      const add = (): Promise<Exchange> =>
        t.call(
          { params: { id: item }, body: { tags: [tag] } },
          headers('addConversationItemTags'),
          'addConversationItemTags',
        );
      const remove = (): Promise<Exchange> =>
        t.call({ params: { id: item, tag } }, headers('removeConversationItemTag'), 'removeConversationItemTag');
      const removeOp = t.op('removeConversationItemTag');

      let first = await add();
      // Already on the item (the seed's own tag, or a run that stopped half-way): take it off first.
      const wasThere = first.status === 409;
      if (wasThere) {
        const cleared = await remove();
        if (
          !t.expect(
            ok(cleared),
            `the tag ${tag} was already on ${item} and removing it gave ${cleared.status}`,
            cleared,
          )
        )
          return;
        first = await add();
      }
      if (!t.expect(ok(first), `adding ${tag} to ${item}: expected 2xx, got ${first.status}`, first)) return;
      const fewest = op.requestBody
        ? propertiesOf(t.spec.contract, deref(t.spec.contract, t.spec.resolve(op.requestBody.schemaPointer))).tags
            ?.minItems
        : undefined;
      if (fewest === 1) t.pass('a single tag', { id: constraintId('body', 'tags', 'minItems', 1), side: 'inside' });
      t.expectError(
        await add(),
        { status: 409, codes: ownCodes(t.spec, op, 409), why: `${tag} is already on ${item}` },
        'adding the same tag again',
      );
      const removed = await remove();
      t.expect(ok(removed), `removing ${tag} from ${item}: expected 2xx, got ${removed.status}`, removed);
      t.expectError(await remove(), listedCode(t.spec, removeOp, 'TAG_NOT_FOUND'), 'removing it again');
      // Leave the item as it was found.
      if (wasThere) t.expect(ok(await add()), `restoring ${tag} on ${item} failed`);
    });
  },
});

operationChecks('removeConversationItemTag', {
  success: false,
  baseline: (t, f) => ({ params: { id: anItem(t, f).id, tag: tagOf(t, f) } }),
  scenarios: (op, scenario) => {
    // Idempotency is stated for every write method: here on a DELETE of a probe tag added for it.
    scenario({ id: 'idempotency.replay', variant: op.method }, async (t) => {
      const item = anItem(t, await t.fixtures()).id;
      const tag = `svc-contract-${t.config.runId}-replay`;
      const added = await t.call({ params: { id: item }, body: { tags: [tag] } }, {}, 'addConversationItemTags');
      if (!t.expect(ok(added), `adding the probe tag ${tag} to ${item}: expected 2xx, got ${added.status}`, added))
        return;
      await expectReplays(t, `${op.method} the tag ${tag}`, (idempotencyKey) =>
        t.call({ params: { id: item, tag } }, { idempotencyKey }),
      );
    });
  },
});
