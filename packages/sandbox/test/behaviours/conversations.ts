// The conversation list (paging, line filter, search) and conversation actions.
import { describe, expect, it } from 'vitest';
import type { Harness } from '../support/harness.js';
import { KEYS } from '../support/harness.js';

const conversation = (h: Harness, contact: string, line: string) =>
  h.sandbox.store.team('team-harbor').conversations.find((c) => c.contact_number === contact && c.svc_number === line)!;

export function conversationBehaviours(h: () => Harness) {
  describe('GET /v2/api/conversations', () => {
    it('lists one entry per external number, latest first, with contacts and the last item', async () => {
      const res = await h().get('/v2/api/conversations');
      expect(res.body.pagination).toEqual({ page: 1, size: 20, total_count: 4, total_pages: 1, has_more: false });
      expect(res.body.data.map((e: { contact_number: string }) => e.contact_number)).toEqual([
        '+14155550142',
        '+16505550111',
        '+14155550123',
        '+442071838750',
      ]);
      const maria = res.body.data[2];
      expect(maria.contacts).toEqual([
        { id: 'cnt-3Nb6tY1q', name: 'Maria Lopez', company: { name: 'Northwind Logistics' } },
      ]);
      expect(maria.last_item).toMatchObject({ id: 'msg-2Rf8nQ5v', type: 'TEXT_MESSAGE', direction: 'OUTBOUND' });
    });

    it('pages with page and size', async () => {
      const second = await h().get('/v2/api/conversations?page=2&size=3');
      expect(second.body.pagination).toEqual({ page: 2, size: 3, total_count: 4, total_pages: 2, has_more: false });
      expect(second.body.data).toHaveLength(1);
      const first = await h().get('/v2/api/conversations?page=1&size=3');
      expect(first.body.pagination.has_more).toBe(true);
      const beyond = await h().get('/v2/api/conversations?page=9');
      expect(beyond.body.data).toEqual([]);
    });

    it('filters by line and refuses a line the key may not use', async () => {
      const london = await h().get('/v2/api/conversations?svc_number=%2B442071838700');
      expect(london.body.data.map((e: { contact_number: string }) => e.contact_number)).toEqual(['+442071838750']);
      const forbidden = await h().get('/v2/api/conversations?svc_number=%2B442071838700', { key: KEYS.mainLineOnly });
      expect(forbidden).toMatchObject({ status: 403, code: 'SVC_NUMBER_FORBIDDEN' });
      expect(forbidden.body.error).toMatchObject({
        param: 'svc_number',
        suggestion: expect.stringContaining('GET /v2/api/numbers'),
      });
      expect((await h().get('/v2/api/conversations?svc_number=%2B19995550000')).code).toBe('SVC_NUMBER_FORBIDDEN');
      const limited = await h().get('/v2/api/conversations', { key: KEYS.mainLineOnly });
      expect(limited.body.data.map((e: { contact_number: string }) => e.contact_number)).toEqual([
        '+16505550111',
        '+14155550123',
      ]);
    });

    it('searches with special characters stripped, words AND-ed and prefix-matched', async () => {
      const search = async (q: string) =>
        (await h().get(`/v2/api/conversations?search=${encodeURIComponent(q)}`)).body.data.map(
          (e: { contact_number: string }) => e.contact_number,
        );
      expect(await search('north logist')).toEqual(['+14155550123']);
      expect(await search('NORTH!!! (logist)')).toEqual(['+14155550123']);
      expect(await search('north plumb')).toEqual([]);
      expect(await search('burst')).toEqual(['+16505550111']);
      expect(await search('grant & hale')).toEqual(['+442071838750']);
    });

    it('refuses paging, line and search values the contract rejects', async () => {
      for (const query of ['size=0', 'size=101', 'size=ten', 'page=0', 'page=-1']) {
        const res = await h().get(`/v2/api/conversations?${query}`);
        expect(res).toMatchObject({ status: 400, code: 'INVALID_PAGE_SIZE' });
        expect(res.body.error.param).toBe(query.split('=')[0]);
      }
      const phone = await h().get('/v2/api/conversations?svc_number=4155550188');
      expect(phone).toMatchObject({ code: 'INVALID_PHONE_FORMAT', body: { error: { param: 'svc_number' } } });
      const search = await h().get('/v2/api/conversations?search=%23%21%3F');
      expect(search).toMatchObject({ code: 'INVALID_SEARCH_QUERY', body: { error: { param: 'search' } } });
      const several = await h().get('/v2/api/conversations?size=250&svc_number=415-555-0188');
      expect(several.code).toBe('INVALID_REQUEST');
      expect(several.body.error.message).toBe('Request validation failed');
      expect(several.body.error.errors).toEqual([
        { field: 'size', code: 'INVALID_PAGE_SIZE', message: 'size must be <= 100; got 250' },
        { field: 'svc_number', code: 'INVALID_PHONE_FORMAT', message: expect.stringContaining('415-555-0188') },
      ]);
    });
  });

  describe('PUT /v2/api/conversations/{contact_number}/action', () => {
    const path = '/v2/api/conversations/%2B14155550123/action';

    it('marks read and unread, idempotently, on every line by default', async () => {
      for (const action of ['UNREAD', 'UNREAD', 'READ', 'READ']) {
        const res = await h().put(path, { action });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({});
        const read = action === 'READ';
        expect(conversation(h(), '+14155550123', '+14155550100').read).toBe(read);
        expect(conversation(h(), '+14155550123', '+14155550188').read).toBe(read);
      }
    });

    it('limits the action to svc_number when given', async () => {
      await h().put(path, { action: 'UNREAD', svc_number: '+14155550188' });
      expect(conversation(h(), '+14155550123', '+14155550188').read).toBe(false);
      expect(conversation(h(), '+14155550123', '+14155550100').read).toBe(false);
      await h().put(path, { action: 'READ', svc_number: '+14155550100' });
      expect(conversation(h(), '+14155550123', '+14155550100').read).toBe(true);
      expect(conversation(h(), '+14155550123', '+14155550188').read).toBe(false);
    });

    it('ARCHIVE archives and marks every item of the conversation read', async () => {
      const team = h().sandbox.store.team('team-harbor');
      expect(team.calls.find((c) => c.id === 'cll-9Jd3kW2p')!.read).toBe(false);
      await h().put(path, { action: 'ARCHIVE' });
      expect(conversation(h(), '+14155550123', '+14155550100')).toMatchObject({ archived: true, read: true });
      const items = [...team.calls, ...team.messages].filter((i) => i.contact_number === '+14155550123');
      expect(items.length).toBeGreaterThan(2);
      expect(items.every((i) => i.read)).toBe(true);
      const listed = await h().get('/v2/api/conversations?search=northwind');
      expect(listed.body.data[0]).toMatchObject({ archived: true, read: true });
    });

    it('UNARCHIVE moves only an archived conversation; elsewhere it is a no-op 200', async () => {
      const before = h().sandbox.store.snapshot();
      expect((await h().put(path, { action: 'UNARCHIVE' })).status).toBe(200);
      expect(h().sandbox.store.snapshot()).toBe(before);
      expect(conversation(h(), '+442071838750', '+442071838700').archived).toBe(true);
      expect((await h().put('/v2/api/conversations/%2B442071838750/action', { action: 'UNARCHIVE' })).status).toBe(200);
      expect(conversation(h(), '+442071838750', '+442071838700').archived).toBe(false);
    });

    it('answers 200 and changes nothing for a number without a conversation', async () => {
      const before = h().sandbox.store.snapshot();
      expect((await h().put('/v2/api/conversations/%2B19995550000/action', { action: 'ARCHIVE' })).status).toBe(200);
      expect(h().sandbox.store.snapshot()).toBe(before);
    });

    it('accepts CONVERSATIONS_READ alone (the contract lists both scopes as alternatives)', async () => {
      expect((await h().put(path, { action: 'READ' }, { key: KEYS.conversationsRead })).status).toBe(200);
    });

    it('refuses a line the key may not use, and touches only its lines without svc_number', async () => {
      const forbidden = await h().put(
        path,
        { action: 'ARCHIVE', svc_number: '+14155550188' },
        { key: KEYS.mainLineOnly },
      );
      expect(forbidden).toMatchObject({
        status: 403,
        code: 'SVC_NUMBER_FORBIDDEN',
        body: { error: { param: 'svc_number' } },
      });
      await h().put(path, { action: 'ARCHIVE' }, { key: KEYS.mainLineOnly });
      expect(conversation(h(), '+14155550123', '+14155550100').archived).toBe(true);
      expect(conversation(h(), '+14155550123', '+14155550188').archived).toBe(false);
    });

    it('validates the action, the numbers and the body', async () => {
      const action = await h().put(path, { action: 'DELETE' });
      expect(action).toMatchObject({ status: 400, code: 'INVALID_ACTION', body: { error: { param: 'action' } } });
      expect(action.body.error.message).toContain('DELETE');
      expect((await h().put(path, { action: 'read' })).code).toBe('INVALID_ACTION');
      const contact = await h().put('/v2/api/conversations/415-555-0123/action', { action: 'READ' });
      expect(contact).toMatchObject({ code: 'INVALID_PHONE_FORMAT', body: { error: { param: 'contact_number' } } });
      expect((await h().put('/v2/api/conversations/14155550123/action', { action: 'READ' })).code).toBe(
        'INVALID_PHONE_FORMAT',
      );
      expect((await h().put(path, { action: 'READ', svc_number: '+1 415 555 0100' })).code).toBe(
        'INVALID_PHONE_FORMAT',
      );
      const several = await h().put(path, { svc_number: 'nope' });
      expect(several.body.error).toMatchObject({
        code: 'INVALID_REQUEST',
        errors: [
          { field: 'action', code: 'INVALID_REQUEST', message: 'action is required' },
          { field: 'svc_number', code: 'INVALID_PHONE_FORMAT', message: expect.any(String) },
        ],
      });
    });
  });
}
