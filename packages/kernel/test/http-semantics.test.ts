// HTTP semantics every API path follows, over node:http both ways a request can take (a kernel's
// serveNode, and fetch alone): HEAD is GET without the body (RFC 9110 9.3.2), and a method the
// path does not serve gets the documented 405 with Allow listing what it serves, HEAD included.
import { createRequire } from 'node:module';
import { loadContract } from '@svc/spec-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type Listening, listen } from '../src/index.js';
import { rawExchange, splitAnswer } from './support/raw-http.js';

const require = createRequire(import.meta.url);
const contract = loadContract(require('@svc/openapi/openapi.json'));
const servers: Record<string, Listening> = {};

function kernel() {
  return createKernel({
    contract,
    rateLimit: 'off',
    findKey: (token) => (token === 'good' ? { key: token, scopes: Object.keys(contract.scopes) } : undefined),
    answer: ({ pathname }) =>
      pathname.endsWith('cth-missing')
        ? { error: 'THREAD_NOT_FOUND', message: 'No thread cth-missing.' }
        : { status: 200, body: { data: { path: pathname } } },
  });
}

beforeAll(async () => {
  const direct = kernel();
  servers.serveNode = await listen(direct.fetch, contract, 0, '127.0.0.1', direct.serveNode);
  servers.fetch = await listen(kernel().fetch, contract, 0, '127.0.0.1');
});
afterAll(() => Promise.all(Object.values(servers).map((server) => server.close())));

interface Raw {
  status: string;
  headers: string[];
  body: string;
}

/** Sends one request on a fresh connection; the answer's status line, sorted headers (Date cut) and body. */
async function exchange(server: Listening, method: string, path: string, auth = true): Promise<Raw> {
  const head = [`${method} ${path} HTTP/1.1`, 'Host: x', 'Connection: close', 'X-Request-Id: req_fixedfixed01'];
  if (auth) head.push('Authorization: Api-Key good');
  const { status, headers, body } = splitAnswer(await rawExchange(server.port, `${head.join('\r\n')}\r\n\r\n`));
  return { status, headers: headers.filter((h) => !h.startsWith('Date:')).sort(), body };
}

describe.each(['serveNode', 'fetch'])('over node:http by %s', (way) => {
  const send = (method: string, path: string, auth = true) => exchange(servers[way]!, method, path, auth);

  it.each([
    ['a success', '/v2/api/threads/cth-1', true],
    ['an error the answer chose', '/v2/api/threads/cth-missing', true],
    ['a refusal of the kernel (no key)', '/v2/api/threads/cth-1', false],
    ['a validation error', '/v2/api/conversations?size=0', true],
    ['an unknown path', '/v2/api/nowhere', true],
    ['an unknown path, no key', '/nowhere/at/all', false],
    ['a path without GET (405)', '/v2/api/conversations/%2B14155550123/action', true],
  ])('HEAD answers exactly the status and headers of GET, without a body: %s', async (_, path, auth) => {
    const get = await send('GET', path, auth);
    const head = await send('HEAD', path, auth);
    expect(get.body.length).toBeGreaterThan(0);
    expect(get.headers).toContain(`Content-Length: ${Buffer.byteLength(get.body, 'latin1')}`);
    expect(head).toEqual({ status: get.status, headers: get.headers, body: '' });
  });

  it('OPTIONS gets the documented 405 with Allow listing GET, HEAD and the other methods of the path', async () => {
    const answer = await send('OPTIONS', '/v2/api/threads');
    expect(answer.status).toBe('HTTP/1.1 405 Method Not Allowed');
    expect(answer.headers).toContain('Allow: GET, POST, HEAD');
    expect(JSON.parse(answer.body).error).toMatchObject({
      type: 'validation_error',
      code: 'METHOD_NOT_ALLOWED',
      request_id: 'req_fixedfixed01',
      message: 'OPTIONS is not supported on /v2/api/threads; allowed: GET, POST, HEAD.',
    });
  });

  it('an undocumented method gets the documented 405 with the exact Allow of the path', async () => {
    const answer = await send('DELETE', '/v2/api/conversations');
    expect(answer.status).toBe('HTTP/1.1 405 Method Not Allowed');
    expect(answer.headers).toContain('Allow: GET, HEAD');
    expect(JSON.parse(answer.body).error.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('HEAD on a path without GET gets the 405 (and no body), Allow without HEAD', async () => {
    const answer = await send('HEAD', '/v2/api/conversations/%2B14155550123/action');
    expect(answer.status).toBe('HTTP/1.1 405 Method Not Allowed');
    expect(answer.headers).toContain('Allow: PUT');
    expect(answer.body).toBe('');
    // The body GET would have had says GET: HEAD is answered as GET is.
    expect(JSON.parse((await send('GET', '/v2/api/conversations/%2B14155550123/action')).body).error.message).toBe(
      'GET is not supported on /v2/api/conversations/%2B14155550123/action; allowed: PUT.',
    );
  });
});
