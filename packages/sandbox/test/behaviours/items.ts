// Conversation items: fetch (extend, template_key), batch, search, tags.
import { describe, expect, it } from 'vitest';
import type { Harness } from '../support/harness.js';

export function itemBehaviours(h: () => Harness) {
  describe('GET /v2/api/conversations/items/{id}', () => {
    it('returns a call with its only completed summary, and the transcript with extend=transcript', async () => {
      const plain = await h().get('/v2/api/conversations/items/cll-2Vb7cX1z');
      expect(plain.body.data).toMatchObject({
        id: 'cll-2Vb7cX1z',
        type: 'CALL',
        summary_template_key: 'MARKDOWN_CLASSIC',
        duration: 312,
      });
      expect(plain.body.data.transcript).toBeUndefined();
      const extended = await h().get('/v2/api/conversations/items/cll-2Vb7cX1z?extend=transcript');
      expect(extended.body.data.transcript).toHaveLength(2);
      expect(extended.body.data.transcript[0]).toEqual({
        source: 'AGENT',
        time: '2026-03-01T15:10:03Z',
        text: expect.any(String),
      });
    });

    it('requires template_key when a call has two completed summaries, and picks the one named', async () => {
      const required = await h().get('/v2/api/conversations/items/cll-9Jd3kW2p');
      expect(required).toMatchObject({
        status: 400,
        code: 'SUMMARY_TEMPLATE_KEY_REQUIRED',
        body: { error: { param: 'template_key' } },
      });
      expect(required.body.error.suggestion).toMatch(/MARKDOWN_CLASSIC/);
      const short = await h().get('/v2/api/conversations/items/cll-9Jd3kW2p?template_key=MARKDOWN_SHORT_CALL');
      expect(short.body.data).toMatchObject({
        summary_template_key: 'MARKDOWN_SHORT_CALL',
        summary: expect.stringContaining('Invoice resend'),
      });
      const classic = await h().get(
        '/v2/api/conversations/items/cll-9Jd3kW2p?template_key=MARKDOWN_CLASSIC&extend=transcript',
      );
      expect(classic.body.data.summary).toMatch(/^## Summary/);
    });

    it('answers 404 SUMMARY_TEMPLATE_NOT_FOUND for a template without a completed summary (a pending one does not count)', async () => {
      const pending = await h().get('/v2/api/conversations/items/cll-2Vb7cX1z?template_key=MARKDOWN_SHORT_CALL');
      expect(pending).toMatchObject({
        status: 404,
        code: 'SUMMARY_TEMPLATE_NOT_FOUND',
        body: { error: { param: 'template_key' } },
      });
      expect((await h().get('/v2/api/conversations/items/cll-6Mn3bV8q?template_key=MARKDOWN_CLASSIC')).code).toBe(
        'SUMMARY_TEMPLATE_NOT_FOUND',
      );
    });

    it('returns a text message (template_key does not apply to messages)', async () => {
      const res = await h().get('/v2/api/conversations/items/msg-7Ty4uI9o?template_key=MARKDOWN_CLASSIC');
      expect(res.body.data).toMatchObject({
        id: 'msg-7Ty4uI9o',
        type: 'TEXT_MESSAGE',
        direction: 'INBOUND',
        text: expect.stringContaining('burst pipe'),
      });
    });

    it('answers unknown ids with the specific not-found code', async () => {
      expect(await h().get('/v2/api/conversations/items/cll-0Xq8Vn4r')).toMatchObject({
        status: 404,
        code: 'CALL_NOT_FOUND',
      });
      expect(await h().get('/v2/api/conversations/items/msg-0Xq8Vn4r')).toMatchObject({
        status: 404,
        code: 'TEXT_MESSAGE_NOT_FOUND',
      });
    });

    it('refuses other prefixes, other extend values, or both', async () => {
      const prefix = await h().get('/v2/api/conversations/items/not-7Hq2xL9a');
      expect(prefix).toMatchObject({ status: 400, code: 'INVALID_ITEM_ID', body: { error: { param: 'id' } } });
      const extend = await h().get('/v2/api/conversations/items/cll-9Jd3kW2p?extend=recording');
      expect(extend).toMatchObject({ code: 'UNSUPPORTED_EXTEND_VALUE', body: { error: { param: 'extend' } } });
      const both = await h().get('/v2/api/conversations/items/abc?extend=recording');
      expect(both.body.error.errors.map((e: { code: string }) => e.code)).toEqual([
        'INVALID_ITEM_ID',
        'UNSUPPORTED_EXTEND_VALUE',
      ]);
    });

    it('keeps summaries of a soft-deleted template', async () => {
      expect((await h().delete('/v2/api/summary_templates/7d3f0c2a9b41')).status).toBe(204);
      const res = await h().get('/v2/api/conversations/items/cll-4Xs8mN1c');
      expect(res.body.data.summary_template_key).toBe('MARKDOWN_CLASSIC');
    });
  });

  describe('POST /v2/api/conversations/items/batch', () => {
    it('returns the items in the order asked, and lists ids that match nothing', async () => {
      const res = await h().post('/v2/api/conversations/items/batch', {
        ids: ['msg-2Rf8nQ5v', 'cll-0None', 'cll-9Jd3kW2p'],
      });
      expect(res.body.data.map((i: { id: string }) => i.id)).toEqual(['msg-2Rf8nQ5v', 'cll-9Jd3kW2p']);
      expect(res.body.not_found).toEqual(['cll-0None']);
    });

    it('accepts 100 ids and refuses 101 with BATCH_TOO_LARGE', async () => {
      const ids = (n: number) => Array.from({ length: n }, (_, i) => `cll-${i}`);
      expect((await h().post('/v2/api/conversations/items/batch', { ids: ids(100) })).status).toBe(200);
      const large = await h().post('/v2/api/conversations/items/batch', { ids: ids(101) });
      expect(large).toMatchObject({ status: 400, code: 'BATCH_TOO_LARGE', body: { error: { param: 'ids' } } });
    });

    it('refuses unknown prefixes and a missing or empty list', async () => {
      const prefix = await h().post('/v2/api/conversations/items/batch', { ids: ['cll-1', 'not-7Yp3Kd2w'] });
      expect(prefix).toMatchObject({ code: 'INVALID_ITEM_ID', body: { error: { param: 'ids[1]' } } });
      expect((await h().post('/v2/api/conversations/items/batch', {})).code).toBe('INVALID_REQUEST');
      expect((await h().post('/v2/api/conversations/items/batch', { ids: [] })).body.error.errors).toEqual([
        { field: 'ids', code: 'INVALID_REQUEST', message: 'ids must hold at least 1 item; got an array of 0 items' },
      ]);
    });
  });

  describe('POST /v2/api/conversations/items/search', () => {
    const search = async (h: Harness, query: unknown) => h.post('/v2/api/conversations/items/search', { query });

    it('strips special characters, AND-s the words and matches prefixes', async () => {
      const ids = async (q: string) => (await search(h(), q)).body.data.map((i: { id: string }) => i.id);
      expect(await ids('invoice follow')).toEqual(['msg-2Rf8nQ5v', 'cll-9Jd3kW2p']);
      expect(await ids('inv foll')).toEqual(['msg-2Rf8nQ5v', 'cll-9Jd3kW2p']);
      expect(await ids('"invoice"!! -follow-')).toEqual(['msg-2Rf8nQ5v', 'cll-9Jd3kW2p']);
      expect(await ids('invoice thursday')).toEqual([]);
      expect(await ids('BILLING')).toEqual(['cll-8Rt5yU2i']);
      const page = (await search(h(), 'the')).body.pagination;
      expect(page).toMatchObject({ page: 1, size: 20 });
    });

    it('pages with page and size in the body', async () => {
      const res = await h().post('/v2/api/conversations/items/search', { query: 'the', size: 1, page: 2 });
      expect(res.body.data).toHaveLength(1);
      expect(res.body.pagination).toMatchObject({ page: 2, size: 1 });
      const bad = await h().post('/v2/api/conversations/items/search', { query: 'the', size: 500 });
      expect(bad.body.error).toMatchObject({
        code: 'INVALID_REQUEST',
        errors: [{ field: 'size', code: 'INVALID_PAGE_SIZE' }],
      });
    });

    it('refuses a query without a letter or digit, or none at all', async () => {
      for (const query of ['!!! ???', '', '   ', '-_-']) {
        expect(await search(h(), query)).toMatchObject({
          status: 400,
          code: 'INVALID_SEARCH_QUERY',
          body: { error: { param: 'query' } },
        });
      }
      expect((await h().post('/v2/api/conversations/items/search', {})).code).toBe('INVALID_SEARCH_QUERY');
      expect((await search(h(), 42)).code).toBe('INVALID_REQUEST'); // a wrong type is not a search-query problem
    });
  });

  describe('tags on items', () => {
    const tags = (h: Harness, id: string) =>
      [...h.sandbox.store.team('team-harbor').calls, ...h.sandbox.store.team('team-harbor').messages].find(
        (i) => i.id === id,
      )!.tags;

    it('adds tags (creating new team tags) and removes one by its URL-encoded name', async () => {
      const added = await h().post('/v2/api/conversations/items/msg-2Rf8nQ5v/tags', { tags: ['VIP', 'Follow up'] });
      expect(added.body.data).toEqual({ id: 'msg-2Rf8nQ5v', tags: ['VIP', 'Follow up'] });
      expect((await h().get('/v2/api/tags')).body.data).toContainEqual({ name: 'Follow up' });
      const removed = await h().delete('/v2/api/conversations/items/msg-2Rf8nQ5v/tags/Follow%20up');
      expect(removed.body.data).toEqual({ id: 'msg-2Rf8nQ5v', tags: ['VIP'] });
    });

    it('refuses a tag already on the item, adding none of the batch', async () => {
      const res = await h().post('/v2/api/conversations/items/cll-9Jd3kW2p/tags', { tags: ['Billing', 'VIP'] });
      expect(res).toMatchObject({ status: 409, code: 'TAG_ALREADY_EXISTS', body: { error: { param: 'tags' } } });
      expect(tags(h(), 'cll-9Jd3kW2p')).toEqual(['VIP']);
    });

    it('answers 404 TAG_NOT_FOUND for a tag not on the item and CONVERSATION_ITEM_NOT_FOUND for an unknown item', async () => {
      expect(await h().delete('/v2/api/conversations/items/cll-9Jd3kW2p/tags/Billing')).toMatchObject({
        status: 404,
        code: 'TAG_NOT_FOUND',
        body: { error: { param: 'tag' } },
      });
      expect(await h().delete('/v2/api/conversations/items/cll-0None/tags/VIP')).toMatchObject({
        status: 404,
        code: 'CONVERSATION_ITEM_NOT_FOUND',
      });
      expect(await h().post('/v2/api/conversations/items/msg-0None/tags', { tags: ['VIP'] })).toMatchObject({
        status: 404,
        code: 'CONVERSATION_ITEM_NOT_FOUND',
      });
    });

    it('validates tags and item ids', async () => {
      expect((await h().post('/v2/api/conversations/items/cll-9Jd3kW2p/tags', { tags: [] })).code).toBe(
        'TAGS_REQUIRED',
      );
      expect((await h().post('/v2/api/conversations/items/cll-9Jd3kW2p/tags', {})).body.error).toMatchObject({
        code: 'TAGS_REQUIRED',
        param: 'tags',
      });
      const types = await h().post('/v2/api/conversations/items/cll-9Jd3kW2p/tags', { tags: [1, 2] });
      expect(types.body.error).toMatchObject({
        code: 'INVALID_REQUEST',
        errors: [{ field: 'tags[0]' }, { field: 'tags[1]' }],
      });
      expect((await h().post('/v2/api/conversations/items/not-7Hq2xL9a/tags', { tags: ['VIP'] })).code).toBe(
        'INVALID_ITEM_ID',
      );
      expect((await h().delete('/v2/api/conversations/items/thc-1/tags/VIP')).code).toBe('INVALID_ITEM_ID');
    });
  });
}
