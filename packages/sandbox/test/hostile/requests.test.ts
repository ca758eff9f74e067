// The hostile requests of the report, in process, each answered with its documented code and a
// small body. Every response goes through the harness, which validates it against the contract.

import { MAX_FIELD_ERRORS } from '@svc/spec-runtime';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/app.js';
import { Harness } from '../support/harness.js';

describe('hostile requests', () => {
  it('a batch of 16 000 ids (just under the body cap) is BATCH_TOO_LARGE, in a body of a few hundred bytes', async () => {
    const h = new Harness();
    const res = await h.post('/v2/api/conversations/items/batch', { ids: Array.from({ length: 16_000 }, () => 'x') });
    expect(res.status).toBe(400);
    expect(res.code).toBe('BATCH_TOO_LARGE');
    expect(res.text.length).toBeLessThan(1000);
  });

  it('a body with many failing fields lists at most the cap, in the documented shape', async () => {
    const h = new Harness();
    const ids = Array.from({ length: 100 }, (_, i) => `bad-${i}`);
    const res = await h.post('/v2/api/conversations/items/batch', { ids });
    expect(res.status).toBe(400);
    expect(res.code).toBe('INVALID_REQUEST');
    expect(res.body.error.errors).toHaveLength(MAX_FIELD_ERRORS);
    expect(res.body.error.message).toContain(`first ${MAX_FIELD_ERRORS} of 100`);
  });

  it('16 000 digits and a letter as page size is INVALID_PAGE_SIZE with the value clipped', async () => {
    const h = new Harness();
    const res = await h.get(`/v2/api/conversations?size=${'1'.repeat(16_000)}x`);
    expect(res.code).toBe('INVALID_PAGE_SIZE');
    expect(res.text.length).toBeLessThan(1000);
  });

  it('a thread of hostile comments reads back whole, without mentions invented', async () => {
    const h = new Harness();
    const hostile = '@['.repeat(2000);
    for (let i = 0; i < 50; i++)
      expect((await h.post('/v2/api/threads/cth-5Lm1zX7e/comments', { content: hostile })).status).toBe(201);
    const res = await h.get('/v2/api/threads/cth-5Lm1zX7e');
    expect(res.status).toBe(200);
    const added = res.body.data.comments.filter((c: { content: string }) => c.content === hostile);
    expect(added).toHaveLength(50);
    for (const comment of added) expect(comment.mentions).toEqual([]);
    // Ids stay unique without serialising the team: every comment has its own.
    const ids = res.body.data.comments.map((c: { id: string }) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('an 8 kB Idempotency-Key works, and messages quote it clipped', async () => {
    const h = new Harness();
    const key = 'k'.repeat(8192);
    const body = { action: 'READ' };
    const first = await h.put('/v2/api/conversations/%2B14155550123/action', body, {
      headers: { 'Idempotency-Key': key },
    });
    expect(first.status).toBe(200);
    const replay = await h.put('/v2/api/conversations/%2B14155550123/action', body, {
      headers: { 'Idempotency-Key': key },
    });
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    const reuse = await h.put('/v2/api/conversations/%2B14155550199/action', body, {
      headers: { 'Idempotency-Key': key },
    });
    expect(reuse.code).toBe('IDEMPOTENCY_KEY_REUSE');
    expect(reuse.body.error.message.length).toBeLessThan(300);
  });

  it('made-up keys share one rate-limit budget: they cannot grow the limiter', async () => {
    const sandbox = createSandbox({ rateLimit: { readsPerSecond: 3 }, clock: () => 5_000 });
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      const res = await sandbox.fetch(
        new Request('http://sandbox.test/v2/api/tags', { headers: { Authorization: `Api-Key made-up-${i}` } }),
      );
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    // A key of the seed keeps its own budget.
    const own = await sandbox.fetch(
      new Request('http://sandbox.test/v2/api/tags', { headers: { Authorization: 'Api-Key sbx_demo_full_access' } }),
    );
    expect(own.status).toBe(200);
  });
});
