// Dialer queue, summary templates, the AI receptionist and the directory (users, tags, numbers).
import { describe, expect, it } from 'vitest';
import type { Harness } from '../support/harness.js';
import { KEYS } from '../support/harness.js';

const queueOf = (h: Harness, userId: string) =>
  h.sandbox.store.team('team-harbor').dialing_queues.find((q) => q.assignee_id === userId);

export function settingsBehaviours(h: () => Harness) {
  describe('PATCH /v2/api/dialing-queues/current', () => {
    it("updates the key owner's queue, touching only the fields sent", async () => {
      const res = await h().patch('/v2/api/dialing-queues/current', { do_not_disturb: 'DISABLED' });
      expect(res.body.data).toMatchObject({
        id: '6512bd43d9caa6e0',
        name: 'Renewal callbacks',
        assignee_id: 'usr-4TgB81cd',
        voicemail_handling: 'SKIP',
        do_not_disturb: 'DISABLED',
      });
      expect(res.body.data.numbers).toHaveLength(2);
    });

    it('creates the queue of a teammate named by user_id, which wins over email', async () => {
      const res = await h().patch('/v2/api/dialing-queues/current', {
        user_id: 'usr-1Ab2Cd3e',
        email: 'dana.reyes@harbordental.com',
        name: 'Sam calls',
        voicemail_handling: 'NO_SKIP',
      });
      expect(res.body.data).toMatchObject({
        name: 'Sam calls',
        assignee_id: 'usr-1Ab2Cd3e',
        creator_id: 'usr-4TgB81cd',
        voicemail_handling: 'NO_SKIP',
        do_not_disturb: 'DISABLED',
        numbers: [],
      });
      expect(res.body.data.id).toMatch(/^[0-9a-f]{16}$/);
      expect(queueOf(h(), 'usr-4TgB81cd')!.name).toBe('Renewal callbacks');
    });

    it('uses email when user_id is absent', async () => {
      const res = await h().patch('/v2/api/dialing-queues/current', {
        email: 'LEO.PARK@harbordental.com',
        name: 'Leo list',
      });
      expect(res.body.data).toMatchObject({ assignee_id: 'usr-7Kp2Wn5d', name: 'Leo list' });
    });

    it('answers 404 ASSIGNEE_NOT_FOUND for no matching teammate (removed users included)', async () => {
      expect(await h().patch('/v2/api/dialing-queues/current', { user_id: 'usr-0000none' })).toMatchObject({
        status: 404,
        code: 'ASSIGNEE_NOT_FOUND',
        body: { error: { param: 'user_id' } },
      });
      expect(await h().patch('/v2/api/dialing-queues/current', { user_id: 'usr-9Qx3Lm7w' })).toMatchObject({
        code: 'ASSIGNEE_NOT_FOUND',
      });
      expect(await h().patch('/v2/api/dialing-queues/current', { email: 'sam.doe@example.com' })).toMatchObject({
        code: 'ASSIGNEE_NOT_FOUND',
        body: { error: { param: 'email' } },
      });
      expect(await h().patch('/v2/api/dialing-queues/current', { user_id: 'usr-5Rt6Yu7i' })).toMatchObject({
        code: 'ASSIGNEE_NOT_FOUND',
      });
    });

    it('refuses names outside 1..255 and values outside the enums with INVALID_REQUEST', async () => {
      const res = await h().patch('/v2/api/dialing-queues/current', {
        name: '',
        voicemail_handling: 'MAYBE',
        email: 'not-an-email',
      });
      expect(res.body.error.errors.map((e: { field: string }) => e.field)).toEqual([
        'name',
        'voicemail_handling',
        'email',
      ]);
      expect((await h().patch('/v2/api/dialing-queues/current', { name: 'x'.repeat(256) })).code).toBe(
        'INVALID_REQUEST',
      );
      expect((await h().patch('/v2/api/dialing-queues/current', { name: 'x'.repeat(255) })).status).toBe(200);
    });
  });

  describe('DELETE /v2/api/summary_templates/{id}', () => {
    it('soft-deletes an active template (204), then answers 404', async () => {
      const first = await h().delete('/v2/api/summary_templates/9c1f5e7a3b22');
      expect(first.status).toBe(204);
      expect(first.text).toBe('');
      expect(
        h()
          .sandbox.store.team('team-harbor')
          .summary_templates.find((t) => t.id === '9c1f5e7a3b22'),
      ).toMatchObject({ active: false });
      expect(await h().delete('/v2/api/summary_templates/9c1f5e7a3b22')).toMatchObject({
        status: 404,
        code: 'SUMMARY_TEMPLATE_NOT_FOUND',
        body: { error: { param: 'id' } },
      });
      expect((await h().delete('/v2/api/summary_templates/1a2b3c4d5e6f')).code).toBe('SUMMARY_TEMPLATE_NOT_FOUND');
      expect((await h().delete('/v2/api/summary_templates/unknown')).code).toBe('SUMMARY_TEMPLATE_NOT_FOUND');
    });

    it('replays the stored 204 for the same Idempotency-Key', async () => {
      const key = { headers: { 'Idempotency-Key': 'delete-once' } };
      expect((await h().delete('/v2/api/summary_templates/4e8a1b6c2d90', key)).status).toBe(204);
      const again = await h().delete('/v2/api/summary_templates/4e8a1b6c2d90', key);
      expect(again.status).toBe(204);
      expect(again.headers.get('idempotency-replayed')).toBe('true');
    });
  });

  describe('AI receptionist', () => {
    const path = '/v2/api/numbers/%2B14155550100/agent';

    it('returns the seven blocks of a line, and a freeform custom_prompt on an older line', async () => {
      const res = await h().get(path);
      expect(Object.keys(res.body.data)).toEqual([
        'agent',
        'prompt',
        'capabilities',
        'business_hours',
        'transfer_rules',
        'scheduling',
        'knowledge',
      ]);
      expect(res.body.data.prompt.sections.map((s: { section: string }) => s.section)).toEqual([
        'objective',
        'personality',
        'behaviors',
      ]);
      expect(res.body.data.scheduling.calendars[0]).toMatchObject({
        calendar_connection_id: 'exc-7Fc4nL2d',
        owner: { user_id: 'usr-4TgB81cd', is_current_user: true },
      });
      const older = await h().get('/v2/api/numbers/%2B14155550188/agent');
      expect(older.body.data.prompt).toEqual({ custom_prompt: expect.stringContaining('You are Leo') });
      expect(older.body.data.prompt.sections).toBeUndefined();
    });

    it('merges single values (top level or under agent) and keeps the rest', async () => {
      const before = (await h().get(path)).body.data;
      const res = await h().patch(path, {
        greeting_message: 'Hi!',
        agent: { tone_of_voice: 'CALM' },
        knowledge: { text: 'New facts.' },
      });
      expect(res.status).toBe(200);
      expect(res.body.data.agent).toMatchObject({
        ...before.agent,
        greeting_message: 'Hi!',
        tone_of_voice: 'CALM',
        updated_at: expect.any(String),
      });
      expect(res.body.data.knowledge).toEqual({ ...before.knowledge, text: 'New facts.' });
      expect(res.body.data.transfer_rules).toEqual(before.transfer_rules);
      expect(res.body.data.business_hours).toEqual(before.business_hours);
      expect((await h().get(path)).body.data.agent.greeting_message).toBe('Hi!');
    });

    it('replaces collections whole: capabilities, business hours, transfer rules, calendars', async () => {
      const res = await h().patch(path, {
        capabilities: { SCHEDULING: false, CALL_TRANSFER: true, WARM_TRANSFER: true },
        business_hours: {
          timezone: 'America/New_York',
          schedule: [{ day: 'SA', schedule: [{ start_time: 36000, end_time: 43200 }] }],
        },
        transfer_rules: [],
        scheduling: {
          calendars: [{ calendar_connection_id: 'exc-3Pq8rT1v' }, { calendar_connection_id: 'exc-3Pq8rT1v' }],
        },
      });
      expect(res.body.data.capabilities).toEqual({ SCHEDULING: false, CALL_TRANSFER: true, WARM_TRANSFER: true });
      expect(res.body.data.business_hours.schedule).toEqual([
        { day: 'SA', schedule: [{ start_time: 36000, end_time: 43200 }] },
      ]);
      expect(res.body.data.transfer_rules).toEqual([]);
      expect(
        res.body.data.scheduling.calendars.map((c: { calendar_connection_id: string }) => c.calendar_connection_id),
      ).toEqual(['exc-3Pq8rT1v']);
      expect(res.body.data.scheduling.calendars[0].owner.is_current_user).toBe(false);
      expect((await h().patch(path, { scheduling: { calendars: [] } })).body.data.scheduling.calendars).toEqual([]);
    });

    it('refuses read-only and unknown fields with UNKNOWN_FIELD, at any depth', async () => {
      const status = await h().patch(path, { status: 'INACTIVE' });
      expect(status).toMatchObject({ status: 400, code: 'UNKNOWN_FIELD', body: { error: { param: 'status' } } });
      expect(status.body.error.suggestion).toMatch(/read-only/);
      expect((await h().patch(path, { agent: { is_default: false } })).body.error).toMatchObject({
        code: 'UNKNOWN_FIELD',
        param: 'agent.is_default',
      });
      expect((await h().patch(path, { prompt: { sections: [] } })).body.error.suggestion).toMatch(/set-prompt/);
      expect((await h().patch(path, { knowledge: { websites: [] } })).body.error).toMatchObject({
        code: 'UNKNOWN_FIELD',
        param: 'knowledge.websites',
      });
      const two = await h().patch(path, { status: 'x', colour: 'blue' });
      expect(two.body.error.errors).toEqual([
        { field: 'status', code: 'UNKNOWN_FIELD', message: 'status is not a known field' },
        { field: 'colour', code: 'UNKNOWN_FIELD', message: 'colour is not a known field' },
      ]);
    });

    it('refuses bad numbers, conflicting readings and calendars the team has not connected', async () => {
      expect(await h().patch(path, { business_phone: '(415) 555-0123' })).toMatchObject({
        code: 'INVALID_PHONE_FORMAT',
        body: { error: { param: 'business_phone' } },
      });
      expect(await h().get('/v2/api/numbers/4155550100/agent')).toMatchObject({
        status: 400,
        code: 'INVALID_PHONE_FORMAT',
        body: { error: { param: 'number' } },
      });
      const conflict = await h().patch(path, { name: 'A', agent: { name: 'B' } });
      expect(conflict.body.error).toMatchObject({ code: 'INVALID_REQUEST', errors: [{ field: 'agent.name' }] });
      expect((await h().patch(path, { name: 'Same', agent: { name: 'Same' } })).status).toBe(200);
      const calendar = await h().patch(path, {
        scheduling: { calendars: [{ calendar_connection_id: 'exc-0000none' }, {}] },
      });
      expect(calendar.body.error.errors.map((e: { field: string }) => e.field)).toEqual([
        'scheduling.calendars[0].calendar_connection_id',
        'scheduling.calendars[1].calendar_connection_id',
      ]);
      const shapes = await h().patch(path, {
        capabilities: { SCHEDULING: 'yes' },
        business_hours: {
          timezone: 'UTC',
          schedule: [{ day: 'MO', schedule: [{ start_time: 'nine', end_time: 61200 }] }],
        },
      });
      expect(shapes.code).toBe('INVALID_REQUEST');
    });

    it('answers 403 SVC_NUMBER_FORBIDDEN for a line of the team the key may not use, 404 PHONE_NUMBER_NOT_FOUND for any other number', async () => {
      for (const method of ['get', 'patch'] as const) {
        const send = (p: string, key?: string) =>
          method === 'get' ? h().get(p, { key }) : h().patch(p, { name: 'x' }, { key });
        expect(await send('/v2/api/numbers/%2B14155550188/agent', KEYS.mainLineOnly)).toMatchObject({
          status: 403,
          code: 'SVC_NUMBER_FORBIDDEN',
          body: { error: { param: 'number' } },
        });
        const missing = await send('/v2/api/numbers/%2B19995550000/agent');
        expect(missing).toMatchObject({
          status: 404,
          code: 'PHONE_NUMBER_NOT_FOUND',
          body: { error: { param: 'number' } },
        });
        expect(missing.body.error.suggestion).toContain('GET /v2/api/numbers');
      }
      expect((await h().get(path, { key: KEYS.mainLineOnly })).status).toBe(200);
    });

    it('needs AGENTS_WRITE to write', async () => {
      expect((await h().get(path, { key: KEYS.receptionistRead })).status).toBe(200);
      expect((await h().patch(path, { name: 'x' }, { key: KEYS.receptionistRead })).body.error.message).toContain(
        'AGENTS_WRITE',
      );
    });
  });

  describe('directory', () => {
    it('lists current members (not removed ones) and gets one', async () => {
      const users = await h().get('/v2/api/users');
      expect(users.body.data.map((u: { id: string }) => u.id)).toEqual([
        'usr-4TgB81cd',
        'usr-1Ab2Cd3e',
        'usr-7Kp2Wn5d',
      ]);
      expect(users.body.pagination).toMatchObject({ total_count: 3, has_more: false });
      expect((await h().get('/v2/api/users/usr-1Ab2Cd3e')).body.data).toEqual({
        id: 'usr-1Ab2Cd3e',
        name: 'Sam Ortiz',
        email: 'sam.ortiz@harbordental.com',
        role: 'MEMBER',
      });
      for (const id of ['usr-9Qx3Lm7w', 'usr-0000none', 'cll-1']) {
        expect(await h().get(`/v2/api/users/${id}`)).toMatchObject({ status: 404, code: 'MEMBER_NOT_FOUND' });
      }
    });

    it('lists tags and the lines the key may use', async () => {
      expect((await h().get('/v2/api/tags')).body.data).toEqual([
        { name: 'VIP' },
        { name: 'Follow-up' },
        { name: 'Billing' },
        { name: 'Emergency' },
        { name: 'Call back' },
      ]);
      expect((await h().get('/v2/api/numbers')).body.data.map((l: { number: string }) => l.number)).toEqual([
        '+14155550100',
        '+14155550188',
        '+442071838700',
      ]);
      expect((await h().get('/v2/api/numbers', { key: KEYS.mainLineOnly })).body.data).toEqual([
        { number: '+14155550100', name: 'Main line', capabilities: { voice: true, sms: true } },
      ]);
      expect((await h().get('/v2/api/numbers', { key: KEYS.directoryRead })).status).toBe(200);
    });
  });
}
