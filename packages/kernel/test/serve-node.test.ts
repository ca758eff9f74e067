// listen's two ways in: a kernel's serveNode (node:http, no web Request) must answer byte for
// byte what its fetch answers, and leave to fetch every request a web Request would show
// differently (dot segments, repeated headers, a body without a Content-Length).
import { createRequire } from 'node:module';
import { loadContract } from '@svc/spec-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type Kernel, type Listening, listen } from '../src/index.js';
import { rawExchange } from './support/raw-http.js';

const require = createRequire(import.meta.url);
const contract = loadContract(require('@svc/openapi/openapi.json'));
const servers: Listening[] = [];
let direct: Listening;
let viaFetch: Listening;
let taken = 0;

function kernel(): Kernel {
  return createKernel({
    contract,
    rateLimit: 'off',
    clock: () => 1_000_000,
    findKey: (token) => (token === 'good' ? { key: token, scopes: Object.keys(contract.scopes) } : undefined),
    answer: (call) => ({
      status: 200,
      body: { data: { path: call.pathname, params: call.params, body: call.body ?? null } },
    }),
  });
}

beforeAll(async () => {
  const first = kernel();
  direct = await listen(
    first.fetch,
    contract,
    0,
    '127.0.0.1',
    (incoming, outgoing) => first.serveNode(incoming, outgoing) && ++taken > 0,
  );
  viaFetch = await listen(kernel().fetch, contract, 0, '127.0.0.1');
  servers.push(direct, viaFetch);
});
afterAll(() => Promise.all(servers.map((server) => server.close())));

/** Sends raw bytes on a fresh connection and gives back the whole answer, the Date line cut. */
async function exchange(server: Listening, raw: string): Promise<string> {
  return (await rawExchange(server.port, raw)).replace(/\r\nDate: [^\r]*/, '');
}

/** A request head; a fixed X-Request-Id unless one is given, so that both servers answer alike. */
const head = (line: string, ...headers: string[]) =>
  [
    line,
    'Host: x',
    'Connection: close',
    ...(headers.some((h) => h.startsWith('X-Request-Id')) ? [] : ['X-Request-Id: req-fixed']),
    ...headers,
    '',
    '',
  ].join('\r\n');
/** The status line, the header lines in order of name (Node places Content-Length by how it is set), the body. */
const normal = (answer: string) => {
  const [top = '', body = ''] = answer.split('\r\n\r\n');
  const [status, ...headers] = top.split('\r\n');
  return [status, ...headers.sort(), body];
};
const auth = 'Authorization: Api-Key good';
const put = (body: string, ...headers: string[]) =>
  head(
    'PUT /v2/api/conversations/%2B14155550123/action HTTP/1.1',
    auth,
    'Content-Type: application/json',
    `Content-Length: ${body.length}`,
    ...headers,
  ) + body;

describe('serveNode', () => {
  it('answers what fetch answers, and only the requests a web Request would show the same', async () => {
    const cases: [raw: string, takesTheDirectWay: boolean][] = [
      [put('{"action":"READ"}', 'Idempotency-Key: k1'), true],
      [put('{"action":"READ"}', 'Idempotency-Key: k1'), true],
      [head('GET /v2/api/threads/cth-1?x=1 HTTP/1.1', auth, 'X-Request-Id: caf\u00e9'), true],
      [head('GET /v2/api/nowhere HTTP/1.1', auth), true],
      [head('DELETE /v2/api/conversations HTTP/1.1', auth), true],
      [put('{,}'), true],
      [put('{"action":"READ"}', 'Content-Type: text/plain'), false],
      [head('GET /v2/api/threads/cth-1 HTTP/1.1'), true],
      [head('GET /v2/api/threads/cth-1 HTTP/1.1', auth, 'Authorization: Api-Key other'), false],
      [head('GET /v2/api/x/../threads/cth-1 HTTP/1.1', auth), false],
      [head('GET /v2/api/%2e%2e/v2/api/threads/cth-1 HTTP/1.1', auth), false],
      [head('HEAD /v2/api/threads/cth-1 HTTP/1.1', auth), true],
      [head('GET /elsewhere HTTP/1.1', auth), false],
      [
        `${head(
          'PUT /v2/api/conversations/%2B14155550123/action HTTP/1.1',
          auth,
          'Content-Type: application/json',
          'Transfer-Encoding: chunked',
        )}11\r\n{"action":"READ"}\r\n0\r\n\r\n`,
        false,
      ],
    ];
    let expectedTaken = 0;
    for (const [raw, takesTheDirectWay] of cases) {
      const before = taken;
      const answer = await exchange(direct, raw);
      expect(normal(answer), raw).toEqual(normal(await exchange(viaFetch, raw)));
      expect(answer, raw).toMatch(/^HTTP\/1\.1 \d{3} /);
      expect(taken - before, raw).toBe(takesTheDirectWay ? 1 : 0);
      if (takesTheDirectWay) expectedTaken++;
    }
    expect(taken).toBe(expectedTaken);
  });

  it('sends Content-Length, and a non-ASCII request id as the bytes that came in', async () => {
    const answer = await exchange(direct, head('GET /v2/api/threads/cth-1 HTTP/1.1', auth, 'X-Request-Id: caf\u00e9'));
    const [headers = '', body = ''] = answer.split('\r\n\r\n');
    expect(headers).toContain('X-Request-Id: caf\u00e9\r\n');
    expect(headers).toContain(`Content-Length: ${Buffer.byteLength(body, 'latin1')}`);
    expect(JSON.parse(body).data).toMatchObject({ path: '/v2/api/threads/cth-1', params: { id: 'cth-1' } });
  });
});
