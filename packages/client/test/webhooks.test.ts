import { createRequire } from 'node:module';
import type { CallReceived } from '@svc/api-types';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  EVERY_PROBLEM_MAX_VALUES,
  isWebhookTopic,
  MAX_PROBLEMS,
  parseWebhook,
  webhookTopics,
} from '../src/webhooks.js';

// The contract's own example delivery: the parser must accept what the contract documents.
const bundle = createRequire(import.meta.url)('@svc/openapi/openapi.json') as {
  webhooks: Record<
    string,
    { post: { requestBody: { content: { 'application/json': { examples: Record<string, { value: unknown }> } } } } }
  >;
};
const examples = Object.entries(bundle.webhooks).flatMap(([topic, item]) =>
  Object.values(item.post.requestBody.content['application/json'].examples).map((example) => ({
    topic,
    value: example.value,
  })),
);
const callReceived = structuredClone(examples.find((example) => example.topic === 'CALL_RECEIVED')!.value) as {
  topic: string;
  body: Record<string, unknown>;
};

describe('parseWebhook', () => {
  it('knows exactly the topics of the contract', () => {
    expect(webhookTopics).toEqual(Object.keys(bundle.webhooks));
    expect(isWebhookTopic('CALL_RECEIVED')).toBe(true);
    expect(isWebhookTopic('SMS_RECEIVED')).toBe(false);
  });

  it.each(examples)('accepts the contract example of $topic, as text, bytes or a parsed value', ({ topic, value }) => {
    for (const payload of [JSON.stringify(value), new TextEncoder().encode(JSON.stringify(value)), value]) {
      const result = parseWebhook(payload);
      expect(result.error).toBeUndefined();
      expect(result.ok && result.event.topic).toBe(topic);
    }
  });

  it('returns a typed event', () => {
    const result = parseWebhook(callReceived);
    if (!result.ok) throw new Error(result.error.message);
    if (result.event.topic === 'CALL_RECEIVED') {
      expectTypeOf(result.event.body).toEqualTypeOf<CallReceived>();
      expect(result.event.body.from_number).toBe(callReceived.body.from_number);
    }
  });

  it('refuses a body that breaks the schema in the API’s own dialect: field, code, a sentence', () => {
    const broken = structuredClone(callReceived);
    broken.body.from_number = '415 555 0123';
    broken.body.transcriptions = [{ source: 'ROBOT', time: 'yesterday', text: 'hi' }];
    const result = parseWebhook(broken);
    expect(result.ok).toBe(false);
    expect(result.error?.kind).toBe('invalid-event');
    expect(result.error?.topic).toBe('CALL_RECEIVED');
    const byField = new Map(result.error?.problems.map((problem) => [problem.field, problem]));
    expect(byField.get('body.from_number')).toEqual({
      field: 'body.from_number',
      code: 'INVALID_PHONE_FORMAT',
      message:
        'body.from_number must be a phone number in E.164: `+`, country code and number, with no spaces or dashes; got "415 555 0123"',
      path: '/body/from_number',
    });
    expect(byField.get('body.transcriptions[0].source')).toEqual({
      field: 'body.transcriptions[0].source',
      code: 'INVALID_REQUEST',
      message: 'body.transcriptions[0].source must be one of USER, AGENT; got "ROBOT"',
      path: '/body/transcriptions/0/source',
    });
    expect(byField.get('body.transcriptions[0].time')?.message).toBe(
      'body.transcriptions[0].time must be an ISO 8601 date-time; got "yesterday"',
    );
    expect(result.error?.message).toBe(
      `The CALL_RECEIVED delivery does not match the contract: ${result.error?.problems[0]?.message} (and 2 more).`,
    );
  });

  it('never prints a raw pattern', () => {
    const result = parseWebhook({
      topic: 'CALL_RECEIVED',
      body: { start_date: '2026-13-01', from_number: '0', to: '+0', transcriptions: [{ time: '1 pm' }] },
    });
    const text = [result.error?.message, ...(result.error?.problems.map((p) => p.message) ?? [])].join('\n');
    expect(result.error?.problems.map((p) => `${p.field} ${p.code}`)).toEqual([
      'body.start_date INVALID_REQUEST',
      'body.from_number INVALID_PHONE_FORMAT',
      'body.to INVALID_PHONE_FORMAT',
      'body.transcriptions[0].source INVALID_REQUEST',
      'body.transcriptions[0].text INVALID_REQUEST',
      'body.transcriptions[0].time INVALID_REQUEST',
    ]);
    for (const raw of ['^', '$', '\\d', '[0-9]', '{1,14}', 'must match pattern']) expect(text).not.toContain(raw);
  });

  it('names a missing field as required, and a value of the wrong type by its type', () => {
    expect(parseWebhook({ topic: 'CALL_RECEIVED' }).error?.problems).toEqual([
      { field: 'body', code: 'INVALID_REQUEST', message: 'body is required', path: '/' },
    ]);
    const wrongType = parseWebhook({ topic: 'CALL_RECEIVED', body: { length_in_minutes: 'long' } });
    expect(wrongType.error?.problems[0]?.message).toBe('body.length_in_minutes must be a number; got "long"');
  });

  it('checks the recording URL as a URL', () => {
    const result = parseWebhook({ ...callReceived, body: { ...callReceived.body, recording_url: 'not a url' } });
    expect(result.error?.problems).toEqual([
      {
        field: 'body.recording_url',
        code: 'INVALID_REQUEST',
        message: 'body.recording_url must be a valid URI; got "not a url"',
        path: '/body/recording_url',
      },
    ]);
  });

  it('tells apart bad JSON, a non-event and an unknown topic, without throwing', () => {
    expect(parseWebhook('{"topic": ').error?.kind).toBe('invalid-json');
    expect(parseWebhook(new Uint8Array([0xff, 0x7b])).error?.kind).toBe('invalid-json');
    for (const value of [null, 42, [], { body: {} }, { topic: 7, body: {} }])
      expect(parseWebhook(value).error?.kind).toBe('not-an-event');
    const unknown = parseWebhook({ topic: 'SMS_RECEIVED', body: {} });
    expect(unknown.error).toMatchObject({ kind: 'unknown-topic', topic: 'SMS_RECEIVED', problems: [] });
    // An unknown topic lists the known ones, read from the contract.
    expect(unknown.error?.message).toBe(
      `The contract describes no webhook topic "SMS_RECEIVED"; known: ${Object.keys(bundle.webhooks).join(', ')}.`,
    );
    // A topic the contract knows, with no body: the schema requires one.
    expect(parseWebhook({ topic: 'CALL_RECEIVED' }).error?.kind).toBe('invalid-event');
  });

  it('lists every problem of a small broken delivery, at most MAX_PROBLEMS of them', () => {
    const transcriptions = Array.from({ length: 40 }, () => ({ source: 'NOBODY', time: 'never', text: 1 }));
    const result = parseWebhook({ topic: 'CALL_RECEIVED', body: { transcriptions } });
    expect(result.error?.problems).toHaveLength(MAX_PROBLEMS);
    expect(result.error?.message).toMatch(/\(and \d+ more\)\.$/);
  });

  it.each([EVERY_PROBLEM_MAX_VALUES, 5_000, 500_000])(
    'reads a bounded number of the %i broken items of a huge delivery, and names the first',
    (length) => {
      // Listing every problem is quadratic in the invalid items (Ajv's allErrors); a large delivery
      // is answered from its first problem. The items the validators read are counted, not timed.
      let reads = 0;
      const transcriptions = new Proxy(
        Array.from({ length }, () => ({ source: 'NOBODY', time: 'never', text: 'hi' })),
        {
          get(target, key, receiver) {
            if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
            return Reflect.get(target, key, receiver);
          },
        },
      );
      const result = parseWebhook({ topic: 'CALL_RECEIVED', body: { transcriptions } });
      expect(result.error?.problems.map((p) => p.field)).toEqual(['body.transcriptions[0].source']);
      expect(reads).toBeLessThanOrEqual(2);
    },
  );
});

describe('parseWebhook takes a body however the framework gives it', () => {
  const text = JSON.stringify(callReceived);
  const bytes = new TextEncoder().encode(text);
  const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes]);

  it.each([
    ['a string', text],
    ['a string with a byte-order mark', `\uFEFF${text}`],
    ['a Uint8Array', bytes],
    ['a Uint8Array with a byte-order mark', withBom],
    ['an ArrayBuffer (request.arrayBuffer())', withBom.slice().buffer],
    ['a DataView', new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)],
    ['a view into a larger buffer', new Uint8Array([0x20, ...bytes, 0x7b]).subarray(1, bytes.length + 1)],
    ['a Buffer', Buffer.from(text)],
    ['the parsed value', callReceived],
  ])('accepts a valid delivery as %s', (_, payload) => {
    const result = parseWebhook(payload);
    expect(result.error).toBeUndefined();
    expect(result.event?.topic).toBe('CALL_RECEIVED');
  });

  it('refuses broken bytes in any of those forms as invalid JSON', () => {
    const broken = new TextEncoder().encode('{"topic":');
    for (const payload of [broken, broken.buffer, new DataView(broken.buffer), '\uFEFF\uFEFF{}'])
      expect(parseWebhook(payload).error?.kind).toBe('invalid-json');
  });
});
