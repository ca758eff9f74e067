// Threads (one per item, comments in order, mentions) and conversation notes.
import { describe, expect, it } from 'vitest';
import type { Harness } from '../support/harness.js';
import { KEYS } from '../support/harness.js';

export function threadAndNoteBehaviours(h: () => Harness) {
  describe('threads', () => {
    it('creates a thread with its first comment, parsed mentions and comment_count 1', async () => {
      const res = await h().post('/v2/api/threads', {
        entity_type: 'TEXT_MESSAGE',
        entity_id: 'msg-7Ty4uI9o',
        content: 'Call him back, @[Leo Park](usr-7Kp2Wn5d) and @[Priya](usr-9Qx3Lm7w).',
      });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({
        entity_type: 'TEXT_MESSAGE',
        entity_id: 'msg-7Ty4uI9o',
        contact_number: '+16505550111',
        resolved: false,
        resolved_at: null,
        resolved_by: null,
        comment_count: 1,
      });
      expect(res.body.data.id).toMatch(/^cth-/);
      const [comment] = res.body.data.comments;
      expect(comment.id).toMatch(/^thc-/);
      expect(comment.user).toEqual({ id: 'usr-4TgB81cd', name: 'Dana Reyes' });
      expect(comment.mentions).toEqual([
        { user_id: 'usr-7Kp2Wn5d', name: 'Leo Park', deleted: false },
        { user_id: 'usr-9Qx3Lm7w', name: 'Priya Natarajan', deleted: true },
      ]);
    });

    it('allows one thread per item: 409 THREAD_ALREADY_EXISTS points to the lookup', async () => {
      const res = await h().post('/v2/api/threads', {
        entity_type: 'CALL',
        entity_id: 'cll-9Jd3kW2p',
        content: 'Another one',
      });
      expect(res).toMatchObject({ status: 409, code: 'THREAD_ALREADY_EXISTS' });
      expect(res.body.error.suggestion).toBe(
        'Find the thread with GET /v2/api/threads?entity_type=CALL&entity_id=cll-9Jd3kW2p and add a comment to it with POST /v2/api/threads/cth-5Lm1zX7e/comments.',
      );
      const found = await h().get('/v2/api/threads?entity_type=CALL&entity_id=cll-9Jd3kW2p');
      expect(found.body.data.id).toBe('cth-5Lm1zX7e');
    });

    it('threads notes too, and finds nothing for an item without a thread', async () => {
      const created = await h().post('/v2/api/threads', {
        entity_type: 'CONVERSATION_NOTE',
        entity_id: 'not-7Hq2xL9a',
        content: 'On it.',
      });
      expect(created.body.data.contact_number).toBe('+14155550123');
      const found = await h().get('/v2/api/threads?entity_type=CONVERSATION_NOTE&entity_id=not-7Hq2xL9a');
      expect(found.body.data.id).toBe(created.body.data.id);
      expect((await h().get('/v2/api/threads?entity_type=CALL&entity_id=cll-6Mn3bV8q')).body).toEqual({ data: null });
    });

    it('returns every comment in creation order, with removed users flagged in mentions', async () => {
      await h().post('/v2/api/threads/cth-5Lm1zX7e/comments', { content: 'Fourth, for @[Sam Ortiz](usr-1Ab2Cd3e)' });
      const res = await h().get('/v2/api/threads/cth-5Lm1zX7e');
      expect(res.body.data.comment_count).toBe(4);
      expect(res.body.data.comments.map((c: { id: string }) => c.id).slice(0, 3)).toEqual([
        'thc-8Wv4cP3s',
        'thc-2Rk7nB5y',
        'thc-6Tz1qH8u',
      ]);
      expect(res.body.data.comments[1].mentions).toEqual([
        { user_id: 'usr-9Qx3Lm7w', name: 'Priya Natarajan', deleted: true },
      ]);
      expect(res.body.data.comments[3]).toMatchObject({
        content: 'Fourth, for @[Sam Ortiz](usr-1Ab2Cd3e)',
        mentions: [{ user_id: 'usr-1Ab2Cd3e', name: 'Sam Ortiz', deleted: false }],
      });
      const resolved = await h().get('/v2/api/threads/cth-1Qa2Ws3e');
      expect(resolved.body.data).toMatchObject({
        resolved: true,
        resolved_by: { id: 'usr-7Kp2Wn5d', name: 'Leo Park' },
      });
    });

    it('answers 404 THREAD_NOT_FOUND for an unknown id, whatever its prefix', async () => {
      for (const id of ['cth-0000none', 'not-7Hq2xL9a', 'whatever']) {
        expect(await h().get(`/v2/api/threads/${id}`)).toMatchObject({
          status: 404,
          code: 'THREAD_NOT_FOUND',
          body: { error: { param: 'id' } },
        });
        expect(await h().post(`/v2/api/threads/${id}/comments`, { content: 'x' })).toMatchObject({
          status: 404,
          code: 'THREAD_NOT_FOUND',
        });
      }
      // The unknown thread wins over a bad body: the resource does not exist.
      expect((await h().post('/v2/api/threads/nope/comments', { content: '' })).code).toBe('THREAD_NOT_FOUND');
    });

    it('answers 404 CONVERSATION_ITEM_NOT_FOUND for an unknown item', async () => {
      const res = await h().post('/v2/api/threads', { entity_type: 'CALL', entity_id: 'cll-0000none', content: 'x' });
      expect(res).toMatchObject({
        status: 404,
        code: 'CONVERSATION_ITEM_NOT_FOUND',
        body: { error: { param: 'entity_id' } },
      });
    });

    it('validates entity_type, entity_id and content', async () => {
      const send = (body: object) => h().post('/v2/api/threads', body);
      const base = { entity_type: 'CALL', entity_id: 'cll-4Xs8mN1c', content: 'Hello' };
      expect(await send({ ...base, entity_type: 'VOICEMAIL' })).toMatchObject({
        code: 'INVALID_THREAD_ENTITY_TYPE',
        body: { error: { param: 'entity_type' } },
      });
      expect((await send({ ...base, content: '' })).code).toBe('EMPTY_NOTE_CONTENT');
      expect((await send({ ...base, content: ' \t\n ' })).code).toBe('EMPTY_NOTE_CONTENT');
      expect((await send({ entity_type: 'CALL', entity_id: 'cll-4Xs8mN1c' })).code).toBe('EMPTY_NOTE_CONTENT');
      expect((await send({ ...base, content: 'x'.repeat(4000) })).status).toBe(201);
      const long = await h().post('/v2/api/threads/cth-5Lm1zX7e/comments', { content: 'y'.repeat(4001) });
      expect(long).toMatchObject({
        code: 'NOTE_CONTENT_TOO_LONG',
        body: { error: { param: 'content', message: 'content is 4001 characters long; the maximum is 4000.' } },
      });
      expect((await h().post('/v2/api/threads/cth-5Lm1zX7e/comments', { content: '   ' })).code).toBe(
        'EMPTY_NOTE_CONTENT',
      );
      expect((await send({ ...base, content: 'z'.repeat(4001) })).code).toBe('NOTE_CONTENT_TOO_LONG');
      const several = await send({ entity_type: 'CALL', content: ' ' });
      expect(several.body.error.errors).toEqual([
        { field: 'entity_id', code: 'INVALID_REQUEST', message: 'entity_id is required' },
        { field: 'content', code: 'EMPTY_NOTE_CONTENT', message: expect.any(String) },
      ]);
      const mismatch = await send({ ...base, entity_id: 'msg-7Ty4uI9o' });
      expect(mismatch.body.error).toMatchObject({ code: 'INVALID_REQUEST', errors: [{ field: 'entity_id' }] });
    });

    it('validates the lookup parameters', async () => {
      expect(await h().get('/v2/api/threads?entity_type=CALL')).toMatchObject({
        code: 'MISSING_PARAMETER',
        body: { error: { param: 'entity_id' } },
      });
      expect((await h().get('/v2/api/threads?entity_type=VOICEMAIL&entity_id=cll-1')).code).toBe(
        'INVALID_THREAD_ENTITY_TYPE',
      );
      const several = await h().get('/v2/api/threads?entity_type=VOICEMAIL');
      expect(several.body.error.errors.map((e: { code: string }) => e.code)).toEqual([
        'INVALID_THREAD_ENTITY_TYPE',
        'MISSING_PARAMETER',
      ]);
    });

    it('needs THREADS_WRITE to write and THREADS_READ to read', async () => {
      expect((await h().get('/v2/api/threads/cth-5Lm1zX7e', { key: KEYS.threadsRead })).status).toBe(200);
      const denied = await h().post(
        '/v2/api/threads/cth-5Lm1zX7e/comments',
        { content: 'x' },
        { key: KEYS.threadsRead },
      );
      expect(denied.body.error.message).toContain('THREADS_WRITE');
    });
  });

  describe('notes', () => {
    it('returns a note with its author and parsed mentions, a removed user flagged deleted', async () => {
      const res = await h().get('/v2/api/conversations/notes/not-5Kd8sL3f');
      expect(res.body.data).toMatchObject({
        id: 'not-5Kd8sL3f',
        contact_number: '+442071838750',
        svc_number: '+442071838700',
        user: { id: 'usr-4TgB81cd', name: 'Dana Reyes' },
      });
      expect(res.body.data.mentions).toEqual([
        { user_id: 'usr-9Qx3Lm7w', name: 'Priya Natarajan', deleted: true },
        { user_id: 'usr-7Kp2Wn5d', name: 'Leo Park', deleted: false },
      ]);
      const unlined = await h().get('/v2/api/conversations/notes/not-2Pw5cV8k');
      expect(unlined.body.data).toMatchObject({ svc_number: null, mentions: [] });
    });

    it('answers 404 NOTE_NOT_FOUND for an unknown id or another prefix', async () => {
      for (const id of ['not-0000none', 'cll-9Jd3kW2p']) {
        expect(await h().get(`/v2/api/conversations/notes/${id}`)).toMatchObject({
          status: 404,
          code: 'NOTE_NOT_FOUND',
          body: { error: { param: 'id' } },
        });
      }
    });

    it("lists a conversation's notes, oldest first", async () => {
      const res = await h().get('/v2/api/conversations/%2B14155550123/notes');
      expect(res.body.data.map((n: { id: string }) => n.id)).toEqual(['not-7Hq2xL9a', 'not-2Pw5cV8k']);
      expect((await h().get('/v2/api/conversations/%2B19995550000/notes')).body).toEqual({ data: [] });
      expect((await h().get('/v2/api/conversations/%2B442071838750/notes', { key: KEYS.mainLineOnly })).body).toEqual({
        data: [],
      });
      expect(await h().get('/v2/api/conversations/4155550123/notes')).toMatchObject({
        status: 400,
        code: 'INVALID_PHONE_FORMAT',
      });
    });
  });
}
