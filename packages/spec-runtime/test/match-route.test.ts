import { describe, expect, it } from 'vitest';
import { contract } from './support/contract.js';

function match(method: string, path: string) {
  const result = contract().matchRoute(method, path);
  return 'operation' in result ? { id: result.operation.operationId, params: result.params } : result;
}

describe('matchRoute', () => {
  it('prefers literal segments over parameters', () => {
    expect(match('POST', '/v2/api/conversations/items/batch')).toEqual({ id: 'batchGetConversationItems', params: {} });
    expect(match('POST', '/v2/api/conversations/items/search')).toEqual({ id: 'searchConversationItems', params: {} });
    expect(match('GET', '/v2/api/conversations/notes/not-1')).toEqual({
      id: 'getConversationNote',
      params: { id: 'not-1' },
    });
    expect(match('GET', '/v2/api/conversations/%2B14155550123/notes')).toMatchObject({ id: 'listConversationNotes' });
  });

  it('URL-decodes path parameters (%2B becomes +, + stays +)', () => {
    expect(match('PUT', '/v2/api/conversations/%2B14155550123/action')).toEqual({
      id: 'applyConversationAction',
      params: { contact_number: '+14155550123' },
    });
    expect(match('PUT', '/v2/api/conversations/+14155550123/action')).toMatchObject({
      params: { contact_number: '+14155550123' },
    });
    expect(match('DELETE', '/v2/api/conversations/items/cll-1/tags/Follow%20up')).toMatchObject({
      params: { id: 'cll-1', tag: 'Follow up' },
    });
  });

  it('answers 404 ENDPOINT_NOT_FOUND for an unknown path', () => {
    for (const path of [
      '/',
      '/v2/api',
      '/v2/api/nope',
      '/v2/api/threads/',
      '/v1/api/threads',
      '/v2/api//threads',
      '/__sandbox/reset',
    ]) {
      expect(match('GET', path)).toEqual({ error: 'ENDPOINT_NOT_FOUND' });
    }
  });

  it('answers 405 METHOD_NOT_ALLOWED for a known path with an undocumented method', () => {
    expect(match('DELETE', '/v2/api/threads')).toEqual({ error: 'METHOD_NOT_ALLOWED', allowed: ['GET', 'POST'] });
    expect(match('GET', '/v2/api/conversations/items/batch')).toMatchObject({ error: 'METHOD_NOT_ALLOWED' });
    expect(match('get', '/v2/api/threads/cth-1')).toMatchObject({ id: 'getThread' });
  });

  it('treats an undecodable parameter as an unknown endpoint instead of throwing', () => {
    expect(match('GET', '/v2/api/threads/%E0%A4%A')).toEqual({ error: 'ENDPOINT_NOT_FOUND' });
  });
});
