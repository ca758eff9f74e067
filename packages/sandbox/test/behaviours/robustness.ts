// Hostile bodies, odd unicode and the test-only reset endpoint.
import { describe, expect, it } from 'vitest';
import { createSandbox, RESET_PATH } from '../../src/index.js';
import type { Harness } from '../support/harness.js';

export function robustnessBehaviours(h: () => Harness) {
  describe('bodies', () => {
    it('refuses a body over 64 KiB, declared or streamed, without touching the store', async () => {
      const before = h().sandbox.store.snapshot();
      const huge = JSON.stringify({ content: 'x'.repeat(64 * 1024) });
      const res = await h().post('/v2/api/threads/cth-5Lm1zX7e/comments', undefined, { rawBody: huge });
      expect(res).toMatchObject({ status: 400, code: 'INVALID_REQUEST_BODY' });
      expect(res.body.error.message).toMatch(/larger than 65536 bytes/);
      // A streamed body without Content-Length is cut off while it is read.
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < 20; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(100_000)));
          controller.close();
        },
      });
      const request = new Request('http://sandbox.test/v2/api/threads', {
        method: 'POST',
        body: stream,
        headers: { 'Content-Type': 'application/json', Authorization: 'Api-Key sbx_demo_full_access' },
        duplex: 'half',
      } as RequestInit);
      const streamed = await h().validate(request, await h().sandbox.fetch(request));
      expect(streamed.code).toBe('INVALID_REQUEST_BODY');
      expect(h().sandbox.store.snapshot()).toBe(before);
    });

    it('refuses deeply nested JSON and invalid UTF-8', async () => {
      const deep = `{"content":"x","a":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
      const res = await h().post('/v2/api/threads/cth-5Lm1zX7e/comments', undefined, { rawBody: deep });
      expect(res.body.error).toMatchObject({
        code: 'INVALID_REQUEST_BODY',
        message: expect.stringMatching(/nested deeper than 32/),
      });
      const bytes = new Uint8Array([0x7b, 0x22, 0x63, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]);
      expect(
        (await h().post('/v2/api/threads/cth-5Lm1zX7e/comments', undefined, { rawBody: bytes })).body.error.message,
      ).toMatch(/UTF-8/);
    });

    it('stores and returns odd unicode intact', async () => {
      const content = `Zalgo Z̸̧̛a̵͖l̶g̷o ‮RTL‬ 👩🏽‍💻 zero​width \u0000 nul ${'𝕏'.repeat(10)} @[Dana 👋](usr-4TgB81cd)`;
      const res = await h().post('/v2/api/threads/cth-5Lm1zX7e/comments', { content });
      expect(res.status).toBe(201);
      expect(res.body.data.content).toBe(content);
      expect(res.body.data.mentions).toEqual([{ user_id: 'usr-4TgB81cd', name: 'Dana Reyes', deleted: false }]);
      const thread = await h().get('/v2/api/threads/cth-5Lm1zX7e');
      expect(thread.body.data.comments.at(-1).content).toBe(content);
      // Prototype-looking keys are data, not prototypes.
      const proto = await h().patch(
        '/v2/api/numbers/%2B14155550100/agent',
        JSON.parse('{"__proto__": {"polluted": true}}'),
      );
      expect(proto.code).toBe('UNKNOWN_FIELD');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('counts characters, not bytes or UTF-16 units, against the 4,000 limit', async () => {
      expect((await h().post('/v2/api/threads/cth-5Lm1zX7e/comments', { content: '😀'.repeat(4000) })).status).toBe(
        201,
      );
      expect((await h().post('/v2/api/threads/cth-5Lm1zX7e/comments', { content: '😀'.repeat(4001) })).code).toBe(
        'NOTE_CONTENT_TOO_LONG',
      );
    });
  });

  describe('POST /__sandbox/reset', () => {
    it('is off unless enabled (then it is an unknown endpoint)', async () => {
      expect(await h().post(RESET_PATH)).toMatchObject({ status: 404, code: 'ENDPOINT_NOT_FOUND' });
    });

    it('restores the seed and forgets idempotency keys when enabled', async () => {
      const sandbox = createSandbox({ enableReset: true, rateLimit: false });
      const seed = sandbox.store.snapshot();
      const call = () =>
        sandbox.fetch(
          new Request('http://sandbox.test/v2/api/threads', {
            method: 'POST',
            headers: {
              Authorization: 'Api-Key sbx_demo_full_access',
              'Content-Type': 'application/json',
              'Idempotency-Key': 'before-reset',
            },
            body: JSON.stringify({ entity_type: 'CALL', entity_id: 'cll-4Xs8mN1c', content: 'x' }),
          }),
        );
      expect((await call()).status).toBe(201);
      expect(sandbox.store.snapshot()).not.toBe(seed);
      const reset = await sandbox.fetch(
        new Request(`http://sandbox.test${RESET_PATH}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Api-Key sbx_demo_full_access' },
          body: '{}',
        }),
      );
      expect(reset.status).toBe(200);
      expect(await reset.json()).toEqual({ data: { reset: true } });
      expect(sandbox.store.snapshot()).toBe(seed);
      const again = await call();
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotency-replayed')).toBeNull();
    });
  });
}
