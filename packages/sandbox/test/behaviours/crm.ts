// Custom fields (every option rule), deals, people.
import { describe, expect, it } from 'vitest';
import type { Harness } from '../support/harness.js';
import { KEYS } from '../support/harness.js';

export function crmBehaviours(h: () => Harness) {
  describe('custom fields', () => {
    const patch = (key: string, body: unknown, options = {}) =>
      h().patch(`/v2/api/crm/attributes/${key}`, body, options);

    it('lists custom fields (no built-in, no deleted ones) with paging', async () => {
      const res = await h().get('/v2/api/crm/attributes');
      expect(res.body.data.map((f: { key: string }) => f.key)).toEqual([
        'contract_tier',
        'renewal_date',
        'seats',
        'account_notes',
        'is_partner',
        'industry_segment',
      ]);
      expect(res.body.data[0]).toMatchObject({
        key: 'contract_tier',
        label: 'Contract tier',
        type: 'DROPDOWN',
        options: expect.any(Array),
        source: 'SVC',
      });
      const page = await h().get('/v2/api/crm/attributes?page=2&size=4');
      expect(page.body.pagination).toEqual({ page: 2, size: 4, total_count: 6, total_pages: 2, has_more: false });
      expect(page.body.data).toHaveLength(2);
      expect((await h().get('/v2/api/crm/attributes?size=101')).code).toBe('INVALID_PAGE_SIZE');
      const both = await h().get('/v2/api/crm/attributes?page=0&size=0');
      expect(both.body.error.errors.map((e: { field: string; code: string }) => `${e.field}:${e.code}`)).toEqual([
        'page:INVALID_PAGE_SIZE',
        'size:INVALID_PAGE_SIZE',
      ]);
    });

    it('answers 404 TEAM_NOT_FOUND on a workspace not on the new contact model', async () => {
      expect(await h().get('/v2/api/crm/attributes', { key: KEYS.legacy })).toMatchObject({
        status: 404,
        code: 'TEAM_NOT_FOUND',
      });
      expect(await patch('seats', { label: 'x' }, { key: KEYS.legacy })).toMatchObject({
        status: 404,
        code: 'TEAM_NOT_FOUND',
      });
    });

    it('updates only the fields sent; a blank description clears it', async () => {
      const renamed = await patch('seats', { label: 'Seat count' });
      expect(renamed.body.data).toEqual({
        key: 'seats',
        label: 'Seat count',
        type: 'NUMBER',
        source: 'SVC',
        description: 'Licensed seats.',
      });
      const described = await patch('seats', { description: 'Seats on the contract.' });
      expect(described.body.data).toMatchObject({ label: 'Seat count', description: 'Seats on the contract.' });
      const cleared = await patch('seats', { description: '  ' });
      expect(cleared.body.data.description).toBeUndefined();
      expect((await patch('seats', { key: 'seats', type: 'NUMBER' })).status).toBe(200);
    });

    it('applies the option rules: rename by key, derive keys of new options, remove missing ones', async () => {
      const res = await patch('contract_tier', {
        options: [
          { key: 'starter', label: 'Starter' },
          { key: 'enterprise', label: 'Enterprise Plus' },
          { label: 'Government' },
          { label: 'Café Société' },
          { key: 'no-such-key', label: 'Starter Plus' },
          { label: 'Government (EU)' },
        ],
      });
      expect(res.body.data.options).toEqual([
        { key: 'starter', label: 'Starter' },
        { key: 'enterprise', label: 'Enterprise Plus' },
        { key: 'government', label: 'Government' },
        { key: 'cafe_societe', label: 'Café Société' },
        { key: 'starter_plus', label: 'Starter Plus' },
        { key: 'government_eu', label: 'Government (EU)' },
      ]);
      // A derived key never collides with a kept one.
      const collide = await patch('contract_tier', {
        options: [{ key: 'starter', label: 'Basic' }, { label: 'Starter' }],
      });
      expect(collide.body.data.options).toEqual([
        { key: 'starter', label: 'Basic' },
        { key: 'starter_2', label: 'Starter' },
      ]);
      const symbols = await patch('contract_tier', { options: [{ label: '★★★' }, { label: '日本' }] });
      expect(symbols.body.data.options).toEqual([
        { key: 'option', label: '★★★' },
        { key: 'option_2', label: '日本' },
      ]);
    });

    it('refuses duplicate, blank or long option labels with ATTRIBUTE_OPTION_INVALID', async () => {
      const duplicate = await patch('contract_tier', { options: [{ label: 'Gold' }, { label: ' gold ' }] });
      expect(duplicate).toMatchObject({
        status: 400,
        code: 'ATTRIBUTE_OPTION_INVALID',
        body: { error: { param: 'options' } },
      });
      expect((await patch('contract_tier', { options: [{ label: '  ' }] })).body.error).toMatchObject({
        code: 'ATTRIBUTE_OPTION_INVALID',
        param: 'options[0].label',
      });
      expect((await patch('contract_tier', { options: [{ label: 'x'.repeat(256) }] })).code).toBe(
        'ATTRIBUTE_OPTION_INVALID',
      );
      expect(
        (
          await patch('contract_tier', {
            options: [
              { key: 'starter', label: 'A' },
              { key: 'starter', label: 'B' },
            ],
          })
        ).code,
      ).toBe('ATTRIBUTE_OPTION_INVALID');
      expect((await patch('contract_tier', { options: [{ label: 'x'.repeat(255) }] })).status).toBe(200);
    });

    it('refuses bad labels with ATTRIBUTE_LABEL_INVALID', async () => {
      for (const label of ['', '   ', '---', 'x'.repeat(256)]) {
        expect(await patch('seats', { label })).toMatchObject({
          status: 400,
          code: 'ATTRIBUTE_LABEL_INVALID',
          body: { error: { param: 'label' } },
        });
      }
      expect((await patch('seats', { label: 'Sièges 2' })).status).toBe(200);
      const several = await patch('contract_tier', { label: '---', options: [{ label: 'ok' }, { label: '' }] });
      expect(several.body.error.errors.map((e: { field: string; code: string }) => `${e.field}:${e.code}`)).toEqual([
        'label:ATTRIBUTE_LABEL_INVALID',
        'options[1].label:ATTRIBUTE_OPTION_INVALID',
      ]);
    });

    it('refuses options on a non-DROPDOWN field, built-in keys, unknown and deleted fields, integration fields', async () => {
      expect(await patch('renewal_date', { options: [{ label: 'Q1' }] })).toMatchObject({
        status: 400,
        code: 'ATTRIBUTE_OPTIONS_NOT_SUPPORTED',
        body: { error: { param: 'options' } },
      });
      expect(await patch('company', { label: 'Employer' })).toMatchObject({
        status: 400,
        code: 'ATTRIBUTE_BUILT_IN',
        body: { error: { param: 'key' } },
      });
      expect(await patch('contract_level', { label: 'x' })).toMatchObject({ status: 404, code: 'ATTRIBUTE_NOT_FOUND' });
      expect(await patch('legacy_code', { label: 'x' })).toMatchObject({ status: 404, code: 'ATTRIBUTE_NOT_FOUND' });
      const managed = await patch('industry_segment', { label: 'Segment' });
      expect(managed).toMatchObject({
        status: 409,
        code: 'ATTRIBUTE_MANAGED_BY_INTEGRATION',
        body: { error: { param: 'key' } },
      });
    });

    it('refuses changing key or type and unknown fields, never ignoring them', async () => {
      const res = await patch('seats', { type: 'TEXT', lable: 'typo' });
      expect(res.body.error).toMatchObject({
        code: 'INVALID_REQUEST',
        errors: [
          { field: 'type', code: 'INVALID_REQUEST' },
          { field: 'lable', code: 'UNKNOWN_FIELD' },
        ],
      });
      expect((await patch('seats', { description: 42 })).code).toBe('INVALID_REQUEST');
    });

    it('needs CRM_WRITE to update', async () => {
      const res = await patch('seats', { label: 'x' }, { key: KEYS.crmRead });
      expect(res.body.error.message).toContain('CRM_WRITE');
    });
  });

  describe('deals', () => {
    it('returns a deal under both namings of the description', async () => {
      const res = await h().get('/v2/api/crm/deals/dea-5Ys3bM8k');
      expect(res.body.data).toEqual({
        id: 'dea-5Ys3bM8k',
        name: 'Northwind annual renewal',
        status: 'NEGOTIATION',
        amount: 12500,
        value: 12500,
        currency: 'USD',
        closed_at: null,
        close_date: null,
        person: { id: 'per-6Kx2hD9m', name: 'Maria', last_name: 'Lopez' },
        company: { id: 'com-1Pz7gR4u', name: 'Northwind Logistics' },
        created_at: '2026-02-10T14:05:00Z',
        updated_at: '2026-03-02T09:30:00Z',
      });
      expect((await h().get('/v2/api/crm/deals/dea-2Wq8Er4t')).body.data).toMatchObject({
        person: null,
        closed_at: '2026-02-20T16:00:00Z',
      });
    });

    it('answers an unknown deal with the API-wide 404 (the operation documents no 404 of its own)', async () => {
      expect(await h().get('/v2/api/crm/deals/dea-0000none')).toMatchObject({
        status: 404,
        code: 'ENDPOINT_NOT_FOUND',
      });
      expect(await h().get('/v2/api/crm/deals/not-a-deal')).toMatchObject({ status: 404, code: 'ENDPOINT_NOT_FOUND' });
    });
  });

  describe('people', () => {
    it('searches people by name, email, number or company, paged', async () => {
      const names = async (body: object) =>
        (await h().post('/v2/api/crm/people/search', body)).body.data.map((p: { name: string }) => p.name);
      expect(await names({ query: 'maria' })).toEqual(['Maria']);
      expect(await names({ query: 'bayview' })).toEqual(['Chen']);
      expect(await names({ query: '+44 20' })).toEqual([]);
      expect(await names({ query: '442071838750' })).toEqual(['Oliver']);
      expect(await names({})).toEqual(['Maria', 'Oliver', 'Chen']);
      const paged = await h().post('/v2/api/crm/people/search', { size: 2, page: 2 });
      expect(paged.body.pagination).toEqual({ page: 2, size: 2, total_count: 3, total_pages: 2, has_more: false });
      expect((await h().post('/v2/api/crm/people/search', { query: 'maria' }, { key: KEYS.crmRead })).status).toBe(200);
    });

    it('refuses bad search bodies with INVALID_REQUEST and field codes', async () => {
      const res = await h().post('/v2/api/crm/people/search', { query: '!!!', size: 0, filter: 'x' });
      expect(res.body.error.errors.map((e: { field: string; code: string }) => `${e.field}:${e.code}`)).toEqual([
        'filter:UNKNOWN_FIELD',
        'query:INVALID_SEARCH_QUERY',
        'size:INVALID_PAGE_SIZE',
      ]);
      expect((await h().post('/v2/api/crm/people/search', { query: 7 })).code).toBe('INVALID_REQUEST');
    });

    it('updates a person by merging the fields sent', async () => {
      const res = await h().put('/v2/api/crm/people/per-6Kx2hD9m', {
        last_name: 'Lopez-Ortiz',
        phone_numbers: ['+14155550123', '+14155550124'],
        custom_fields: { seats: 45, contract_tier: null },
      });
      expect(res.body.data).toMatchObject({
        id: 'per-6Kx2hD9m',
        name: 'Maria',
        last_name: 'Lopez-Ortiz',
        phone_numbers: ['+14155550123', '+14155550124'],
        custom_fields: { seats: 45 },
      });
      expect(res.body.data.custom_fields.contract_tier).toBeUndefined();
    });

    it('answers 404 PERSON_NOT_FOUND and validates the fields', async () => {
      expect(await h().put('/v2/api/crm/people/per-0000none', { name: 'x' })).toMatchObject({
        status: 404,
        code: 'PERSON_NOT_FOUND',
      });
      expect(await h().put('/v2/api/crm/people/com-1Pz7gR4u', { name: 'x' })).toMatchObject({
        status: 404,
        code: 'PERSON_NOT_FOUND',
      });
      const bad = await h().put('/v2/api/crm/people/per-6Kx2hD9m', {
        name: 5,
        phone_numbers: ['555-0123'],
        custom_fields: { nope: 1 },
        nickname: 'M',
      });
      expect(bad.body.error.errors.map((e: { field: string; code: string }) => `${e.field}:${e.code}`)).toEqual([
        'name:INVALID_REQUEST',
        'phone_numbers[0]:INVALID_PHONE_FORMAT',
        'custom_fields.nope:INVALID_REQUEST',
        'nickname:UNKNOWN_FIELD',
      ]);
    });
  });
}
