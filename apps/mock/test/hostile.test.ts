// The mock's copies of the hostile-input hazards: validation by spec-runtime before Prism (a
// 30 000-id batch is one BATCH_TOO_LARGE), numbers and Prefer read without backtracking patterns
// and never echoed whole, `//host/path` read as a path, malformed HTTP answered with the
// documented body.
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { MAX_FIELD_ERRORS } from '@svc/spec-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePrefer } from '../src/index.js';
import { Harness, KEY } from './support/harness.js';

let harness: Harness;
beforeAll(async () => {
  harness = await Harness.start();
}, 60_000);
afterAll(() => harness.close());

describe('hostile bodies and values', () => {
  it('a batch of 16 000 ids (just under the body cap) is BATCH_TOO_LARGE, in a small body', async () => {
    const sent = await harness.send('POST', '/v2/api/conversations/items/batch', {
      body: { ids: Array.from({ length: 16_000 }, () => 'x') },
    });
    expect([sent.status, sent.body.error.code]).toEqual([400, 'BATCH_TOO_LARGE']);
    expect(sent.text.length).toBeLessThan(1000);
  });

  it('many failing fields list at most the cap', async () => {
    const sent = await harness.send('POST', '/v2/api/conversations/items/batch', {
      body: { ids: Array.from({ length: 100 }, (_, i) => `bad-${i}`) },
    });
    expect(sent.body.error.code).toBe('INVALID_REQUEST');
    expect(sent.body.error.errors).toHaveLength(MAX_FIELD_ERRORS);
  });

  it('16 000 digits and a letter as page size is INVALID_PAGE_SIZE with the value clipped', async () => {
    const sent = await harness.send('GET', `/v2/api/conversations?size=${'1'.repeat(16_000)}x`);
    expect(sent.body.error.code).toBe('INVALID_PAGE_SIZE');
    expect(sent.text.length).toBeLessThan(1000);
  });

  it('a malformed Prefer token is named clipped, never echoed whole', async () => {
    const token = `code=4 ${'4'.repeat(15_000)}`;
    const sent = await harness.send('GET', '/v2/api/tags', { headers: { Prefer: token }, notApiResponse: true });
    expect(sent.body.error).toMatchObject({ code: 'INVALID_REQUEST', param: 'Prefer' });
    expect(sent.text.length).toBeLessThan(1000);
    const parsed = parsePrefer(`code=${'4'.repeat(15_000)}`);
    expect(parsed.ok === false && parsed.message.length).toBeLessThan(300);
  });

  it('reads Prefer tokens as before', () => {
    expect(parsePrefer(' code = "404" ; example=THREAD_NOT_FOUND,,')).toEqual({
      ok: true,
      value: { code: 404, example: 'THREAD_NOT_FOUND' },
    });
    for (const bad of ['code="404', 'code=4"04"', 'co de=404', '=404', 'code=40 4'])
      expect(parsePrefer(bad).ok, bad).toBe(false);
  });
});

describe('the request target', () => {
  it('//evil.example/v2/api/users is a path, not a host: ENDPOINT_NOT_FOUND over HTTP', async () => {
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: harness.running.port,
          path: '//evil.example/v2/api/users',
          headers: { Authorization: `Api-Key ${KEY}` },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(404);
    expect(JSON.parse(body).error.code).toBe('ENDPOINT_NOT_FOUND');
  });
});

describe('malformed HTTP', () => {
  it.each([
    ['a header with a bad byte', 'GET /v2/api/tags HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n'],
    [
      'two Content-Lengths',
      'POST /v2/api/threads HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
    ],
    ['a 100 kB URL', `GET /v2/api/tags?q=${'a'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`],
  ])('%s gets 400 INVALID_REQUEST_BODY with a request_id', async (_name, bytes) => {
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(harness.running.port, '127.0.0.1');
      let received = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => (received += chunk));
      socket.on('end', () => resolve(received));
      socket.on('error', reject);
      socket.end(bytes);
    });
    expect(text.startsWith('HTTP/1.1 400 ')).toBe(true);
    const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
    expect(body.error).toMatchObject({ code: 'INVALID_REQUEST_BODY', type: 'validation_error' });
    expect(body.error.request_id).toMatch(/^req_[A-Za-z0-9]{12}$/);
  });
});

describe('a non-ASCII X-Request-Id', () => {
  it('comes back as the same bytes in the header and as the same text in the body', async () => {
    const id = Buffer.from('req-é-中', 'utf8');
    const response = await new Promise<Buffer>((resolve, reject) => {
      const socket = connect(harness.running.port, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('end', () => resolve(Buffer.concat(chunks)));
      socket.on('error', reject);
      socket.end(
        Buffer.concat([
          Buffer.from(
            `GET /v2/api/threads/cth-5Lm1zX7e HTTP/1.1\r\nHost: x\r\nAuthorization: Api-Key ${KEY}\r\nPrefer: code=404\r\nConnection: close\r\nX-Request-Id: `,
            'latin1',
          ),
          id,
          Buffer.from('\r\n\r\n', 'latin1'),
        ]),
      );
    });
    const split = response.indexOf('\r\n\r\n');
    // Header names are case-insensitive (the kernel writes them in lower case); the value's bytes are compared as sent.
    const line = response
      .subarray(0, split)
      .toString('latin1')
      .split('\r\n')
      .find((l) => l.toLowerCase().startsWith('x-request-id:'));
    expect(Buffer.from(line?.slice('x-request-id:'.length).trim() ?? '', 'latin1')).toEqual(id);
    expect(JSON.parse(response.subarray(split + 4).toString('utf8')).error.request_id).toBe('req-é-中');
  });
});
