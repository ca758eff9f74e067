import { describe, expect, it } from 'vitest';
import { checkJsonRequest, DEFAULT_BODY_LIMITS, parseJsonBody, unsupportedContentType } from '../src/json-body.js';
import { generateRequestId, requestIdFor } from '../src/request-id.js';
import { contract, op } from './support/contract.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const JSON_TYPE = 'application/json; charset=utf-8';

describe('parseJsonBody', () => {
  it('accepts a JSON object, and an absent optional body', () => {
    expect(parseJsonBody(bytes('{"a":[1,{"b":2}]}'), JSON_TYPE, true)).toEqual({
      ok: true,
      value: { a: [1, { b: 2 }] },
      valueCount: 5,
    });
    expect(parseJsonBody(new Uint8Array(0), null, false)).toEqual({ ok: true, value: undefined });
  });

  it.each([
    ['another content type', bytes('a=1'), 'application/x-www-form-urlencoded', 'UNSUPPORTED_MEDIA_TYPE'],
    ['a body without a content type', bytes('{}'), null, 'UNSUPPORTED_MEDIA_TYPE'],
    ['an empty required body', new Uint8Array(0), JSON_TYPE, 'INVALID_REQUEST_BODY'],
    ['more bytes than allowed', 'too-large' as const, JSON_TYPE, 'INVALID_REQUEST_BODY'],
    ['bytes that are not UTF-8', new Uint8Array([0x7b, 0xff, 0x7d]), JSON_TYPE, 'INVALID_REQUEST_BODY'],
    ['broken JSON', bytes('{"a":'), JSON_TYPE, 'INVALID_REQUEST_BODY'],
    ['JSON that is not an object', bytes('[1,2]'), JSON_TYPE, 'INVALID_REQUEST_BODY'],
    ['nesting past the limit', bytes(`${'['.repeat(40)}${']'.repeat(40)}`), JSON_TYPE, 'INVALID_REQUEST_BODY'],
  ])('refuses %s', (_name, body, contentType, code) => {
    expect(parseJsonBody(body, contentType, true)).toMatchObject({ ok: false, code });
  });

  it('caps bodies under the largest one the contract bounds: 4,000 escaped surrogate pairs of thread content', () => {
    const content = '\\ud83d\\ude00'.repeat(4000); // 12 bytes of JSON text per character
    const text = `{"entity_type":"CALL","entity_id":"cll-6Mn3bV8q","content":"${content}"}`;
    expect(text.length).toBeLessThanOrEqual(DEFAULT_BODY_LIMITS.maxBytes);
    expect(text.length).toBeGreaterThan(DEFAULT_BODY_LIMITS.maxBytes * 0.7); // and not far under it
    const read = parseJsonBody(bytes(text), JSON_TYPE, true);
    expect(read).toMatchObject({ ok: true });
    const body = (read as { value: Record<string, unknown> }).value;
    expect(contract().validateRequest(op('createThread'), { body })).toEqual([]);
    // One more character is a valid JSON body the contract refuses as too long.
    const over = { ...body, content: `${body.content as string}x` };
    expect(contract().validateRequest(op('createThread'), { body: over })).toMatchObject([
      { code: 'NOTE_CONTENT_TOO_LONG' },
    ]);
  });

  it('refuses a non-JSON content type before any byte is read', () => {
    expect(unsupportedContentType('text/plain')).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect(unsupportedContentType('application/json')).toBeUndefined();
    expect(unsupportedContentType(undefined)).toBeUndefined();
  });
});

describe('request ids', () => {
  it('are req_ + 12 alphanumerics unless the client sent one', () => {
    expect(generateRequestId()).toMatch(/^req_[A-Za-z0-9]{12}$/);
    expect(new Set(Array.from({ length: 1000 }, generateRequestId)).size).toBe(1000);
    expect(requestIdFor('trace-42')).toBe('trace-42');
    expect(requestIdFor('')).toMatch(/^req_/);
    expect(requestIdFor(null)).toMatch(/^req_/);
  });
});

describe('checkJsonRequest (what the body worker runs)', () => {
  const task = (body: string, operationId = 'createThread') => ({
    bytes: bytes(body),
    contentType: 'application/json',
    required: true,
    limits: DEFAULT_BODY_LIMITS,
    operationId,
    params: {},
    query: '',
    headers: {},
  });

  it('answers a valid request with its body', () => {
    const body = { entity_type: 'CALL', entity_id: 'cll-9Jd3kW2p', content: 'hi' };
    expect(checkJsonRequest(contract(), task(JSON.stringify(body)))).toEqual({ ok: true, value: body, valueCount: 4 });
  });

  it('answers an invalid request with the error errorFor chooses', () => {
    const body = { entity_type: 'CALL', entity_id: 'cll-9Jd3kW2p', content: ' ' };
    const violations = contract().validateRequest(op('createThread'), { body });
    expect(checkJsonRequest(contract(), task(JSON.stringify(body)))).toEqual({
      ok: false,
      invalid: contract().errorFor(violations, op('createThread')),
    });
  });

  it('refuses a body that is not JSON before validating', () => {
    expect(checkJsonRequest(contract(), task('{"content":'))).toMatchObject({
      ok: false,
      code: 'INVALID_REQUEST_BODY',
    });
  });
});
