// Malformed HTTP and hang-ups against a real server: Node's clientError hook answers with the
// documented error body, and a client that goes away mid-upload is not an internal error.
import { connect, type Socket } from 'node:net';
import { MAX_FIELD_ERRORS } from '@svc/spec-runtime';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RunningSandbox, startSandboxServer } from '../../src/server.js';

let running: RunningSandbox;

beforeAll(async () => {
  running = await startSandboxServer({ port: 0, rateLimit: false });
}, 30_000);

afterAll(() => running.close());

/** Sends raw bytes and reads until the server closes the connection. */
function raw(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(running.port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
    socket.end(bytes);
  });
}

function parse(response: string) {
  const [head, body] = response.split('\r\n\r\n') as [string, string];
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = new Headers(
    lines.map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()] as [string, string]),
  );
  return { status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(body) };
}

describe('HEAD on a running sandbox', () => {
  it("answers GET's status and headers without the body", async () => {
    const request = (method: string) =>
      `${method} /v2/api/tags HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Request-Id: req_headheadhead\r\nAuthorization: Api-Key sbx_demo_full_access\r\n\r\n`;
    const split = (answer: string) => {
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      return { head: head.split('\r\n').filter((line) => !line.startsWith('Date:')), body };
    };
    const get = split(await raw(request('GET')));
    const head = split(await raw(request('HEAD')));
    expect(get.head[0]).toBe('HTTP/1.1 200 OK');
    expect(JSON.parse(get.body).data.length).toBeGreaterThan(0);
    expect(head).toEqual({ head: get.head, body: '' });
  });
});

describe('malformed HTTP gets the documented error body', () => {
  const cases: Array<[string, string]> = [
    ['a header with a bad byte', 'GET /v2/api/tags HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n'],
    [
      'two Content-Lengths',
      'POST /v2/api/threads HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
    ],
    ['a 100 kB URL', `GET /v2/api/tags?q=${'a'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`],
    ['a request line that is not HTTP', 'HELLO\r\n\r\n'],
    ['no Host header', 'GET /v2/api/tags HTTP/1.1\r\nAuthorization: Api-Key sbx_demo_full_access\r\n\r\n'],
    ['two Host headers', 'GET /v2/api/tags HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n'],
  ];
  it.each(cases)('%s', async (_name, bytes) => {
    const { status, headers, body } = parse(await raw(bytes));
    expect(status).toBe(400);
    expect(headers.get('content-type')).toBe('application/json');
    expect(body.error).toMatchObject({ code: 'INVALID_REQUEST_BODY', type: 'validation_error', retryable: false });
    expect(body.error.request_id).toMatch(/^req_[A-Za-z0-9]{12}$/);
    expect(headers.get('x-request-id')).toBe(body.error.request_id);
    for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
      expect(headers.get(name)).toMatch(/^\d+$/);
    expect(JSON.stringify(body)).not.toMatch(/stack|at .*\.js/);
  });
});

describe('a non-ASCII X-Request-Id', () => {
  it('comes back as the same bytes in the header and as the same text in the body, not encoded twice', async () => {
    const id = Buffer.from('req-é-中', 'utf8');
    const head = Buffer.from(
      'GET /v2/api/threads/cth-nope HTTP/1.1\r\nHost: x\r\nAuthorization: Api-Key sbx_demo_full_access\r\nConnection: close\r\nX-Request-Id: ',
      'latin1',
    );
    const response = await new Promise<Buffer>((resolve, reject) => {
      const socket = connect(running.port, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('end', () => resolve(Buffer.concat(chunks)));
      socket.on('error', reject);
      socket.end(Buffer.concat([head, id, Buffer.from('\r\n\r\n', 'latin1')]));
    });
    const split = response.indexOf('\r\n\r\n');
    // Header names are case-insensitive; the value's bytes are compared as sent.
    const line = response
      .subarray(0, split)
      .toString('latin1')
      .split('\r\n')
      .find((l) => l.toLowerCase().startsWith('x-request-id:'));
    expect(Buffer.from(line?.slice('x-request-id:'.length).trim() ?? '', 'latin1')).toEqual(id);
    const body = response.subarray(split + 4).toString('utf8');
    const json = JSON.parse(body.slice(body.indexOf('{'), body.lastIndexOf('}') + 1));
    expect(json.error.request_id).toBe('req-é-中');
  });
});

describe('a client that hangs up mid-upload', () => {
  it('is not counted as an internal error, and nothing is logged', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const socket: Socket = connect(running.port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      'POST /v2/api/threads HTTP/1.1\r\nHost: x\r\nAuthorization: Api-Key sbx_demo_full_access\r\nIdempotency-Key: hang-up\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"entity_type":',
    );
    // Once the server holds the request (its key is in flight), hang up.
    const send = () =>
      fetch(`${running.url}/v2/api/threads`, {
        method: 'POST',
        headers: {
          Authorization: 'Api-Key sbx_demo_full_access',
          'Idempotency-Key': 'hang-up',
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ entity_type: 'CALL', entity_id: 'cll-0000', content: 'x' }),
      });
    await vi.waitFor(async () => expect((await send()).status).toBe(409), { timeout: 10_000, interval: 20 });
    socket.destroy();
    // The abandoned request releases its key: the same key is then answered on its merits (404).
    await vi.waitFor(async () => expect((await send()).status).toBe(404), { timeout: 10_000, interval: 20 });
    expect(running.sandbox.internalErrors).toBe(0);
    expect(logged).not.toHaveBeenCalled();
    logged.mockRestore();
  });
});

describe('a large body (parsed and validated in the kernel worker thread)', () => {
  const post = (path: string, body: string) =>
    fetch(`${running.url}${path}`, {
      method: 'POST',
      body,
      headers: { Authorization: 'Api-Key sbx_demo_full_access', 'Content-Type': 'application/json' },
    });

  it('is stored whole when valid', async () => {
    // 4,000 characters (the documented maximum) written as 24 KB of escapes.
    const body = `{"entity_type":"CALL","entity_id":"cll-6Mn3bV8q","content":"${'\\u00e9'.repeat(4000)}"}`;
    expect(body.length).toBeGreaterThan(16 * 1024);
    const created = await post('/v2/api/threads', body);
    expect(created.status).toBe(201);
    const { data } = await created.json();
    const read = await fetch(`${running.url}/v2/api/threads/${data.id}`, {
      headers: { Authorization: 'Api-Key sbx_demo_full_access' },
    });
    expect((await read.json()).data.comments[0].content).toBe('é'.repeat(4000));
  });

  it('is refused with the documented code and a capped errors[] when invalid', async () => {
    const ids = Array.from({ length: 100 }, (_, i) => `bad-${i}${'x'.repeat(200)}`);
    const response = await post('/v2/api/conversations/items/batch', JSON.stringify({ ids }));
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.errors).toHaveLength(MAX_FIELD_ERRORS);
    expect(error.errors[0].code).toBe('INVALID_ITEM_ID');
  });
});
