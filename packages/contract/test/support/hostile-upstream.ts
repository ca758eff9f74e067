// A hostile (or merely unusual) upstream for the proxy's tests: it answers by path and tells the
// test what it received (raw path, raw headers, a digest of the body) and when its side ended.
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

export interface Received {
  url: string;
  rawHeaders: string[];
  bytes: number;
  sha256: string;
  /** The request body arrived whole. */
  complete: boolean;
}

export interface HostileUpstream {
  url: string;
  /** Each request as it ended (or was cut off), in order. */
  received: Received[];
  /** Settles with the next request's record once that request has ended or been cut off. */
  nextRequest(): Promise<Received>;
  /** Settles when the next request's first body bytes arrive. */
  nextBodyBytes(): Promise<void>;
  /** Settles when the response of the endless route is closed by the proxy. */
  endlessClosed: Promise<void>;
  /** The random bytes /binary answers with. */
  binary: Buffer;
  close(): Promise<void>;
}

/**
 * 64 MiB, sent by /large in 1 MiB chunks of zeros: 1024 times the checking cap of the proxy under
 * test, 4 times the proxy's old 16 MiB limit and 6 times the default cap, so a relay that keeps or
 * checks the body whole fails as it would on 1 GiB (the hostile benchmark relays 1 GiB).
 */
export const LARGE_ANSWER_BYTES = 64 * 1024 ** 2;
/** Zeros expanded by /bomb: 64 MiB behind a gzip answer of about 64 KB. */
export const BOMB_BYTES = 64 * 1024 ** 2;

export async function hostileUpstream(): Promise<HostileUpstream> {
  const received: Received[] = [];
  const waiting: Array<(r: Received) => void> = [];
  const bodyWaiting: Array<() => void> = [];
  let endlessClosed!: () => void;
  const closed = new Promise<void>((resolve) => (endlessClosed = resolve));
  const binary = randomBytes(3 * 1024 * 1024 + 17);
  const bomb = gzipSync(Buffer.alloc(BOMB_BYTES));
  const megabyte = Buffer.alloc(1024 * 1024);

  const answer = (req: IncomingMessage, res: ServerResponse, record: Received) => {
    const path = (req.url ?? '').split('?')[0];
    if (path === '/endless') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.on('close', () => endlessClosed());
      const more = () => {
        while (res.write(megabyte));
      };
      res.on('drain', more);
      more();
      return;
    }
    if (path === '/bomb') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(bomb);
      return;
    }
    if (path === '/large') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(LARGE_ANSWER_BYTES) });
      let sent = 0;
      const more = () => {
        while (sent < LARGE_ANSWER_BYTES) {
          sent += megabyte.length;
          if (!res.write(megabyte)) return;
        }
        res.end();
      };
      res.on('drain', more);
      more();
      return;
    }
    if (path === '/binary') {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'x-received-sha256': record.sha256 });
      res.end(binary);
      return;
    }
    if (path === '/cookies') {
      res.setHeader('Set-Cookie', ['a=1; Path=/', 'b=2; Path=/']);
      res.setHeader('X-Repeated', ['one', 'two']);
      res.setHeader('Connection', 'X-Upstream-Hop');
      res.setHeader('X-Upstream-Hop', 'secret');
      res.setHeader('Proxy-Authenticate', 'Basic');
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(record));
  };

  const server = createServer((req, res) => {
    const hash = createHash('sha256');
    let bytes = 0;
    req.on('data', (chunk: Buffer) => {
      if (bytes === 0) bodyWaiting.shift()?.();
      bytes += chunk.length;
      hash.update(chunk);
    });
    const done = (complete: boolean) => {
      const record = { url: req.url ?? '', rawHeaders: req.rawHeaders, bytes, sha256: hash.digest('hex'), complete };
      received.push(record);
      waiting.shift()?.(record);
      if (complete) answer(req, res, record);
    };
    req.on('end', () => done(true));
    req.on('close', () => {
      if (!req.complete) done(false);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    nextRequest: () => new Promise((resolve) => waiting.push(resolve)),
    nextBodyBytes: () => new Promise((resolve) => bodyWaiting.push(resolve)),
    endlessClosed: closed,
    binary,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Header names of raw headers, lower case, in order. */
export const namesOf = (rawHeaders: readonly string[]) =>
  rawHeaders.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
