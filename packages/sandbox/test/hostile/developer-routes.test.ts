// The sandbox's developer routes against a hostile web page and a hostile client (issue 25): a
// page of another origin, a DNS-rebound Host, a text/plain form post, and a body far over the
// trigger's 4 KiB cap, which is refused after reading the cap, not the whole body. Over real
// HTTP, answers awaited as events.
import { type IncomingMessage, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESET_PATH } from '../../src/app.js';
import { type RunningSandbox, startSandboxServer } from '../../src/server.js';
import { WEBHOOK_TRIGGER_PATH } from '../../src/webhook-trigger.js';

let running: RunningSandbox;
const KEY = 'sbx_demo_full_access';
const BODY = JSON.stringify({ topic: 'CALL_RECEIVED', url: 'http://127.0.0.1:9/webhooks' });

beforeAll(async () => {
  running = await startSandboxServer({ port: 0, rateLimit: false, enableWebhookTrigger: true, enableReset: true });
}, 30_000);
afterAll(() => running.close());

interface Answer {
  status: number;
  code: string | undefined;
}

/** One request over node:http (so Host and Origin are as given); `body` may be written without ending. */
function send(
  path: string,
  headers: Record<string, string>,
  body: (req: ReturnType<typeof request>) => void = (req) => req.end(BODY),
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: running.port, path, method: 'POST', headers });
    req.on('error', reject);
    req.on('response', (res: IncomingMessage) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk));
      res.on('end', () => {
        const parsed = JSON.parse(text) as { error?: { code?: string } };
        resolve({ status: res.statusCode ?? 0, code: parsed.error?.code });
        req.destroy();
      });
    });
    body(req);
  });
}

const json = { 'Content-Type': 'application/json', Authorization: `Api-Key ${KEY}` };

describe('a web page cannot drive the developer routes', () => {
  it('refuses another origin, with the documented 403', async () => {
    for (const path of [WEBHOOK_TRIGGER_PATH, RESET_PATH])
      expect(await send(path, { ...json, Origin: 'http://evil.example' }), path).toEqual({
        status: 403,
        code: 'FORBIDDEN',
      });
  });

  it('refuses a Host that is not the address it listens on (DNS rebinding)', async () => {
    for (const path of [WEBHOOK_TRIGGER_PATH, RESET_PATH])
      expect(await send(path, { ...json, Host: `evil.example:${running.port}` }), path).toEqual({
        status: 403,
        code: 'FORBIDDEN',
      });
  });

  it('refuses the text/plain post a page may send without asking, and a request without a key', async () => {
    for (const path of [WEBHOOK_TRIGGER_PATH, RESET_PATH]) {
      expect(await send(path, { ...json, 'Content-Type': 'text/plain' }), path).toEqual({
        status: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
      });
      expect(await send(path, { 'Content-Type': 'application/json' }), path).toEqual({
        status: 401,
        code: 'UNAUTHORIZED',
      });
    }
  });

  it('answers its own origin and the loopback names of its port', async () => {
    const receiverGone = await send(WEBHOOK_TRIGGER_PATH, {
      ...json,
      Origin: running.url,
      Host: `localhost:${running.port}`,
    });
    expect(receiverGone).toEqual({ status: 200, code: undefined });
  });
});

describe('a hostile client', () => {
  it('is refused after the 4 KiB cap, without the rest of its body being awaited', async () => {
    // A chunked body that never ends: the answer can only come if the route stops reading at the cap.
    const answer = await send(WEBHOOK_TRIGGER_PATH, json, (req) => {
      req.write(Buffer.alloc(64 * 1024, 0x20));
    });
    expect(answer).toEqual({ status: 400, code: 'INVALID_REQUEST_BODY' });
  });

  it('is refused unread when it declares 600 MB', async () => {
    const answer = await send(WEBHOOK_TRIGGER_PATH, { ...json, 'Content-Length': String(600 * 1024 * 1024) }, (req) =>
      req.write('{'),
    );
    expect(answer).toEqual({ status: 400, code: 'INVALID_REQUEST_BODY' });
    expect(running.sandbox.internalErrors).toBe(0);
  });
});
