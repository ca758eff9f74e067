// An idle keep-alive connection outlives the Keep-Alive hint the server gives: a client that
// reuses a connection until the hint runs out (and its timer fires late on a busy machine) never
// sends a request on a connection the server is closing, the reset that failed contract runs at load.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadContract } from '@svc/spec-runtime';
import { afterEach, describe, expect, it } from 'vitest';
import { createKernel, keepIdleConnectionsPastTheHint, listen } from '../src/index.js';

const require = createRequire(import.meta.url);
const closers: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A raw connection that sends one GET at a time and resolves each response head (or 'closed'). */
async function connection(port: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  closers.push(() => socket.destroy());
  await once(socket, 'connect');
  socket.setEncoding('latin1');
  socket.on('error', () => undefined);
  let received = '';
  // The server may close the connection while the test sleeps, before the next request is sent:
  // the close is remembered, never awaited after it happened (which would wait forever).
  let closed = false;
  const whenClosed = once(socket, 'close').then(() => {
    closed = true;
    return true;
  });
  socket.on('data', (chunk: string) => (received += chunk));
  return async (path: string): Promise<string> => {
    received = '';
    if (closed || socket.destroyed) return 'closed';
    socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
    while (!received.includes('\r\n\r\n')) {
      const ended = await Promise.race([once(socket, 'data').then(() => false), whenClosed]);
      if (ended && !received.includes('\r\n\r\n')) return 'closed';
    }
    return received.split('\r\n\r\n')[0] ?? '';
  };
}

async function plainServer(keep: boolean): Promise<number> {
  const server: Server = createServer((_req, res) => res.end('ok'));
  if (keep) keepIdleConnectionsPastTheHint(server, { advertisedSeconds: 1, keptMs: 60_000 });
  else server.keepAliveTimeout = 1000; // Node's way: closed at the very time it advertises
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  closers.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return (server.address() as { port: number }).port;
}

describe('idle keep-alive connections', () => {
  it('advertise the hint, and take a request sent after it ran out on the same connection', async () => {
    const send = await connection(await plainServer(true));
    expect((await send('/')).toLowerCase()).toContain('\r\nkeep-alive: timeout=1');
    // Past the hint: the moment a client whose timer fired late still sends on the connection.
    await sleep(2000);
    expect((await send('/')).split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
  });

  it('are closed at the hint by a server left as Node makes it: the race the margin removes', async () => {
    const send = await connection(await plainServer(false));
    expect((await send('/')).toLowerCase()).toContain('\r\nkeep-alive: timeout=1');
    await sleep(2000);
    expect(await send('/')).toBe('closed');
  });

  it('refuses a margin that is none', () => {
    expect(() => keepIdleConnectionsPastTheHint(createServer(), { advertisedSeconds: 5, keptMs: 5000 })).toThrow(
      RangeError,
    );
  });

  it('is what a kernel served by listen() advertises: 5 s, on every answer it keeps the connection for', async () => {
    const contract = loadContract(require('@svc/openapi/openapi.json'));
    const kernel = createKernel({
      contract,
      rateLimit: 'off',
      findKey: (token) => ({ key: token, scopes: Object.keys(contract.scopes) }),
      answer: () => ({ status: 200, body: { data: [] } }),
    });
    const server = await listen(kernel.fetch, contract, 0, '127.0.0.1', kernel.serveNode);
    closers.push(() => server.close());
    const send = await connection(server.port);
    const head = (await send('/v2/api/no-such-route')).toLowerCase();
    expect(head).toContain('\r\nconnection: keep-alive');
    expect(head).toContain('\r\nkeep-alive: timeout=5\r\n');
    expect(head.match(/keep-alive: timeout/g)).toHaveLength(1);
  });
});
