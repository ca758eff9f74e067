// svc-contract against a deliberately hostile server (raw TCP on 127.0.0.1, port picked at
// runtime): endless, huge, compressed-bomb, silent and malformed answers. Each ends as a failed
// `response.transport` check whose message names what went wrong; none hangs the client or
// makes it read more than its cap. The outcomes do not depend on machine speed: a server that
// never finishes can only time out, a body over the cap can only be cut off.
import { createServer, type Server, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { unpaced } from '@svc/api-client/pacer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responseOutcomes } from '../src/exchange-checks/response.js';
import { boundedFetch, TransportError } from '../src/http/bounded-fetch.js';
import { ApiClient } from '../src/http/client.js';
import type { Exchange } from '../src/http/exchange.js';
import { loadSpec } from '../src/spec.js';

const CAP = 256 * 1024;
const TIMEOUT_MS = 500;
// For the answers that must end on the cap or on a parse error: a limit no loaded machine reaches,
// so that reading 256 KiB slowly can never turn into a timeout.
const NO_TIMEOUT_MS = 120_000;
const json = '{"data":[]}';
const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
const sockets = new Set<Socket>();

/** What the server does for each path. */
const behaviours: Record<string, (socket: Socket) => void> = {
  '/ok': (s) =>
    s.end(
      `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${json.length}\r\nConnection: close\r\n\r\n${json}`,
    ),
  '/endless': (s) => {
    s.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n');
    const chunk = `4000\r\n${'x'.repeat(0x4000)}\r\n`;
    const pump = () => {
      while (!s.destroyed && s.write(chunk));
      if (!s.destroyed) s.once('drain', pump);
    };
    pump();
  },
  '/trickle': (s) => {
    s.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n[\r\n');
    // Never another byte: the body never ends.
  },
  '/silent': () => {},
  '/declared-huge': (s) =>
    s.end('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 10000000000\r\n\r\n{'),
  '/bomb': (s) => {
    s.write(
      `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: ${bomb.length}\r\n\r\n`,
    );
    s.end(bomb);
  },
  '/bad-length': (s) => s.end('HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\n{}'),
  '/not-http': (s) => s.end('THIS IS NOT HTTP\r\n\r\n'),
  '/bad-header': (s) => s.end('HTTP/1.1 200 OK\r\nX-Bad\u0001: y\r\nContent-Length: 2\r\n\r\n{}'),
};

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let head = '';
    socket.on('data', function onData(chunk: Buffer) {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      const path = head.split(' ')[1] ?? '/';
      (behaviours[path] ?? behaviours['/not-http']!)(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function failureOf(path: string, kind: TransportError['kind']): Promise<TransportError> {
  try {
    await boundedFetch(
      `${base}${path}`,
      { method: 'GET' },
      { timeoutMs: kind === 'timeout' ? TIMEOUT_MS : NO_TIMEOUT_MS, maxBytes: CAP },
    );
  } catch (error) {
    if (error instanceof TransportError) return error;
    throw error;
  }
  throw new Error(`${path} succeeded`);
}

describe('boundedFetch against a hostile server', () => {
  it('reads an ordinary response', async () => {
    const response = await boundedFetch(`${base}/ok`, { method: 'GET' }, { timeoutMs: 10_000, maxBytes: CAP });
    expect([response.status, response.text]).toEqual([200, json]);
  });

  it.each([
    ['/endless', 'too-large', /larger than the 262144 bytes/],
    ['/declared-huge', 'too-large', /declares 10000000000 bytes/],
    ['/bomb', 'too-large', /larger than the 262144 bytes/],
    ['/trickle', 'timeout', /did not end within 500 ms/],
    ['/silent', 'timeout', /no response within 500 ms/],
    ['/bad-length', 'malformed', /not valid HTTP/],
    ['/not-http', 'malformed', /not valid HTTP/],
    ['/bad-header', 'malformed', /not valid HTTP/],
  ] as const)('%s is a %s failure', async (path, kind, message) => {
    const failure = await failureOf(path, kind);
    expect(failure.kind).toBe(kind);
    expect(failure.message).toMatch(message);
  });
});

describe('the suite client against a hostile server', () => {
  const spec = loadSpec();
  const recorded: Exchange[] = [];
  const client = (timeoutMs = NO_TIMEOUT_MS) =>
    new ApiClient({
      baseUrl: base,
      apiKey: 'k',
      allowWrites: false,
      timeoutMs,
      maxResponseBytes: CAP,
      maxRetryWaitSeconds: 0,
      spec,
      limiter: unpaced,
      recorder: { record: (exchange: Exchange) => recorded.push(exchange), sending: () => {} } as never,
    });

  it('records each hostile answer as a failed response.transport check that names it', async () => {
    for (const path of ['/endless', '/bad-length', '/trickle']) {
      const exchange = await client(path === '/trickle' ? TIMEOUT_MS : NO_TIMEOUT_MS).send({ method: 'GET', path });
      const [outcome, ...rest] = responseOutcomes(spec, exchange);
      expect(rest).toEqual([]);
      expect(outcome).toMatchObject({ check: 'response.transport', status: 'failed' });
      expect(outcome!.detail).toContain(exchange.error!);
    }
    expect(recorded.map((e) => e.failure)).toEqual(['too-large', 'malformed', 'timeout']);
  });

  it('keeps talking to a server that answers too much or malformed HTTP', async () => {
    const c = client();
    for (let i = 0; i < 4; i++) await c.send({ method: 'GET', path: '/not-http' });
    const ok = await c.send({ method: 'GET', path: '/ok' });
    expect(ok.status).toBe(200);
    expect(ok.error).toBeUndefined();
  });
});

describe('--max-response-bytes', () => {
  it('sets the cap of a run and refuses what is not a positive integer', async () => {
    const { parseCli } = await import('../src/options.js');
    const { UsageError } = await import('../src/tool.js');
    expect(parseCli(['--max-response-bytes', '4096'])).toMatchObject({
      kind: 'run',
      options: { maxResponseBytes: 4096 },
    });
    expect(parseCli([])).toMatchObject({
      kind: 'run',
      options: expect.not.objectContaining({ maxResponseBytes: expect.anything() }),
    });
    for (const bad of ['0', '-1', '1.5', 'lots'])
      expect(() => parseCli(['--max-response-bytes', bad])).toThrow(UsageError);
  });
});
