// A finished exchange of GET /v2/api/tags built by hand, for the tests of the per-exchange checks:
// the status, headers and body a server might answer, and anything else the case needs.
import type { Exchange } from '../../src/http/exchange.js';
import { loadSpec } from '../../src/spec.js';

const listTags = loadSpec().contract.operationsById.get('listTags');

export function tagsExchange(
  status: number,
  headers: Record<string, string>,
  body: unknown,
  extra: Partial<Exchange> = {},
): Exchange {
  return {
    seq: 1,
    request: { method: 'GET', path: '/v2/api/tags' },
    url: 'http://h/v2/api/tags',
    operation: listTags ?? null,
    status,
    headers: new Headers(headers),
    text: body === undefined ? '' : JSON.stringify(body),
    body,
    durationMs: 1,
    ...extra,
  } as Exchange;
}
