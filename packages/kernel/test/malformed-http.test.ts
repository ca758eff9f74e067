// A parsed HTTP/1.1 request without exactly one Host header (RFC 9112 3.2) gets the documented
// 400 body, as malformed HTTP does, instead of Node's bare 400 (none) or an answer (two).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledContract, createKernel, type Listening, listen } from '../src/index.js';
import { hostProblem } from '../src/malformed-http.js';
import { rawExchange, splitAnswer } from './support/raw-http.js';

const contract = bundledContract();
let server: Listening;

beforeAll(async () => {
  const kernel = createKernel({ contract, findKey: () => undefined, answer: () => ({ status: 200, body: {} }) });
  server = await listen(kernel.fetch, contract, 0, '127.0.0.1', kernel.serveNode);
});
afterAll(() => server.close());

async function exchange(raw: string): Promise<{ status: string; headers: string[]; body: string }> {
  return splitAnswer(await rawExchange(server.port, raw));
}

describe('the Host header', () => {
  it.each([
    [
      'no Host header',
      'GET /v2/api/tags HTTP/1.1\r\n\r\n',
      'The request has no Host header: HTTP/1.1 requires exactly one.',
    ],
    [
      'two Host headers',
      'GET /v2/api/tags HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n',
      'The request has more than one Host header: HTTP/1.1 requires exactly one.',
    ],
    [
      'two Host headers, on a path outside the API',
      'GET /elsewhere HTTP/1.1\r\nHost: a\r\nhost: a\r\n\r\n',
      'The request has more than one Host header: HTTP/1.1 requires exactly one.',
    ],
  ])('%s: the documented 400', async (_, raw, message) => {
    const answer = await exchange(raw);
    expect(answer.status).toBe('HTTP/1.1 400 Bad Request');
    expect(answer.headers).toContain('Connection: close');
    expect(answer.headers).toContain('Content-Type: application/json');
    const { error } = JSON.parse(answer.body);
    expect(error).toMatchObject({ type: 'validation_error', code: 'INVALID_REQUEST_BODY', message, retryable: false });
    expect(answer.headers).toContain(`X-Request-Id: ${error.request_id}`);
    expect(answer.headers).toContain('X-RateLimit-Limit: 20');
  });

  it('one Host header, or none in HTTP/1.0, is served as usual', async () => {
    expect((await exchange('GET /v2/api/tags HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n')).status).toBe(
      'HTTP/1.1 401 Unauthorized',
    );
    expect((await exchange('GET /v2/api/tags HTTP/1.0\r\n\r\n')).status).toBe('HTTP/1.1 401 Unauthorized');
    expect(hostProblem({ httpVersion: '1.1', rawHeaders: ['HOST', 'a'] })).toBeUndefined();
  });
});
