// The request log (issue 38): bounded by count and by bytes, redacted (the key's name, never the
// key), looked up at GET /__sandbox/requests/<id> behind the reset route's guard, told to
// listeners in the same turn as the answer, and named by every error the sandbox sends.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../src/app.js';
import { exchangeFilter, statusFilter, tailLine } from '../src/logs-command.js';
import { type LoggedExchange, RequestLog } from '../src/request-log.js';
import { REQUESTS_PATH } from '../src/request-log-route.js';
import { type RunningSandbox, startSandboxServer } from '../src/server.js';

const KEY = 'sbx_demo_full_access';
const auth = (key = KEY) => ({ Authorization: `Api-Key ${key}` });

async function answer(response: Response | Promise<Response>) {
  const sent = await response;
  const text = await sent.text();
  return { status: sent.status, headers: Object.fromEntries(sent.headers), body: text ? JSON.parse(text) : undefined };
}

function entry(seq: number, requestId: string, bytes: number): LoggedExchange {
  const message = { headers: {}, body: undefined, bodyBytes: 0, whole: true };
  return {
    seq,
    requestId,
    at: '2026-01-01T00:00:00Z',
    operation: undefined,
    keyName: undefined,
    request: { ...message, method: 'GET', path: '/' },
    response: { ...message, status: 200, errorCode: undefined },
    bytes,
  };
}

describe('the log keeps the last exchanges within its bounds', () => {
  it('forgets the oldest past the count', () => {
    const log = new RequestLog({ maxEntries: 3, maxBytes: 1_000_000 });
    for (let i = 1; i <= 5; i++) log.add(entry(log.takeSeq(), `req_${i}`, 10));
    expect(log.size).toBe(3);
    expect(log.find('req_2')).toBeUndefined();
    expect(log.find('req_3')?.seq).toBe(3);
    expect(log.find('req_5')?.seq).toBe(5);
  });

  it('forgets the oldest past the bytes, and never keeps one larger than the whole budget', () => {
    const log = new RequestLog({ maxEntries: 100, maxBytes: 1000 });
    for (let i = 1; i <= 4; i++) log.add(entry(log.takeSeq(), `req_${i}`, 300));
    expect([log.size, log.bytes]).toEqual([3, 900]);
    expect(log.find('req_1')).toBeUndefined();
    log.add(entry(log.takeSeq(), 'req_huge', 5000));
    expect(log.find('req_huge')).toBeUndefined();
    expect(log.bytes).toBe(900);
  });

  it('answers a request id sent twice with the latest exchange, and keeps it while the latest stays', () => {
    const log = new RequestLog({ maxEntries: 2, maxBytes: 1_000_000 });
    log.add(entry(log.takeSeq(), 'mine', 10));
    log.add(entry(log.takeSeq(), 'mine', 10));
    log.add(entry(log.takeSeq(), 'other', 10));
    // The first 'mine' is gone; the second still answers for the id.
    expect(log.find('mine')?.seq).toBe(2);
  });

  it('stays within both bounds as it wraps around many times, and still finds the latest of each id', () => {
    const log = new RequestLog({ maxEntries: 4, maxBytes: 100 });
    for (let i = 1; i <= 25; i++) log.add(entry(log.takeSeq(), `req_${i % 7}`, i % 5 === 0 ? 60 : 20));
    // Entries 22..25 fit the count (4) but not the bytes: 25 alone is 60 of 100, so 24 and 23 (20 each) stay, 22 goes.
    expect([log.size, log.bytes]).toEqual([3, 100]);
    expect([log.find('req_4')?.seq, log.find('req_3')?.seq, log.find('req_2')?.seq]).toEqual([25, 24, 23]);
    expect(log.find('req_1')).toBeUndefined(); // 22 and 15 are gone; no older entry answers for the id
    log.clear();
    expect([log.size, log.bytes, log.find('req_4')]).toEqual([0, 0, undefined]);
    log.add(entry(log.takeSeq(), 'after', 10));
    expect([log.size, log.find('after')?.seq]).toEqual([1, 26]);
  });

  it('tells each listener, and a listener that throws costs nothing', () => {
    const log = new RequestLog();
    const seen: string[] = [];
    log.subscribe(() => {
      throw new Error('stdout closed');
    });
    const stop = log.subscribe((x) => seen.push(x.requestId));
    log.add(entry(log.takeSeq(), 'a', 10));
    stop();
    log.add(entry(log.takeSeq(), 'b', 10));
    expect(seen).toEqual(['a']);
    expect(log.size).toBe(2);
  });
});

describe('what the log keeps of an exchange', () => {
  it('holds the request and the answer, redacted: the key never, its name instead', async () => {
    const sandbox = createSandbox({ clock: () => Date.UTC(2026, 0, 1) });
    const sent = await answer(
      sandbox.fetch(
        new Request(`http://sandbox/v2/api/threads?echo=${KEY}`, {
          method: 'POST',
          headers: { ...auth(), 'Content-Type': 'application/json', 'X-Request-Id': 'mine-1' },
          body: JSON.stringify({ entity_type: 'CALL', entity_id: 'cll-none', content: `my key is ${KEY}` }),
        }),
      ),
    );
    const lookedUp = await answer(
      sandbox.fetch(new Request(`http://sandbox${REQUESTS_PATH}/mine-1`, { headers: auth() })),
    );
    expect(lookedUp.status).toBe(200);
    const data = lookedUp.body.data;
    expect(data).toMatchObject({
      request_id: 'mine-1',
      operation: 'createThread',
      key_name: expect.any(String),
      request: { method: 'POST', headers: { 'content-type': 'application/json', 'x-request-id': 'mine-1' } },
      response: { status: sent.status, error_code: sent.body.error.code, body: sent.body },
    });
    expect(data.request.headers.authorization).toBe(`Api-Key <redacted:${data.key_name}>`);
    expect(data.request.body.content).toBe(`my key is <redacted:${data.key_name}>`);
    expect(JSON.stringify(data)).not.toContain(KEY);
  });

  it("keeps only the key's name of a request that sends no other logged header, and nothing of one without a key", async () => {
    const sandbox = createSandbox();
    const logged = async (headers: Record<string, string>, query = '') => {
      const sent = await sandbox.fetch(new Request(`http://sandbox/v2/api/users${query}`, { headers }));
      return sandbox.requestLog!.find(sent.headers.get('X-Request-Id')!)!;
    };
    const keyed = await logged(auth());
    const madeUp = await logged(auth('sbx_made_up_key'), '?echo=sbx_made_up_key');
    const none = await logged({});
    expect(keyed.request.headers).toEqual({ authorization: `Api-Key <redacted:${keyed.keyName}>` });
    expect(madeUp.request.headers).toEqual({ authorization: 'Api-Key <redacted:unknown key>' });
    expect(none.request.headers).toEqual({});
    expect(madeUp.request.path).toBe('/v2/api/users?echo=<redacted:unknown key>');
    expect(JSON.stringify(madeUp)).not.toContain('sbx_made_up_key');
  });

  it('keeps the first bytes of a large answer, and says how large it was', async () => {
    const sandbox = createSandbox({ requestLog: { bodyBytes: 100 } });
    const read = await sandbox.fetch(
      new Request('http://sandbox/v2/api/users', { headers: { ...auth(), 'X-Request-Id': 'big' } }),
    );
    const whole = (await read.text()).length;
    expect(whole).toBeGreaterThan(100);
    const kept = sandbox.requestLog!.find('big')!;
    expect(kept.response.body!.length).toBe(100);
    expect(kept.response.bodyBytes).toBe(whole);
    const served = await answer(sandbox.fetch(new Request(`http://sandbox${REQUESTS_PATH}/big`, { headers: auth() })));
    expect(served.body.data.response).toMatchObject({ body: null, body_truncated: true, body_bytes: whole });
    expect(served.body.data.response.body_text).toHaveLength(100);
  });

  it("logs a sandbox route's refusal, but not its answer (the contract config's demo keys)", async () => {
    const sandbox = createSandbox({ serveContractConfig: true });
    await sandbox.fetch(
      new Request('http://sandbox/__sandbox/contract-config', { headers: { 'X-Request-Id': 'cfg' } }),
    );
    const kept = sandbox.requestLog!.find('cfg')!;
    expect(kept.response.status).toBe(200);
    expect(kept.response.body).toBeUndefined();
    expect(kept.response.bodyOmitted).toMatch(/not kept/);
  });

  it('is off when asked, and then no route and no suggestion name it', async () => {
    const sandbox = createSandbox({ requestLog: false });
    const missing = await answer(
      sandbox.fetch(new Request('http://sandbox/v2/api/threads/cth-none', { headers: auth() })),
    );
    expect(missing.body.error.suggestion ?? '').not.toContain(REQUESTS_PATH);
    const route = await answer(sandbox.fetch(new Request(`http://sandbox${REQUESTS_PATH}/x`, { headers: auth() })));
    expect([route.status, route.body.error.code]).toEqual([404, 'ENDPOINT_NOT_FOUND']);
  });
});

describe('every error the sandbox sends says how to look its request up', () => {
  it('in its suggestion, where it has no next step of its own, and the id it names resolves', async () => {
    const sandbox = createSandbox();
    const missing = await answer(
      sandbox.fetch(new Request('http://sandbox/v2/api/threads/cth-none', { headers: auth() })),
    );
    const id = missing.body.error.request_id;
    expect(missing.body.error.suggestion).toContain(`GET ${REQUESTS_PATH}/${id}`);
    const lookedUp = await answer(
      sandbox.fetch(new Request(`http://sandbox${REQUESTS_PATH}/${id}`, { headers: auth() })),
    );
    expect(lookedUp.body.data.response.error_code).toBe('THREAD_NOT_FOUND');
  });

  it("keeps the catalogue's own next step where it has one", async () => {
    const sandbox = createSandbox();
    const bad = await answer(
      sandbox.fetch(new Request('http://sandbox/v2/api/users', { headers: { Authorization: 'Bearer x' } })),
    );
    expect(bad.body.error.suggestion).toBe(sandbox.contract.catalogue.get(bad.body.error.code)!.suggestion);
  });
});

describe('the lookup route is guarded as the reset route is', () => {
  let running: RunningSandbox;
  beforeAll(async () => {
    running = await startSandboxServer({ port: 0, rateLimit: false });
  }, 30_000);
  afterAll(() => running.close());

  interface Got {
    status: number;
    body: { data: { response: { status: number } }; error: { code: string; message: string } };
  }

  function get(path: string, headers: Record<string, string>): Promise<Got> {
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: running.port, path, headers });
      req.on('error', reject);
      req.on('response', (res: IncomingMessage) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      });
      req.end();
    });
  }
  const host = () => `127.0.0.1:${running.port}`;

  it('answers a sandbox key at its own address, with no Content-Type needed for a GET', async () => {
    await get('/v2/api/threads/cth-none', { ...auth(), Host: host(), 'X-Request-Id': 'guarded-1' });
    const found = await get(`${REQUESTS_PATH}/guarded-1`, { ...auth(), Host: host() });
    expect([found.status, found.body.data.response.status]).toEqual([200, 404]);
  });

  it.each([
    ['no key', {}, 401, 'UNAUTHORIZED'],
    ['a made-up key', auth('sbx_made_up_key'), 401, 'API_KEY_INVALID'],
    ['a trial key', auth('sbx_demo_trial'), 403, 'API_KEY_TRIAL_NOT_ALLOWED'],
    ['a page of another origin', { ...auth(), Origin: 'http://evil.example' }, 403, 'FORBIDDEN'],
  ])('refuses %s with the documented body', async (_, headers, status, code) => {
    const refused = await get(`${REQUESTS_PATH}/guarded-1`, { ...headers, Host: host() });
    expect([refused.status, refused.body.error.code]).toEqual([status, code]);
  });

  it('refuses a rebound Host', async () => {
    const refused = await get(`${REQUESTS_PATH}/guarded-1`, { ...auth(), Host: 'attacker.example' });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'FORBIDDEN']);
  });

  it('says so for an id it does not hold, and answers only one segment under its path', async () => {
    const none = await get(`${REQUESTS_PATH}/req_000000000000`, { ...auth(), Host: host() });
    expect([none.status, none.body.error.code]).toEqual([404, 'ENDPOINT_NOT_FOUND']);
    expect(none.body.error.message).toMatch(/holds no request/);
    const deeper = await get(`${REQUESTS_PATH}/a/b`, { ...auth(), Host: host() });
    expect([deeper.status, deeper.body.error.code]).toEqual([404, 'ENDPOINT_NOT_FOUND']);
    expect(deeper.body.error.message).not.toMatch(/holds no request/);
  });

  it('tells a listener of an exchange before its answer reaches the client (logs tail)', async () => {
    const seen: string[] = [];
    const stop = running.sandbox.requestLog!.subscribe((x) => seen.push(x.requestId));
    await get('/v2/api/users', { ...auth(), Host: host(), 'X-Request-Id': 'told-1' });
    stop();
    expect(seen).toContain('told-1');
  });
});

describe('logs tail shows what its filters ask for', () => {
  const sandbox = createSandbox();
  const at = (status: number, operation?: string) => ({
    ...entry(1, 'req_abcdefabcdef', 0),
    operation,
    keyName: 'demo',
    response: {
      headers: {},
      body: undefined,
      bodyBytes: 0,
      whole: true,
      status,
      errorCode: status >= 400 ? 'X' : undefined,
    },
  });

  it('by status class or code, comma-separated', () => {
    const shown = statusFilter('4xx,500');
    if (typeof shown !== 'function') throw new Error(shown.error);
    expect([200, 404, 429, 500, 503].map(shown)).toEqual([false, true, true, true, false]);
    expect(statusFilter('4XX ')).toBeTypeOf('function');
    expect(statusFilter('40')).toEqual({ error: expect.stringContaining('"40"') });
  });

  it('by operation, an operationId of the contract', () => {
    const shown = exchangeFilter({ operation: 'getThread', status: '4xx' }, sandbox.contract);
    if (typeof shown !== 'function') throw new Error(shown.error);
    expect([shown(at(404, 'getThread')), shown(at(200, 'getThread')), shown(at(404, 'getUser'))]).toEqual([
      true,
      false,
      false,
    ]);
    expect(exchangeFilter({ operation: 'nope' }, sandbox.contract)).toEqual({ error: expect.stringContaining('nope') });
  });

  it('as text or as JSON lines, with the key name and never a control character', () => {
    const x = { ...at(404, 'getThread'), requestId: 'id\u001b[2J' };
    expect(tailLine(x, false)).toBe('2026-01-01T00:00:00Z GET / 404 X id\\x1b[2J (key demo)\n');
    expect(JSON.parse(tailLine(x, true))).toEqual({
      at: '2026-01-01T00:00:00Z',
      method: 'GET',
      path: '/',
      status: 404,
      error_code: 'X',
      request_id: 'id\u001b[2J',
      operation: 'getThread',
      key_name: 'demo',
    });
  });
});
