// Authentication, scopes, trial plans, rate limits, idempotency, media types, request ids and the
// API-wide 404/405, run against the sample request of every operation.
import { describe, expect, it } from 'vitest';
import { Harness, KEYS, type SendOptions } from '../support/harness.js';
import { SAMPLES } from '../support/samples.js';

const entries = Object.entries(SAMPLES);
const writes = entries.filter(([, s]) => s.method !== 'GET');
const withBody = entries.filter(([, s]) => s.body !== undefined);

export function crossCuttingBehaviours(h: () => Harness, coverage: Set<string>) {
  describe('every operation', () => {
    it.each(entries)('%s succeeds with its sample request', async (_id, sample) => {
      const res = await h().send(sample.method, sample.path, { body: sample.body });
      expect(res.status).toBeGreaterThanOrEqual(200);
      expect(res.status).toBeLessThan(300);
    });

    it.each(entries)(
      '%s answers 401 without a key, with a malformed header, an unknown and a revoked key',
      async (_id, sample) => {
        const send = (options: SendOptions) => h().send(sample.method, sample.path, { body: sample.body, ...options });
        expect((await send({ key: null })).code).toBe('UNAUTHORIZED');
        expect((await send({ key: null, headers: { Authorization: 'Bearer sbx_demo_full_access' } })).code).toBe(
          'UNAUTHORIZED',
        );
        expect((await send({ key: null, headers: { Authorization: 'Api-Key' } })).code).toBe('UNAUTHORIZED');
        expect((await send({ key: 'sbx_demo_nope' })).code).toBe('API_KEY_INVALID');
        const revoked = await send({ key: KEYS.revoked });
        expect(revoked).toMatchObject({ status: 401, code: 'API_KEY_REVOKED' });
        expect(revoked.body.error).toMatchObject({ type: 'authentication_error', retryable: false });
      },
    );

    it.each(entries)('%s answers 403 for a trial plan and for a key without its scope', async (id, sample) => {
      const trial = await h().send(sample.method, sample.path, { body: sample.body, key: KEYS.trial });
      expect(trial).toMatchObject({ status: 403, code: 'API_KEY_TRIAL_NOT_ALLOWED' });
      const scoped = await h().send(sample.method, sample.path, { body: sample.body, key: KEYS.billingOnly });
      expect(scoped).toMatchObject({ status: 403, code: 'API_KEY_INSUFFICIENT_SCOPE' });
      // The message names the missing scope (every alternative, when the operation has several).
      const scopes = h().sandbox.contract.operationsById.get(id)!.security.flat();
      for (const scope of scopes) expect(scoped.body.error.message).toContain(scope);
      expect(scoped.body.error.suggestion).toContain(scopes[0]);
    });

    it.each(entries)('%s answers 429 past its per-second budget, with retry_after_seconds', async (_id, sample) => {
      const limited = new Harness(
        { rateLimit: { readsPerSecond: 1, writesPerSecond: 1 }, clock: () => 1_772_442_000_500 },
        coverage,
      );
      const first = await limited.send(sample.method, sample.path, { body: sample.body });
      expect(first.headers.get('x-ratelimit-remaining')).toBe('0');
      const second = await limited.send(sample.method, sample.path, { body: sample.body });
      expect(second).toMatchObject({ status: 429, code: 'RATE_LIMIT_EXCEEDED' });
      expect(second.body.error).toMatchObject({ type: 'rate_limit_error', retryable: true, retry_after_seconds: 1 });
      expect(second.headers.get('x-ratelimit-limit')).toBe('1');
      expect(second.headers.get('x-ratelimit-reset')).toBe('1');
    });
  });

  describe('idempotency on every write', () => {
    it.each(writes)(
      '%s replays a stored success with Idempotency-Replayed and the identical body',
      async (_id, sample) => {
        const options = { body: sample.body, headers: { 'Idempotency-Key': `replay-${sample.path}` } };
        const first = await h().send(sample.method, sample.path, options);
        expect(first.headers.get('idempotency-replayed')).toBeNull();
        const before = h().sandbox.store.snapshot();
        const again = await h().send(sample.method, sample.path, options);
        expect(again.status).toBe(first.status);
        expect(again.text).toBe(first.text);
        expect(again.headers.get('idempotency-replayed')).toBe('true');
        expect(again.headers.get('idempotency-key')).toBe(`replay-${sample.path}`);
        expect(h().sandbox.store.snapshot()).toBe(before);
      },
    );

    it.each(writes)('%s answers 409 IDEMPOTENCY_KEY_REUSE for a key used on another endpoint', async (_id, sample) => {
      const key = { 'Idempotency-Key': 'shared-key' };
      const elsewhere = await h().put(
        '/v2/api/conversations/%2B14155550123/action',
        { action: 'READ' },
        { headers: key },
      );
      expect(elsewhere.status).toBe(200);
      const reused = await h().send(sample.method, sample.path, { body: sample.body, headers: key });
      expect(reused).toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_REUSE' });
      expect(reused.headers.get('idempotency-key')).toBe('shared-key');
    });

    it.each(writes)(
      '%s answers 409 OTHER_TRANSACTION_IN_PROGRESS to a duplicate sent while the first runs',
      async (_id, sample) => {
        const options = { body: sample.body, headers: { 'Idempotency-Key': 'in-flight' } };
        const [first, second] = await Promise.all([
          h().send(sample.method, sample.path, options),
          h().send(sample.method, sample.path, options),
        ]);
        expect(first.status).toBeLessThan(300);
        expect(second).toMatchObject({ status: 409, code: 'OTHER_TRANSACTION_IN_PROGRESS' });
        expect(second.body.error.retryable).toBe(true);
        const replay = await h().send(sample.method, sample.path, options);
        expect(replay.headers.get('idempotency-replayed')).toBe('true');
      },
    );

    it('does not consume the key of a failed request', async () => {
      const key = { 'Idempotency-Key': 'failed-first' };
      const failed = await h().post(
        '/v2/api/threads',
        { entity_type: 'CALL', entity_id: 'cll-4Xs8mN1c', content: ' ' },
        { headers: key },
      );
      expect(failed.code).toBe('EMPTY_NOTE_CONTENT');
      const retried = await h().post(
        '/v2/api/threads',
        { entity_type: 'CALL', entity_id: 'cll-4Xs8mN1c', content: 'Now with text' },
        { headers: key },
      );
      expect(retried.status).toBe(201);
      expect(retried.headers.get('idempotency-replayed')).toBeNull();
      // A failed request does not hold the key for its endpoint either: another endpoint may take it.
      const other = { 'Idempotency-Key': 'failed-then-elsewhere' };
      expect((await h().get('/v2/api/threads/cth-5Lm1zX7e', { headers: other })).status).toBe(200);
      expect((await h().delete('/v2/api/summary_templates/nope', { headers: other })).code).toBe(
        'SUMMARY_TEMPLATE_NOT_FOUND',
      );
      expect((await h().delete('/v2/api/summary_templates/9c1f5e7a3b22', { headers: other })).status).toBe(204);
    });

    it('scopes keys per API key', async () => {
      const key = { 'Idempotency-Key': 'per-api-key' };
      const mine = await h().post('/v2/api/threads/cth-5Lm1zX7e/comments', { content: 'Mine' }, { headers: key });
      const theirs = await h().post(
        '/v2/api/threads/cth-5Lm1zX7e/comments',
        { content: 'Theirs' },
        { headers: key, key: KEYS.mainLineOnly },
      );
      expect(theirs.body.data.id).not.toBe(mine.body.data.id);
      expect(theirs.headers.get('idempotency-replayed')).toBeNull();
      const patchKey = { 'Idempotency-Key': 'same-operation-other-resource' };
      await h().post('/v2/api/threads/cth-5Lm1zX7e/comments', { content: 'A' }, { headers: patchKey });
      expect(
        (await h().post('/v2/api/threads/cth-1Qa2Ws3e/comments', { content: 'A' }, { headers: patchKey })).code,
      ).toBe('IDEMPOTENCY_KEY_REUSE');
    });

    it('keeps a stored response for the TTL of the contract (3600 s), then executes again', async () => {
      let now = Date.UTC(2026, 2, 2, 9, 0, 0);
      const timed = new Harness({ clock: () => now }, coverage);
      const options = { body: { content: 'Timed' }, headers: { 'Idempotency-Key': 'ttl' } };
      const first = await timed.post('/v2/api/threads/cth-5Lm1zX7e/comments', undefined, options);
      now += 3_599_000;
      const replay = await timed.post('/v2/api/threads/cth-5Lm1zX7e/comments', undefined, options);
      expect(replay.text).toBe(first.text);
      expect(replay.headers.get('idempotency-replayed')).toBe('true');
      now += 2_000;
      const fresh = await timed.post('/v2/api/threads/cth-5Lm1zX7e/comments', undefined, options);
      expect(fresh.headers.get('idempotency-replayed')).toBeNull();
      expect(fresh.body.data.id).not.toBe(first.body.data.id);
      expect(timed.sandbox.contract.limits.idempotencyTtlSeconds).toBe(3600);
    });

    it('ignores Idempotency-Key on reads but still echoes it', async () => {
      const res = await h().get('/v2/api/tags', { headers: { 'Idempotency-Key': 'read-key' } });
      expect(res.headers.get('idempotency-key')).toBe('read-key');
      expect(res.headers.get('idempotency-replayed')).toBeNull();
    });
  });

  describe('media types and bodies', () => {
    it.each(withBody)('%s answers 415 for another content type and 400 for malformed JSON', async (_id, sample) => {
      const form = await h().send(sample.method, sample.path, {
        rawBody: 'a=1',
        contentType: 'application/x-www-form-urlencoded',
      });
      expect(form).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
      expect(form.body.error.type).toBe('validation_error');
      const noType = await h().send(sample.method, sample.path, { rawBody: '{}', contentType: null });
      expect(noType.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      const broken = await h().send(sample.method, sample.path, { rawBody: '{"a": ' });
      expect(broken).toMatchObject({ status: 400, code: 'INVALID_REQUEST_BODY' });
      expect(broken.body.error.message).toMatch(/not valid JSON/);
      for (const rawBody of ['[]', '"text"', 'null', '42', '']) {
        expect((await h().send(sample.method, sample.path, { rawBody })).code).toBe('INVALID_REQUEST_BODY');
      }
      expect(
        (await h().send(sample.method, sample.path, { rawBody: '{}', contentType: 'application/json; charset=utf-8' }))
          .code,
      ).not.toBe('UNSUPPORTED_MEDIA_TYPE');
    });
  });

  describe('teams', () => {
    it("finds none of another team's resources: its ids are not found, its lists show the key's own team", async () => {
      const other = { key: KEYS.otherTeam };
      expect(await h().get('/v2/api/threads/cth-5Lm1zX7e', other)).toMatchObject({
        status: 404,
        code: 'THREAD_NOT_FOUND',
      });
      expect(await h().get('/v2/api/users/usr-1Ab2Cd3e', other)).toMatchObject({
        status: 404,
        code: 'MEMBER_NOT_FOUND',
      });
      expect(await h().patch('/v2/api/crm/attributes/seats', { label: 'x' }, other)).toMatchObject({
        status: 404,
        code: 'ATTRIBUTE_NOT_FOUND',
      });
      const users = await h().get('/v2/api/users', other);
      expect(JSON.stringify(users.body.data)).toContain('usr-8Bv3Nm2q');
      expect(JSON.stringify(users.body.data)).not.toContain('usr-1Ab2Cd3e');
      const fields = await h().get('/v2/api/crm/attributes', other);
      expect(fields.body.data.map((f: { key: string }) => f.key)).toEqual(['pet_name']);
    });
  });

  describe('API-wide rules', () => {
    it('answers 404 ENDPOINT_NOT_FOUND for any undocumented path', async () => {
      for (const path of [
        '/',
        '/v2/api',
        '/v2/api/nothing',
        '/v1/api/threads',
        '/v2/api/threads/',
        '/docs',
        '/__sandbox/reset',
      ]) {
        const res = await h().get(path);
        expect(res).toMatchObject({ status: 404, code: 'ENDPOINT_NOT_FOUND' });
        expect(res.headers.get('x-ratelimit-limit')).toBe('20');
      }
      // Also without a key: the path is checked first.
      expect((await h().send('POST', '/v2/api/nothing', { key: null })).code).toBe('ENDPOINT_NOT_FOUND');
    });

    it('answers 405 METHOD_NOT_ALLOWED with Allow for a documented path and an undocumented method', async () => {
      const res = await h().delete('/v2/api/threads');
      expect(res).toMatchObject({ status: 405, code: 'METHOD_NOT_ALLOWED' });
      expect(res.headers.get('allow')).toBe('GET, POST, HEAD');
      expect((await h().send('PATCH', '/v2/api/conversations/items/batch', { body: {} })).code).toBe(
        'METHOD_NOT_ALLOWED',
      );
      expect((await h().send('OPTIONS', '/v2/api/tags')).code).toBe('METHOD_NOT_ALLOWED');
    });

    it('answers 405 METHOD_NOT_ALLOWED on every documented path, as each of its operations lists', async () => {
      const byPath = new Map<string, Set<string>>();
      for (const op of h().sandbox.contract.operations)
        byPath.set(op.path, (byPath.get(op.path) ?? new Set()).add(op.method));
      const answered: string[] = [];
      for (const [template, methods] of byPath) {
        const method = ['GET', 'DELETE', 'PATCH', 'PUT', 'POST'].find((m) => !methods.has(m)) as string;
        const path = template.replace(/\{[^}]+\}/g, 'x');
        const res = await h().send(method, path, method === 'GET' ? {} : { body: {} });
        answered.push(`${method} ${template} ${res.status} ${res.code}`);
        for (const op of h().sandbox.contract.operations.filter((o) => o.path === template))
          expect(op.codesByStatus.get(405)).toEqual(new Set(['METHOD_NOT_ALLOWED']));
      }
      expect(answered.filter((a) => !a.endsWith(' 405 METHOD_NOT_ALLOWED'))).toEqual([]);
      expect(answered).toHaveLength(byPath.size);
    });

    it('generates req_ + 12 alphanumerics, or echoes X-Request-Id, in the header and the error body', async () => {
      const generated = await h().get('/v2/api/threads/cth-none');
      expect(generated.headers.get('x-request-id')).toMatch(/^req_[A-Za-z0-9]{12}$/);
      expect(generated.body.error.request_id).toBe(generated.headers.get('x-request-id'));
      const ids = new Set(
        await Promise.all(
          Array.from({ length: 20 }, async () => (await h().get('/v2/api/tags')).headers.get('x-request-id')),
        ),
      );
      expect(ids.size).toBe(20);
      const echoed = await h().get('/v2/api/threads/cth-none', { headers: { 'X-Request-Id': 'my-trace-42' } });
      expect(echoed.headers.get('x-request-id')).toBe('my-trace-42');
      expect(echoed.body.error.request_id).toBe('my-trace-42');
    });

    it('sends complete error bodies: type, retryable, request_id, doc_url, param and the catalogue suggestion', async () => {
      const res = await h().get('/v2/api/conversations?svc_number=415-555-0188');
      expect(res.body.error).toEqual({
        type: 'validation_error',
        code: 'INVALID_PHONE_FORMAT',
        message: expect.stringContaining('415-555-0188'),
        retryable: false,
        request_id: res.headers.get('x-request-id'),
        doc_url: 'https://docs.example.com/errors/INVALID_PHONE_FORMAT',
        param: 'svc_number',
        suggestion: h().sandbox.contract.catalogue.get('INVALID_PHONE_FORMAT')!.suggestion,
      });
    });

    it('reports the budget in X-RateLimit-* on every response, per key and per class', async () => {
      const limited = new Harness({ rateLimit: {}, clock: () => 1_772_442_000_000 }, coverage);
      const reads = [];
      for (let i = 0; i < 3; i++) reads.push(await limited.get('/v2/api/tags'));
      expect(reads.map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(['19', '18', '17']);
      const write = await limited.put('/v2/api/conversations/%2B14155550123/action', { action: 'READ' });
      expect([write.headers.get('x-ratelimit-limit'), write.headers.get('x-ratelimit-remaining')]).toEqual(['5', '4']);
      const other = await limited.get('/v2/api/tags', { key: KEYS.directoryRead });
      expect(other.headers.get('x-ratelimit-remaining')).toBe('19');
      const error = await limited.get('/v2/api/threads/cth-none');
      expect(Number(error.headers.get('x-ratelimit-reset'))).toBeGreaterThanOrEqual(0);
      expect(Number.isInteger(Number(error.headers.get('x-ratelimit-reset')))).toBe(true);
    });

    it('uses the contract limits by default: the 21st read and the 6th write in a second are refused', async () => {
      const limited = new Harness({ rateLimit: {}, clock: () => 1_772_442_000_000 }, coverage);
      for (let i = 0; i < 20; i++) expect((await limited.get('/v2/api/tags')).status).toBe(200);
      expect((await limited.get('/v2/api/tags')).code).toBe('RATE_LIMIT_EXCEEDED');
      for (let i = 0; i < 5; i++)
        expect((await limited.put('/v2/api/conversations/%2B14155550123/action', { action: 'READ' })).status).toBe(200);
      expect((await limited.put('/v2/api/conversations/%2B14155550123/action', { action: 'READ' })).code).toBe(
        'RATE_LIMIT_EXCEEDED',
      );
    });
  });
}
