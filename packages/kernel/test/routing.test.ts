// The kernel's one routing (own routes, web routes, else the API) and what rides on it: a web
// route answered by its own handler by both ways in, the CORS step (off unless asked for), and
// node:http bridged to web Requests and Responses without a framework: a streamed answer cancelled
// when its client hangs up, a target no web Request can hold answered with the documented 400.
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { loadContract, serverHeaderNames } from '@svc/spec-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type KernelOptions, type Listening, listen, type WebRoute } from '../src/index.js';
import { urlOfTarget } from '../src/node-web.js';
import { webRouteFor } from '../src/web-routes.js';
import { rawExchange, splitAnswer } from './support/raw-http.js';

const require = createRequire(import.meta.url);
const contract = loadContract(require('@svc/openapi/openapi.json'));
const names = serverHeaderNames(contract);
const CHUNK = new Uint8Array(64 * 1024).fill(97);

/** A web route that answers its path, and streams chunks without end under `/files/endless`. */
function filesRoute(cancelled: () => void): WebRoute {
  return {
    path: '/files',
    serve(request) {
      const { pathname } = new URL(request.url);
      if (pathname !== '/files/endless') return new Response(`file ${pathname}`, { headers: { 'X-From': 'files' } });
      const body = new ReadableStream<Uint8Array>(
        { pull: (controller) => controller.enqueue(CHUNK), cancel: cancelled },
        { highWaterMark: 0 },
      );
      return new Response(body);
    },
  };
}

let onCancel: () => void = () => undefined;
function kernel(extra: Partial<KernelOptions<{ key: string; scopes: string[] }>> = {}) {
  return createKernel({
    contract,
    rateLimit: 'enforce',
    rateLimits: { readsPerSecond: 1 },
    clock: () => 1_000_000,
    findKey: (token) => (token === 'good' ? { key: token, scopes: Object.keys(contract.scopes) } : undefined),
    answer: () => ({ status: 200, body: { data: [] } }),
    webRoutes: [filesRoute(() => onCancel())],
    ...extra,
  });
}

describe('webRouteFor', () => {
  const routes = [{ path: '/docs', serve: () => new Response() }];
  it.each([
    ['/docs', true],
    ['/docs/', true],
    ['/docs/a/b.html', true],
    ['/docsy', false],
    ['/doc', false],
    ['/v2/api/docs', false],
  ])('%s: %s', (path, found) => expect(webRouteFor(routes, path) !== undefined).toBe(found));

  it("'' answers every path", () => {
    expect(webRouteFor([{ path: '', serve: () => new Response() }], '/anything')).toBeDefined();
  });
});

describe('urlOfTarget', () => {
  it.each([
    ['/v2/api/tags?x=1', 'http://localhost/v2/api/tags?x=1'],
    ['//evil.example/x', 'http://localhost//evil.example/x'], // the path stays a path
    ['http://other.example/v2/api/tags', 'http://other.example/v2/api/tags'],
    ['*', undefined],
    ['example.com:443', undefined],
    ['http://[bad/x', undefined],
  ])('%s', (target, url) => expect(urlOfTarget(target)).toBe(url));
});

describe('in process', () => {
  const withCors = kernel({ loopbackCors: true });
  const without = kernel();
  const send = (k: ReturnType<typeof kernel>, path: string, init: RequestInit = {}) =>
    k.fetch(new Request(`http://x${path}`, init));
  const corsHeaders = (response: Response) =>
    [...response.headers.keys()].filter((name) => name.startsWith('access-control-'));

  it('answers a web route by its handler, and every other path by the API', async () => {
    const file = await send(without, '/files/a.txt');
    expect([file.status, file.headers.get('x-from'), await file.text()]).toEqual([200, 'files', 'file /files/a.txt']);
    const elsewhere = await send(without, '/filesystem');
    expect(((await elsewhere.json()) as { error: { code: string } }).error.code).toBe('ENDPOINT_NOT_FOUND');
  });

  it('adds no CORS header unless the server asks for CORS', async () => {
    const preflight = await send(without, '/v2/api/tags', {
      method: 'OPTIONS',
      headers: { Origin: 'http://localhost:3000', 'Access-Control-Request-Method': 'GET' },
    });
    expect(preflight.status).toBe(405);
    expect(corsHeaders(preflight)).toEqual([]);
  });

  it('answers a loopback preflight before the rate limit, and names the request', async () => {
    const preflight = await send(withCors, '/v2/api/tags', {
      method: 'OPTIONS',
      headers: { Origin: 'http://localhost:3000', 'Access-Control-Request-Method': 'GET' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    expect(preflight.headers.get(names.requestId)).toMatch(/^req_/);
    expect(preflight.headers.get(names.rateLimitRemaining)).toBeNull();
    // The budget of one read a second is still whole: the preflight spent none of it.
    const read = await send(withCors, '/v2/api/tags', {
      headers: { Authorization: 'Api-Key good', Origin: 'http://localhost:3000' },
    });
    expect(read.status).toBe(200);
    expect(read.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    expect(read.headers.get(names.rateLimitRemaining)).toBe('0');
  });

  it('gives a foreign origin no CORS header, and its preflight the documented 405', async () => {
    const init = { headers: { Origin: 'http://evil.example', 'Access-Control-Request-Method': 'GET' } };
    const preflight = await send(withCors, '/v2/api/tags', { ...init, method: 'OPTIONS' });
    expect(preflight.status).toBe(405);
    expect(corsHeaders(preflight)).toEqual([]);
    expect(corsHeaders(await send(withCors, '/v2/api/tags', init))).toEqual([]);
  });
});

describe('over node:http', () => {
  let server: Listening;
  beforeAll(async () => {
    const k = kernel({ loopbackCors: true });
    server = await listen(k.fetch, contract, 0, '127.0.0.1', k.serveNode);
  });
  afterAll(() => server.close());

  it('serves a web route by both kinds of target', async () => {
    for (const target of ['/files/a.txt', `http://127.0.0.1:${server.port}/files/a.txt`]) {
      const answer = splitAnswer(await rawExchange(server.port, `GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`));
      expect(answer.status).toBe('HTTP/1.1 200 OK');
      expect(answer.body).toContain('file /files/a.txt');
    }
  });

  it('answers a target no web Request can hold with the documented 400', async () => {
    const answer = splitAnswer(await rawExchange(server.port, 'OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n'));
    expect(answer.status).toBe('HTTP/1.1 400 Bad Request');
    expect(answer.headers).toContain('Connection: close');
    expect(JSON.parse(answer.body).error).toMatchObject({ code: 'INVALID_REQUEST_BODY', retryable: false });
  });

  it('streams a web route with backpressure, and cancels its body when the client hangs up', async () => {
    const cancelled = new Promise<void>((resolve) => {
      onCancel = resolve;
    });
    const socket = connect(server.port, '127.0.0.1');
    socket.write('GET /files/endless HTTP/1.1\r\nHost: x\r\n\r\n');
    // Some of the endless body arrives; then the client goes away and the stream is cancelled.
    let received = 0;
    await new Promise<void>((resolve) =>
      socket.on('data', (chunk: Buffer) => {
        received += chunk.byteLength;
        if (received > 4 * CHUNK.byteLength) resolve();
      }),
    );
    socket.destroy();
    await cancelled;
    expect(received).toBeGreaterThan(4 * CHUNK.byteLength);
  });
});
