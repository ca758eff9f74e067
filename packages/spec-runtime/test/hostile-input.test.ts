// Hostile input costs what ordinary input costs: validation stops at the violation that decides
// the code, errors[] is capped, numbers are read without backtracking, and no pattern applied to
// request input can backtrack (checked by recheck, a ReDoS analyser). No timing here: the
// benchmark (pnpm bench) measures time; these tests pin the behaviour that keeps it bounded.
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { check } from 'recheck';
import { describe, expect, it } from 'vitest';
import { API_KEY_SCHEME } from '../src/api-key.js';
import { isDecimal } from '../src/decimal.js';
import { MAX_FIELD_ERRORS } from '../src/errors.js';
import { JSON_MEDIA_TYPE } from '../src/json-body.js';
import { EVERY_ERROR_MAX_NODES, hasAtMostNodes } from '../src/schema-validator.js';
import { bundle, contract, op } from './support/contract.js';

describe('numbers on the wire', () => {
  it('reads decimals the way the old pattern did', () => {
    for (const yes of ['0', '20', '+3', '-4', '1.5', '1.', '.5', '2e3', '2E-3', '-1.5e+10'])
      expect(isDecimal(yes), yes).toBe(true);
    for (const no of ['', '+', '.', 'e3', '1e', '1e+', '1x', 'x1', '1.2.3', '--1', ' 1', '0x10', 'Infinity', 'NaN'])
      expect(isDecimal(no), no).toBe(false);
  });

  it('answers 16 000 digits and a letter with the documented code', () => {
    const size = `${'1'.repeat(16_000)}x`;
    const [v, ...rest] = contract().validateRequest(op('listConversations'), { query: new URLSearchParams({ size }) });
    expect(rest).toEqual([]);
    expect(v).toMatchObject({ field: 'size', code: 'INVALID_PAGE_SIZE' });
    // The message quotes the value clipped, never whole.
    expect(v!.message.length).toBeLessThan(300);
  });
});

describe('validation of a hostile body', () => {
  const batch = op('batchGetConversationItems');

  it('stops at maxItems: 30 000 ids are one BATCH_TOO_LARGE, not 30 000 violations', () => {
    const violations = contract().validateRequest(batch, { body: { ids: Array.from({ length: 30_000 }, () => 'x') } });
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatchObject({ field: 'ids', keyword: 'maxItems', code: 'BATCH_TOO_LARGE' });
    expect(contract().errorFor(violations, batch)).toMatchObject({ code: 'BATCH_TOO_LARGE', status: 400 });
  });

  it('still lists every failing field of a small body', () => {
    const violations = contract().validateRequest(batch, { body: { ids: ['x', 'cll-1', 'y'] } });
    expect(violations.map((v) => v.field)).toEqual(['ids[0]', 'ids[2]']);
  });

  it('answers a large body from its first violation', () => {
    const ids = Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? 'x' : 'cll-1'));
    const body = { ids, padding: Array.from({ length: EVERY_ERROR_MAX_NODES }, () => 0) };
    const violations = contract().validateRequest(batch, { body });
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatchObject({ field: 'ids[0]', code: 'INVALID_ITEM_ID' });
  });

  it('takes the value count the caller knows instead of walking the body', () => {
    const small = { ids: ['x', 'cll-1', 'y'] };
    // The same three-id body, said to hold more values than the limit: answered from its first violation.
    const told = contract().validateRequest(batch, { body: small, bodyValueCount: EVERY_ERROR_MAX_NODES + 1 });
    expect(told.map((v) => v.field)).toEqual(['ids[0]']);
    const exact = contract().validateRequest(batch, { body: small, bodyValueCount: 5 });
    expect(exact.map((v) => v.field)).toEqual(['ids[0]', 'ids[2]']);
  });

  it('counts nodes only as far as it needs to', () => {
    expect(hasAtMostNodes({ a: [1, 2, { b: 3 }] }, 6)).toBe(true);
    expect(hasAtMostNodes({ a: [1, 2, { b: 3 }] }, 5)).toBe(false);
    expect(hasAtMostNodes('x', 1)).toBe(true);
    expect(
      hasAtMostNodes(
        Array.from({ length: 1_000_000 }, () => 0),
        EVERY_ERROR_MAX_NODES,
      ),
    ).toBe(false);
  });
});

/** An array of `length` copies of `item` that counts how many of its items are read. */
function countingArray(length: number, item: unknown): { array: unknown[]; reads: () => number } {
  let reads = 0;
  const array = new Proxy(
    Array.from({ length }, () => item),
    {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver);
      },
    },
  );
  return { array, reads: () => reads };
}

describe('validation work is bounded whatever the size of the value', () => {
  // Ajv with allErrors is quadratic in an array's invalid items; the validator decides from the
  // first error past EVERY_ERROR_MAX_NODES values. What it reads is counted here, not timed.
  const getThread = op('getThread');
  const threadOf = (comments: unknown[]) => ({
    data: { id: 'cth-5Lm1zX7e', comments },
  });

  it.each([300, 20_000, 200_000])('reads a bounded number of the %i invalid comments of a thread', (length) => {
    const { array, reads } = countingArray(length, { id: 1 });
    const problems = contract().checkResponse(getThread, 200, { 'content-type': 'application/json' }, threadOf(array));
    expect(problems.filter((p) => p.kind === 'body')).toHaveLength(1);
    expect(reads()).toBeLessThanOrEqual(2);
  });

  it('still lists every error of a small invalid response', () => {
    const { array, reads } = countingArray(3, { id: 1 });
    const [problem] = contract()
      .checkResponse(getThread, 200, { 'content-type': 'application/json' }, threadOf(array))
      .filter((p) => p.kind === 'body');
    expect(problem?.message).toMatch(/and \d+ more/);
    // Every item read by both validators, each of them once by the node count.
    expect(reads()).toBeGreaterThanOrEqual(3);
  });
});

describe('errors[] is capped', () => {
  const operation = op('createThread');
  const many = Array.from({ length: 60 }, (_, i) => ({
    location: 'body' as const,
    field: `f${i}`,
    keyword: 'type',
    message: `f${i} is wrong`,
    code: null,
  }));

  it(`lists at most ${MAX_FIELD_ERRORS} fields and says how many failed, in the documented shape`, () => {
    const choice = contract().errorFor(many, operation);
    expect(choice.code).toBe('INVALID_REQUEST');
    expect(choice.errors).toHaveLength(MAX_FIELD_ERRORS);
    expect(choice.errors!.map((e) => e.field)).toEqual(many.slice(0, MAX_FIELD_ERRORS).map((v) => v.field));
    expect(choice.message).toContain(`first ${MAX_FIELD_ERRORS} of 60`);
    const built = contract().buildError(choice.code, {
      requestId: 'req_abcdefABCDEF',
      message: choice.message,
      errors: choice.errors!,
    });
    const headers = {
      'X-Request-Id': 'req_abcdefABCDEF',
      'X-RateLimit-Limit': '5',
      'X-RateLimit-Remaining': '4',
      'X-RateLimit-Reset': '1',
    };
    expect(contract().validateResponse(operation, built.status, headers, built.body)).toEqual([]);
  });

  it('keeps the plain message when nothing was left out', () => {
    expect(contract().errorFor(many.slice(0, 3), operation).message).toBe('Request validation failed');
  });
});

describe('patterns applied to request input cannot backtrack', () => {
  // Every pattern of the contract (Ajv compiles them with the u flag), the formats it uses that
  // are plain patterns, the media-type pattern of the body reader and the Authorization scheme.
  const patterns = new Map<string, string>();
  const formats = new Set<string>();
  (function walk(node: unknown): void {
    if (Array.isArray(node)) node.forEach(walk);
    else if (typeof node === 'object' && node !== null) {
      const record = node as Record<string, unknown>;
      if (typeof record.pattern === 'string') patterns.set(record.pattern, 'u');
      if (typeof record.format === 'string') formats.add(record.format);
      Object.values(record).forEach(walk);
    }
  })(bundle);
  for (const name of formats) {
    const format = (fullFormats as Record<string, unknown>)[name];
    if (format instanceof RegExp) patterns.set(format.source, format.flags);
  }
  patterns.set(JSON_MEDIA_TYPE.source, JSON_MEDIA_TYPE.flags);
  patterns.set(API_KEY_SCHEME.source, API_KEY_SCHEME.flags);

  it('finds the contract patterns to check', () => {
    expect(patterns.size).toBeGreaterThan(10);
  });

  it.each([...patterns])(
    '%s is linear',
    async (source, flags) => {
      const diagnostics = await check(source, flags);
      expect(diagnostics.status, JSON.stringify(diagnostics)).toBe('safe');
    },
    60_000,
  );

  it('recheck does flag the number pattern this package used to have', async () => {
    expect((await check('^[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?$', '')).status).toBe('vulnerable');
  }, 60_000);
});

describe('nesting is refused before parsing', () => {
  it('counts brackets outside strings only', async () => {
    const { nestedDeeperThan } = await import('../src/json-body.js');
    expect(nestedDeeperThan('{"a":[[1]]}', 3)).toBe(false);
    expect(nestedDeeperThan('{"a":[[[1]]]}', 3)).toBe(true);
    expect(nestedDeeperThan(`{"a":"${'['.repeat(100)}"}`, 3)).toBe(false);
    expect(nestedDeeperThan(`{"a":"\\"${'['.repeat(100)}"}`, 3)).toBe(false);
    expect(nestedDeeperThan(`[${'{"a":1},'.repeat(1000)}{"b":2}]`, 2)).toBe(false);
  });

  it('counts the values of the text in the same pass, exactly as a walk of the parsed body would', async () => {
    const { parseJsonBody, scanJsonText } = await import('../src/json-body.js');
    const walk = (v: unknown): number =>
      Array.isArray(v)
        ? 1 + v.reduce((n: number, c) => n + walk(c), 0)
        : typeof v === 'object' && v !== null
          ? 1 + Object.values(v).reduce((n: number, c) => n + walk(c), 0)
          : 1;
    const texts = [
      '{}',
      '[]',
      '{ "a" : [ ] , "b" : { } }',
      '{"a":[1,2,{"b":3}]}',
      '{"a":"x, [y] {z}","b":"\\",","c":[[],[[]],{"d":null}]}',
      '\n{\n\t"a": [\n  1 ,\r\n  true\n ]\n}\n',
      JSON.stringify(
        Object.fromEntries(
          Array.from({ length: 300 }, (_, i) => [`f${i}`, i % 3 === 0 ? [] : i % 3 === 1 ? { k: [i] } : 'v,]']),
        ),
      ),
    ];
    for (const text of texts) {
      const value = JSON.parse(text);
      expect(scanJsonText(text, 32), text).toEqual({ valueCount: walk(value) });
    }
    expect(scanJsonText('[[[1]]]', 2)).toBe('too-deep');
    const parsed = parseJsonBody(new TextEncoder().encode('{"ids":["a","b"]}'), 'application/json', true);
    expect(parsed).toMatchObject({ ok: true, valueCount: 4 });
  });

  it('answers 400 000 nested arrays with INVALID_REQUEST_BODY', async () => {
    const { parseJsonBody } = await import('../src/json-body.js');
    const text = `{"a":${'['.repeat(400_000)}${']'.repeat(400_000)}}`;
    expect(parseJsonBody(new TextEncoder().encode(text), 'application/json', true)).toMatchObject({
      ok: false,
      code: 'INVALID_REQUEST_BODY',
      message: expect.stringContaining('nested deeper than 32'),
    });
  });
});

describe('headerText', () => {
  it('reads header bytes that form UTF-8 as UTF-8 and leaves anything else as it came', async () => {
    const { headerText } = await import('../src/request-id.js');
    const asBytes = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
    expect(headerText(asBytes('req-é-中'))).toBe('req-é-中');
    expect(headerText('req_abcdefABCDEF')).toBe('req_abcdefABCDEF');
    expect(headerText('\u00e9')).toBe('\u00e9'); // a lone latin1 byte is not UTF-8: kept
    expect(headerText('中')).toBe('中'); // already text
  });
});

describe('the number pattern', () => {
  it('is linear', async () => {
    const { DECIMAL } = await import('../src/decimal.js');
    expect((await check(DECIMAL.source, DECIMAL.flags)).status).toBe('safe');
  }, 60_000);
});
