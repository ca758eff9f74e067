// A body over the cap is answered at once and the connection closed: the server does not read
// (and discard) the rest of the upload, however much the client declared.
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { loadContract } from '@svc/spec-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type Listening, listen } from '../src/index.js';

const require = createRequire(import.meta.url);
const contract = loadContract(require('@svc/openapi/openapi.json'));
const MAX = 1000;
let server: Listening;
let answered = 0;

beforeAll(async () => {
  const kernel = createKernel({
    contract,
    rateLimit: 'off',
    maxBodyBytes: MAX,
    findKey: (token) => ({ key: token, scopes: Object.keys(contract.scopes) }),
    answer: () => {
      answered++;
      return { status: 200, body: { data: [] } };
    },
  });
  server = await listen(kernel.fetch, contract, 0, '127.0.0.1', kernel.serveNode);
});
afterAll(() => server.close());

/** Sends the head and `sent` bytes of a body declared `declared` long, never ending the upload. */
function upload(
  declared: number,
  sent: number,
  contentType = 'application/json',
): Promise<{ response: string; closedByServer: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(server.port, '127.0.0.1');
    let response = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => (response += chunk));
    socket.on('error', () => undefined);
    // The client never ends its side: only the server can close the connection.
    socket.on('close', () => resolve({ response, closedByServer: true }));
    socket.write(
      `POST /v2/api/conversations/items/batch HTTP/1.1\r\nHost: x\r\nAuthorization: Api-Key k\r\nContent-Type: ${contentType}\r\nContent-Length: ${declared}\r\n\r\n`,
    );
    socket.write(`{"ids":[${'"x",'.repeat(sent / 4)}`.slice(0, sent));
  });
}

describe('a body over the cap', () => {
  it('is answered with the documented 400 and Connection: close before the upload ends', async () => {
    const { response, closedByServer } = await upload(10 * 1024 * 1024, 4 * MAX);
    const [head = '', body = ''] = response.split('\r\n\r\n');
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(head.toLowerCase()).toContain('\r\nconnection: close');
    expect(JSON.parse(body).error).toMatchObject({
      code: 'INVALID_REQUEST_BODY',
      message: `The request body is larger than ${MAX} bytes.`,
    });
    expect(closedByServer).toBe(true);
    expect(answered).toBe(0);
  });

  it('leaves a body within the cap on a kept-alive connection', async () => {
    const body = '{"ids":["cnv-1"]}';
    const response = await new Promise<string>((resolve) => {
      const socket = connect(server.port, '127.0.0.1');
      let text = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk) => {
        text += chunk;
        if (!text.includes('\r\n\r\n')) return;
        socket.destroy();
        resolve(text);
      });
      socket.write(
        `POST /v2/api/conversations/items/batch HTTP/1.1\r\nHost: x\r\nAuthorization: Api-Key k\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
    });
    expect(response.toLowerCase()).not.toContain('connection: close');
    expect(response.toLowerCase()).toContain('connection: keep-alive');
  });
});

describe('a body refused before it is read', () => {
  it('(a Content-Type other than JSON) is answered 415 with Connection: close before the upload ends', async () => {
    const { response, closedByServer } = await upload(10 * 1024 * 1024, 4 * MAX, 'text/plain');
    const [head = '', body = ''] = response.split('\r\n\r\n');
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 415 Unsupported Media Type');
    expect(head.toLowerCase()).toContain('\r\nconnection: close');
    expect(JSON.parse(body).error).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect(closedByServer).toBe(true);
    expect(answered).toBe(0);
  });
});
