import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSvcClient, type SvcApiError, type SvcLogEvent, unwrap } from '../src/index.js';
import { errorBody, type FaultServer, startFaultServer } from './support/fault-server.js';

const apiKey = 'sk_live_DoNotLeakThisKey_42';
let server: FaultServer;

beforeAll(async () => {
  server = await startFaultServer({ apiKey, conversations: 1 });
});
afterAll(() => server.close());

/** A logger that writes every call, arguments and all, as text, like a real sink would. */
function captureLogger() {
  const lines: string[] = [];
  const write =
    (level: string) =>
    (...args: unknown[]) =>
      lines.push(
        `${level} ${args.map((arg) => (typeof arg === 'string' ? arg : inspect(arg, { depth: 10 }))).join(' ')}`,
      );
  return { lines, logger: { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') } };
}

describe('logging', () => {
  it('logs requests, responses and retries, and never the key', async () => {
    const { lines, logger } = captureLogger();
    const events: SvcLogEvent[] = [];
    const svc = createSvcClient({
      baseUrl: server.url,
      apiKey,
      logger,
      onLog: (event) => events.push(event),
      retryBaseDelayMs: 1,
    });

    server.inject('GET', '/v2/api/conversations', {
      kind: 'respond',
      ...errorBody(500, 'server_error', 'INTERNAL_SERVER_ERROR', 'Boom.'),
    });
    await svc.GET('/v2/api/conversations');
    server.inject('POST', '/v2/api/threads', { kind: 'drop-after-commit' });
    await svc.POST('/v2/api/threads', { body: { content: 'x', entity_type: 'CALL', entity_id: 'cll-1' } });

    // A wrong key whose 401 message echoes the header, key included: the message must be scrubbed too.
    const wrongKey = 'sk_live_WrongKeyAlsoSecret_7';
    const other = createSvcClient({ baseUrl: server.url, apiKey: wrongKey, logger });
    const denied = await other.GET('/v2/api/conversations');
    expect(denied.response.status).toBe(401);
    expect(JSON.stringify(denied.error)).not.toContain(wrongKey);
    expect(JSON.stringify(denied.error)).toContain('[REDACTED]');
    const error = (() => {
      try {
        unwrap(denied);
      } catch (caught) {
        return caught as SvcApiError;
      }
    })();
    expect(error?.message).not.toContain(wrongKey);

    const output = lines.join('\n');
    // The log is real: every kind of event is there, with the redacted header.
    expect(output).toMatch(/^debug svc: GET .*\/v2\/api\/conversations \(attempt 1\)/m);
    expect(output).toMatch(/^warn svc: GET .* -> 500 \(attempt 1\)/m);
    expect(output).toMatch(/^warn svc: GET .* retrying as attempt 2 in \d+ ms \(status 500\)/m);
    expect(output).toMatch(/^debug svc: GET .* -> 200 \(attempt 2\)/m);
    expect(output).toMatch(/^error svc: POST .*\/v2\/api\/threads \(attempt 1\) failed/m);
    expect(output).toMatch(/^debug svc: POST .* -> 201 .*\[replayed\]/m);
    expect(output).toContain("authorization: '[REDACTED]'");
    expect(events.map((event) => event.type)).toEqual(
      expect.arrayContaining(['request', 'response', 'retry', 'error']),
    );
    // The numbers in the events are the ones in the messages: the first attempt is 1.
    const getEvents = events.filter((event) => event.method === 'GET' && event.url.endsWith('/v2/api/conversations'));
    expect(getEvents.map((event) => `${event.type}:${event.attempt}`)).toEqual([
      'request:1',
      'response:1',
      'retry:2',
      'request:2',
      'response:2',
    ]);
    // And the secrets are nowhere.
    expect(output).not.toContain(apiKey);
    expect(output).not.toContain(wrongKey);
    expect(JSON.stringify(events)).not.toContain(apiKey);
  });

  it('survives a logger that throws', async () => {
    const svc = createSvcClient({
      baseUrl: server.url,
      apiKey,
      logger: {
        debug: () => {
          throw new Error('broken sink');
        },
      },
    });
    expect((await svc.GET('/v2/api/conversations')).response.status).toBe(200);
  });
});
