// Webhooks for integrators: `svc-sandbox trigger CALL_RECEIVED --url URL` and the opt-in HTTP
// route send a delivery built from the seed, valid against the contract's schema, to a receiver,
// and report its status. Nothing the contract does not show (signature, retries) is sent.
import { spawnSync } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, loadSeedFile } from '../src/index.js';
import { runTrigger } from '../src/trigger-command.js';
import { callReceivedDelivery, WEBHOOK_TRIGGER_PATH } from '../src/webhook-trigger.js';

const bundle = createRequire(import.meta.url)('@svc/openapi/openapi.json') as Record<string, unknown>;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema(bundle, 'contract');
const schemaRef = (
  bundle as {
    webhooks: {
      CALL_RECEIVED: { post: { requestBody: { content: { 'application/json': { schema: { $ref: string } } } } } };
    };
  }
).webhooks.CALL_RECEIVED.post.requestBody.content['application/json'].schema.$ref;
const validateDelivery = ajv.compile({ $ref: `contract${schemaRef}` });

interface Received {
  method: string | undefined;
  headers: IncomingHttpHeaders;
  body: unknown;
}
let receiver: Server;
let receiverUrl: string;
let received: Received[] = [];
let answer = 200;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      received.push({ method: request.method, headers: request.headers, body: JSON.parse(text) });
      // One connection per delivery: a kept-alive socket that this server closes while it is idle
      // can meet the next delivery on a loaded machine (ECONNRESET), a race of the test's reuse.
      response.writeHead(answer, { connection: 'close' }).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
beforeEach(() => {
  received = [];
  answer = 200;
});

const seed = loadSeedFile();
const team = seed.teams.find((candidate) => candidate.calls.length > 0)!;

describe('CALL_RECEIVED deliveries built from the seed', () => {
  it.each(team.calls.map((call) => [call.id, call]))('are valid against the contract for %s', (_id, call) => {
    const delivery = callReceivedDelivery(team, call);
    expect(validateDelivery(delivery), JSON.stringify(validateDelivery.errors)).toBe(true);
    expect(delivery.body.start_date).toBe(call.started_at);
    expect(delivery.body.transcriptions).toHaveLength(call.transcript.length);
    // The description gives OUTBOUND only; the inbound value is never invented.
    expect(delivery.body.type).toBe(call.direction === 'OUTBOUND' ? 'OUTBOUND' : undefined);
  });
});

describe('svc-sandbox trigger', () => {
  const output = () => {
    const lines = { out: '', err: '' };
    return { lines, io: { out: (text: string) => (lines.out += text), err: (text: string) => (lines.err += text) } };
  };

  it('POSTs { topic, body } to the receiver, with no invented headers, and reports 200', async () => {
    const { lines, io } = output();
    expect(await runTrigger(['CALL_RECEIVED', '--url', receiverUrl, '--call', 'cll-2Vb7cX1z'], io)).toBe(0);
    expect(received).toHaveLength(1);
    const [delivery] = received;
    expect(delivery!.method).toBe('POST');
    expect(delivery!.headers['content-type']).toBe('application/json');
    expect(Object.keys(delivery!.headers).filter((name) => /signature|hmac|retry|webhook/i.test(name))).toEqual([]);
    expect(validateDelivery(delivery!.body)).toBe(true);
    expect(delivery!.body).toMatchObject({ topic: 'CALL_RECEIVED', body: { type: 'OUTBOUND' } });
    expect(lines.out).toContain(`POST ${receiverUrl}: 200 (acknowledged)`);
  });

  it('reports a receiver that does not answer 200, once, without retrying', async () => {
    answer = 500;
    const { lines, io } = output();
    expect(await runTrigger(['CALL_RECEIVED', '--url', receiverUrl], io)).toBe(1);
    expect(received).toHaveLength(1);
    expect(lines.out).toContain(': 500 (not acknowledged');
  });

  it('reports an unreachable receiver', async () => {
    // A port that was free a moment ago: nothing listens there.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { lines, io } = output();
    expect(await runTrigger(['CALL_RECEIVED', '--url', `http://127.0.0.1:${port}/hook`], io)).toBe(1);
    expect(lines.out).toMatch(/no answer \(ECONNREFUSED\)/);
  });

  it('refuses usage errors with exit code 2', async () => {
    for (const argv of [
      [],
      ['SMS_RECEIVED', '--url', receiverUrl],
      ['CALL_RECEIVED'],
      ['CALL_RECEIVED', '--url', 'ftp://x'],
      ['CALL_RECEIVED', '--url', receiverUrl, '--call', 'cll-none'],
    ]) {
      const { lines, io } = output();
      expect(await runTrigger(argv, io), argv.join(' ')).toBe(2);
      expect(lines.err).toContain('Usage: svc-sandbox trigger');
    }
    expect(received).toEqual([]);
  });

  it('runs as a subcommand of the bin', () => {
    const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
    const run = spawnSync(process.execPath, [cli, 'trigger', '--help'], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('CALL_RECEIVED');
    expect(run.stdout).toContain('signature');
  });
});

describe(`POST ${WEBHOOK_TRIGGER_PATH}`, () => {
  const KEY = 'sbx_demo_full_access';
  const trigger = (sandbox: ReturnType<typeof createSandbox>, body: unknown, headers: Record<string, string> = {}) =>
    sandbox.fetch(
      new Request(`http://sandbox${WEBHOOK_TRIGGER_PATH}`, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'Content-Type': 'application/json', Authorization: `Api-Key ${KEY}`, ...headers },
      }),
    );
  const codeOf = async (response: Response) => ((await response.json()) as { error: { code: string } }).error.code;

  it('is off unless enabled: the API answers it as an unknown endpoint', async () => {
    const response = await trigger(createSandbox(), { topic: 'CALL_RECEIVED', url: receiverUrl });
    expect(response.status).toBe(404);
    expect(await codeOf(response)).toBe('ENDPOINT_NOT_FOUND');
    expect(received).toEqual([]);
  });

  it('sends the delivery and reports the receiver status when enabled', async () => {
    const sandbox = createSandbox({ enableWebhookTrigger: true });
    const response = await trigger(sandbox, { topic: 'CALL_RECEIVED', url: receiverUrl, call_id: 'cll-9Jd3kW2p' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      data: {
        topic: 'CALL_RECEIVED',
        url: receiverUrl,
        call_id: 'cll-9Jd3kW2p',
        delivered: true,
        status: 200,
        acknowledged: true,
      },
    });
    expect(received).toHaveLength(1);
    expect(validateDelivery(received[0]!.body)).toBe(true);
  });

  it('refuses a bad request with the documented 400 and sends nothing', async () => {
    const sandbox = createSandbox({ enableWebhookTrigger: true });
    for (const [body, code] of [
      [{ topic: 'NOPE', url: receiverUrl }, 'INVALID_REQUEST'],
      [{ topic: 'CALL_RECEIVED' }, 'INVALID_REQUEST'],
      [{ topic: 'CALL_RECEIVED', url: 'file:///etc/passwd' }, 'INVALID_REQUEST'],
      [{ topic: 'CALL_RECEIVED', url: receiverUrl, call_id: 7 }, 'INVALID_REQUEST'],
      ['x', 'INVALID_REQUEST_BODY'],
    ] as const) {
      const response = await trigger(sandbox, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await codeOf(response), JSON.stringify(body)).toBe(code);
    }
    expect(received).toEqual([]);
  });

  it('answers a client gone mid-body with the documented 400, never an exception', async () => {
    const sandbox = createSandbox({ enableWebhookTrigger: true });
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode('{"topic":'));
        controller.error(new Error('the client went away'));
      },
    });
    const response = await sandbox.fetch(
      new Request(`http://sandbox${WEBHOOK_TRIGGER_PATH}`, {
        method: 'POST',
        body,
        duplex: 'half',
        headers: { 'Content-Type': 'application/json', Authorization: `Api-Key ${KEY}` },
      } as RequestInit),
    );
    expect([response.status, await codeOf(response)]).toEqual([400, 'INVALID_REQUEST_BODY']);
    expect(received).toEqual([]);
  });

  it('needs application/json and a key of the sandbox', async () => {
    const sandbox = createSandbox({ enableWebhookTrigger: true });
    const body = { topic: 'CALL_RECEIVED', url: receiverUrl };
    const plain = await trigger(sandbox, body, { 'Content-Type': 'text/plain' });
    expect([plain.status, await codeOf(plain)]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    const noKey = await sandbox.fetch(
      new Request(`http://sandbox${WEBHOOK_TRIGGER_PATH}`, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'Content-Type': 'application/json' },
      }),
    );
    expect([noKey.status, await codeOf(noKey)]).toEqual([401, 'UNAUTHORIZED']);
    const madeUp = await trigger(sandbox, body, { Authorization: 'Api-Key made_up_key' });
    expect([madeUp.status, await codeOf(madeUp)]).toEqual([401, 'API_KEY_INVALID']);
    expect(received).toEqual([]);
  });

  it('counts against the same write limit as the API', async () => {
    const sandbox = createSandbox({ enableWebhookTrigger: true, rateLimit: { writesPerSecond: 2 }, clock: () => 0 });
    const body = { topic: 'CALL_RECEIVED', url: receiverUrl };
    expect((await trigger(sandbox, body)).status).toBe(200);
    // An API write of the same key spends the same budget.
    const write = await sandbox.fetch(
      new Request('http://sandbox/v2/api/threads', {
        method: 'POST',
        body: '{}',
        headers: { 'Content-Type': 'application/json', Authorization: `Api-Key ${KEY}` },
      }),
    );
    expect(write.status).toBe(400);
    const limited = await trigger(sandbox, body);
    expect([limited.status, await codeOf(limited)]).toEqual([429, 'RATE_LIMIT_EXCEEDED']);
    expect(received).toHaveLength(1);
  });

  it('names no network error of a receiver that cannot be reached: not delivered, no status', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const sandbox = createSandbox({ enableWebhookTrigger: true });
    const url = `http://127.0.0.1:${port}/webhooks`;
    const response = await trigger(sandbox, { topic: 'CALL_RECEIVED', url });
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      data: {
        topic: 'CALL_RECEIVED',
        url,
        call_id: expect.any(String),
        delivered: false,
        status: null,
        acknowledged: false,
      },
    });
    expect(text).not.toMatch(/ECONNREFUSED|refused|fetch failed/i);
  });
});
