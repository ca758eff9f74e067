import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSvcClient, SvcApiError } from '../src/index.js';
import { errorBody, type FaultServer, startFaultServer } from './support/fault-server.js';

const apiKey = 'sk_test_pages_0123456789';
let server: FaultServer;

beforeAll(async () => {
  server = await startFaultServer({ apiKey, conversations: 53, customFields: 7 });
});
afterAll(() => server.close());

const client = () => createSvcClient({ baseUrl: server.url, apiKey, rateLimit: false, retryBaseDelayMs: 1 });
const pageRequests = (since: number) =>
  server.requests.slice(since).map((request) => new URL(request.path, 'http://x').searchParams.get('page'));

describe('pagination', () => {
  it('visits every conversation exactly once, following has_more', async () => {
    const before = server.requests.length;
    const numbers: string[] = [];
    for await (const conversation of client().paginate('/v2/api/conversations', { params: { query: { size: 10 } } })) {
      numbers.push(conversation.contact_number);
    }
    expect(numbers).toHaveLength(53);
    expect(new Set(numbers).size).toBe(53);
    expect(numbers).toEqual(Array.from({ length: 53 }, (_, index) => `+1415555${String(index).padStart(4, '0')}`));
    // The first request is the caller's own; then page 2, 3, … until has_more is false.
    expect(pageRequests(before)).toEqual([null, '2', '3', '4', '5', '6']);
  });

  it('walks any list operation: the custom fields', async () => {
    const keys: string[] = [];
    for await (const field of client().paginate('/v2/api/crm/attributes', { params: { query: { size: 3 } } }))
      keys.push(field.key);
    expect(keys).toEqual(['field_0', 'field_1', 'field_2', 'field_3', 'field_4', 'field_5', 'field_6']);
  });

  it('stops at maxItems without fetching another page', async () => {
    const before = server.requests.length;
    const items: unknown[] = [];
    for await (const item of client().paginate('/v2/api/conversations', {
      params: { query: { size: 10 } },
      maxItems: 25,
    }))
      items.push(item);
    expect(items).toHaveLength(25);
    expect(pageRequests(before)).toEqual([null, '2', '3']);
  });

  it('yields pages with their request ids, from the caller’s start page, up to maxPages', async () => {
    const pages = [];
    for await (const page of client().pages('/v2/api/conversations', {
      params: { query: { size: 20, page: 2 } },
      maxPages: 5,
    })) {
      pages.push(page);
    }
    expect(pages.map((page) => page.data.pagination.page)).toEqual([2, 3]);
    expect(pages.map((page) => page.data.data.length)).toEqual([20, 13]);
    for (const page of pages) expect(page.requestId).toMatch(/^req_/);
  });

  it('throws SvcApiError when a page fails', async () => {
    const svc = createSvcClient({ baseUrl: server.url, apiKey, rateLimit: false, maxRetries: 0 });
    const invalid = errorBody(400, 'validation_error', 'INVALID_PAGE_SIZE', 'size must be 1 to 100.', {
      param: 'size',
    });
    server.inject('GET', '/v2/api/conversations', { kind: 'respond', ...invalid });
    const seen: unknown[] = [];
    const walk = async () => {
      for await (const item of svc.paginate('/v2/api/conversations')) seen.push(item);
    };
    await expect(walk()).rejects.toSatisfy(
      (error) => error instanceof SvcApiError && error.code === 'INVALID_PAGE_SIZE' && error.param === 'size',
    );
    expect(seen).toHaveLength(0);
  });
});
