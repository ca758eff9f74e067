// The proxy under hostile traffic (issue 25): a hostile upstream (an endless stream, a gzip bomb,
// a 64 MiB answer), a hostile client (a hang-up mid-body, Expect: 100-continue, binary bodies,
// raw paths, hop-by-hop headers) and a report that cannot be written whole. Every test awaits
// events (a request ending, a socket closing), never a duration.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type IncomingMessage, request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningProxy, startProxy } from '../src/proxy.js';
import { runProxy } from '../src/proxy-run.js';
import type { CheckOutcome, TestRecord } from '../src/types.js';
import {
  BOMB_BYTES,
  type HostileUpstream,
  hostileUpstream,
  LARGE_ANSWER_BYTES,
  namesOf,
  sha256,
} from './support/hostile-upstream.js';

let upstream: HostileUpstream;
let proxy: RunningProxy;
const CAP = 64 * 1024;
const checkedWaiting: Array<(record: TestRecord) => void> = [];
/** Settles when the proxy has checked and tallied its next exchange. */
const nextChecked = () => new Promise<TestRecord>((resolve) => checkedWaiting.push(resolve));

beforeAll(async () => {
  upstream = await hostileUpstream();
  proxy = await startProxy({
    upstream: upstream.url,
    maxResponseBytes: CAP,
    timeoutMs: 600_000,
    onChecked: (record) => checkedWaiting.shift()?.(record),
  });
});
afterAll(async () => {
  await proxy.close();
  await upstream.close();
});

interface Answer {
  status: number;
  rawHeaders: string[];
  body: Buffer;
  /** Bytes received, kept or not. */
  bytes: number;
}

/** One request through node:http (fetch would add headers and refuse Expect); keeps at most `keep` bytes. */
function send(
  path: string,
  options: { method?: string; headers?: Record<string, string | string[]>; body?: Buffer; keep?: number } = {},
): Promise<Answer> {
  const url = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const req = request({
      host: url.hostname,
      port: url.port,
      path,
      method: options.method ?? 'GET',
      headers: options.headers,
    });
    req.on('error', reject);
    req.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes <= (options.keep ?? Number.POSITIVE_INFINITY)) chunks.push(chunk);
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks), bytes }),
      );
    });
    if (options.headers?.Expect) req.on('continue', () => req.end(options.body));
    else req.end(options.body);
  });
}

const outcomes = (): CheckOutcome[] => proxy.records()[0]?.outcomes ?? [];
const countOf = (check: string, status: CheckOutcome['status']) =>
  outcomes()
    .filter((o) => o.check === check && o.status === status)
    .reduce((n, o) => n + (o.count ?? 1), 0);

describe('a hostile upstream', () => {
  it('streams an endless answer as it comes and stops reading when the client hangs up', async () => {
    const url = new URL(proxy.url);
    const got = await new Promise<number>((resolve) => {
      const req = request({ host: url.hostname, port: url.port, path: '/endless' }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          // 4 MiB arrived from a body that never ends: the proxy relays as it reads. Then hang up.
          if (bytes >= 4 * 1024 * 1024) {
            req.destroy();
            resolve(bytes);
          }
        });
      });
      req.end();
    });
    expect(got).toBeGreaterThanOrEqual(4 * 1024 * 1024);
    // The proxy closed its upstream request: the endless response ended on the upstream's side.
    // (The proxy's time limit is ten minutes here: only the hang-up can have closed it.)
    await upstream.endlessClosed;
  });

  it('relays a gzip bomb unchanged to a client that asked for gzip, and leaves it unchecked past the cap', async () => {
    const before = countOf('proxy.unchecked-too-large', 'skipped');
    const checked = nextChecked();
    const answer = await send('/bomb', { headers: { 'Accept-Encoding': 'gzip' } });
    await checked;
    expect(answer.status).toBe(200);
    // The compressed bytes as the upstream sent them, never the 64 MiB they expand to.
    expect(answer.bytes).toBeLessThan(BOMB_BYTES / 100);
    expect(namesOf(answer.rawHeaders)).toContain('content-encoding');
    expect(countOf('proxy.unchecked-too-large', 'skipped')).toBe(before + 1);
    expect(countOf('response.transport', 'failed')).toBe(0);
  });

  it('forwards the Accept-Encoding the client sent, and none when it sent none', async () => {
    const next = upstream.nextRequest();
    await send('/v2/api/users', { headers: { 'Accept-Encoding': 'br' } });
    expect(namesOf((await next).rawHeaders)).toContain('accept-encoding');
    const bare = upstream.nextRequest();
    await send('/v2/api/users');
    expect(namesOf((await bare).rawHeaders)).not.toContain('accept-encoding');
  });

  it('relays a 64 MiB answer (1024 caps) whole and reports it unchecked, never as an upstream failure', async () => {
    const before = countOf('proxy.unchecked-too-large', 'skipped');
    const checked = nextChecked();
    const answer = await send('/large', { keep: 0 });
    await checked;
    expect(answer.status).toBe(200);
    expect(answer.bytes).toBe(LARGE_ANSWER_BYTES);
    expect(countOf('proxy.unchecked-too-large', 'skipped')).toBe(before + 1);
    expect(countOf('response.transport', 'failed')).toBe(0);
  });
});

describe('a hostile client', () => {
  it('stops the upstream request when the client hangs up mid-body', async () => {
    const url = new URL(proxy.url);
    const next = upstream.nextRequest();
    const arriving = upstream.nextBodyBytes();
    const req = request({
      host: url.hostname,
      port: url.port,
      path: '/v2/api/threads',
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) },
    });
    req.on('error', () => undefined);
    req.write(Buffer.alloc(1024 * 1024, 0x20));
    // Once the first bytes reached the upstream, hang up: the upstream request must end too (if
    // the proxy kept it open, waiting for the other 9 MiB, this would never settle).
    await arriving;
    req.destroy();
    const record = await next;
    expect(record.complete).toBe(false);
    expect(record.bytes).toBeLessThan(10 * 1024 * 1024);
    // The proxy goes on serving.
    expect((await send('/v2/api/users')).status).toBe(200);
  });

  it('handles Expect: 100-continue and relays the body', async () => {
    const body = Buffer.from('{"entity_type":"CALL"}');
    const next = upstream.nextRequest();
    const answer = await send('/v2/api/threads', {
      method: 'POST',
      headers: { Expect: '100-continue', 'Content-Type': 'application/json', 'Content-Length': String(body.length) },
      body,
    });
    expect(answer.status).toBe(200);
    const record = await next;
    expect(record.sha256).toBe(sha256(body));
    expect(namesOf(record.rawHeaders)).not.toContain('expect');
  });

  it('relays binary bodies of any size byte for byte, both ways', async () => {
    // 20 MiB of bytes that are not UTF-8, above the old 16 MiB limit and the checking cap.
    const body = Buffer.alloc(20 * 1024 * 1024);
    for (let i = 0; i < body.length; i += 4096) body.writeUInt32BE((i * 2654435761) >>> 0, i);
    body[0] = 0xff;
    const answer = await send('/binary', {
      method: 'POST',
      headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': String(body.length) },
      body,
    });
    const header = (name: string) => answer.rawHeaders[2 * namesOf(answer.rawHeaders).indexOf(name) + 1];
    expect(header('x-received-sha256')).toBe(sha256(body));
    expect(sha256(answer.body)).toBe(sha256(upstream.binary));
    expect(answer.body.length).toBe(upstream.binary.length);
  });

  it('keeps repeated headers apart and in order, drops hop-by-hop ones both ways, and adds only Via', async () => {
    const next = upstream.nextRequest();
    const answer = await send('/cookies', {
      headers: {
        Connection: 'X-Client-Hop',
        'X-Client-Hop': 'secret',
        TE: 'trailers',
        'Proxy-Authorization': 'Basic c2VjcmV0',
        'Keep-Alive': 'timeout=5',
        'X-Repeated': ['1', '2'],
        Authorization: 'Api-Key sbx_demo_full_access',
      },
    });
    const sent = await next;
    // Connection is the proxy's own connection to the upstream (node:http's keep-alive), naming nothing of the client's.
    expect(namesOf(sent.rawHeaders).sort()).toEqual([
      'authorization',
      'connection',
      'host',
      'via',
      'x-repeated',
      'x-repeated',
    ]);
    expect(sent.rawHeaders[2 * namesOf(sent.rawHeaders).indexOf('connection') + 1]).toBe('keep-alive');
    expect(sent.rawHeaders[sent.rawHeaders.findIndex((h) => h.toLowerCase() === 'via') + 1]).toBe('1.1 svc-contract');
    const names = namesOf(answer.rawHeaders);
    const values = (name: string) => answer.rawHeaders.filter((_, i) => i % 2 === 1 && names[(i - 1) / 2] === name);
    expect(values('set-cookie')).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(values('x-repeated')).toEqual(['one', 'two']);
    expect(values('via')).toEqual(['1.1 svc-contract']);
    expect(names).not.toContain('x-upstream-hop');
    expect(names).not.toContain('proxy-authenticate');
  });

  it('relays headers named __proto__ and constructor like any other', async () => {
    const url = new URL(proxy.url);
    const next = upstream.nextRequest();
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const headers = ['Host', url.host, '__proto__', 'a', 'constructor', 'b'];
      request({ host: url.hostname, port: url.port, path: '/v2/api/users', headers }, (res) => {
        res.resume().on('end', () => resolve(res.statusCode));
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(200);
    const names = namesOf((await next).rawHeaders);
    expect(names).toContain('__proto__');
    expect(names).toContain('constructor');
  });

  it('sends the path exactly as written, and never to another host', async () => {
    for (const path of [
      '/v2/api/./users/../users?size=%2B1&x=a+b',
      '//evil.example/v2/api/users',
      '/v2/api/%2e%2e/x',
    ]) {
      const next = upstream.nextRequest();
      await send(path);
      expect((await next).url).toBe(path);
    }
    const next = upstream.nextRequest();
    await send('http://evil.example/v2/api/users?x=1');
    expect((await next).url).toBe('/v2/api/users?x=1');
  });
});

describe('a client that half-closes', () => {
  it('gets its answer, and the upstream one Host, its own', async () => {
    const url = new URL(proxy.url);
    const next = upstream.nextRequest();
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname);
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        text += chunk;
      });
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
      socket.end('GET /v2/api/tags HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n');
    });
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    const hosts = (await next).rawHeaders.filter((_, i, all) => i % 2 === 1 && all[i - 1]?.toLowerCase() === 'host');
    expect(hosts).toEqual([new URL(upstream.url).host]);
  });
});

describe('keys, whatever their spelling', () => {
  it('never reach the report, short or long, in any case or whitespace', async () => {
    const output = mkdtempSync(join(tmpdir(), 'svc-proxy-keys-'));
    try {
      let stop!: () => void;
      const until = new Promise<void>((resolve) => (stop = resolve));
      let listening!: (url: string) => void;
      const url = new Promise<string>((resolve) => (listening = resolve));
      const silent = { write: () => true } as unknown as NodeJS.WritableStream;
      const run = runProxy({
        upstream: upstream.url,
        until,
        onListening: listening,
        reporters: ['json', 'text'],
        output,
        quiet: true,
        stdout: silent,
        stderr: silent,
      });
      const base = new URL(await url);
      // The upstream echoes the request (its headers included) as a body no schema accepts: failures keep it.
      for (const authorization of ['api-key abc', 'Api-Key\tabd', 'API-KEY   abe', 'Api-Key sbx_long_key_1234'])
        await new Promise<void>((resolve) =>
          request({ host: base.hostname, port: base.port, path: '/v2/api/users', headers: { authorization } }, (res) =>
            res.resume().on('end', resolve),
          ).end(),
        );
      stop();
      const result = await run;
      expect(result.report.failures.length).toBeGreaterThan(0);
      const written =
        readFileSync(join(output, 'report.json'), 'utf8') + readFileSync(join(output, 'report.txt'), 'utf8');
      expect(written).toContain('${SVC_API_KEY}');
      for (const key of ['abc', 'abd', 'abe', 'sbx_long_key_1234'])
        expect(written).not.toMatch(new RegExp(`\\b${key}\\b`));
    } finally {
      rmSync(output, { recursive: true, force: true });
    }
  });
});

describe('the report', () => {
  it('says what it could not write and writes the rest', async () => {
    const output = mkdtempSync(join(tmpdir(), 'svc-proxy-report-'));
    try {
      // A folder where report.json should go: that file cannot be written, junit.xml can.
      mkdirSync(join(output, 'report.json'));
      let printed = '';
      const write = (text: string) => {
        printed += text;
        return true;
      };
      const stdout = { write } as unknown as NodeJS.WritableStream;
      const result = await runProxy({
        upstream: upstream.url,
        until: Promise.resolve(),
        reporters: ['json', 'junit'],
        output,
        quiet: true,
        stdout,
        stderr: stdout,
      });
      expect(result.files).toEqual([join(output, 'junit.xml')]);
      expect(printed).toMatch(/Report not written whole: json: Error: EISDIR/);
      expect(readFileSync(join(output, 'junit.xml'), 'utf8')).toContain('<testsuites');
      expect(result.exitCode).toBe(1);
    } finally {
      rmSync(output, { recursive: true, force: true });
    }
  });
});
