import { describe, expect, it } from 'vitest';
import {
  bundle,
  catalogue,
  errorNarrowing,
  errorResponseConstraint,
  type Json,
  operations,
  resolve,
  statusesOfType,
} from './support/spec.js';

const byCode = new Map(catalogue.map((entry) => [entry.code, entry]));
const label = (o: { method: string; path: string }) => `${o.method.toUpperCase()} ${o.path}`;

function errorResponses(op: Json): [number, Json][] {
  return Object.entries<Json>(op.responses)
    .filter(([status]) => /^[45]\d\d$/.test(status))
    .map(([status, response]) => [Number(status), resolve(response)]);
}

describe('the error catalogue', () => {
  it('defines each code once', () => {
    const codes = catalogue.map((entry) => entry.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes.length).toBeGreaterThanOrEqual(77);
  });

  it('gives each code one status and a type that belongs to that status', () => {
    for (const { code, status, type } of catalogue) {
      expect(Object.keys(statusesOfType), `${code} has an unknown type ${type}`).toContain(type);
      expect(statusesOfType[type], code).toContain(status);
    }
  });

  it('maps each status to exactly one error type', () => {
    const typesOfStatus = new Map<number, string[]>();
    for (const [type, statuses] of Object.entries(statusesOfType)) {
      for (const status of statuses) typesOfStatus.set(status, [...(typesOfStatus.get(status) ?? []), type]);
    }
    for (const [status, types] of typesOfStatus) expect(types, String(status)).toHaveLength(1);
  });

  it('is the schema of error.code, so a code outside it is invalid', () => {
    const codeSchema = errorNarrowing(bundle.components.schemas.ApiError).code;
    expect(codeSchema.enum).toHaveLength(catalogue.length);
  });

  it('is one plain enum whose x-enum-varnames, x-enum-descriptions and x-svc-codes follow it code by code', () => {
    const schema = bundle.components.schemas.ErrorCode;
    expect(schema.oneOf).toBeUndefined();
    expect(new Set(schema.enum).size).toBe(schema.enum.length);
    expect(schema['x-enum-varnames']).toEqual(schema.enum);
    expect(schema['x-enum-descriptions']).toHaveLength(schema.enum.length);
    for (const description of schema['x-enum-descriptions']) expect(description).toMatch(/\S/);
    expect(Object.keys(schema['x-svc-codes'])).toEqual(schema.enum);
  });

  it('has every code either returned by a documented operation, API-wide, or marked as not shown', () => {
    const used = new Set(
      operations.flatMap(({ op }) => errorResponses(op).flatMap(([, r]) => errorResponseConstraint(r).codes)),
    );
    const apiWide = new Set(
      Object.entries<Json>(bundle.components.schemas.ErrorCode['x-svc-codes'])
        .filter(([, e]) => e['x-svc-api-wide'])
        .map(([code]) => code),
    );
    const stranded = catalogue.filter((e) => !used.has(e.code) && !apiWide.has(e.code) && !e.unspecified);
    expect(stranded.map((e) => e.code)).toEqual([]);
  });
});

describe('each operation', () => {
  it.each(operations.map((o) => [label(o), o] as const))('%s documents 401, 403, 429 and 500', (_name, { op }) => {
    for (const status of ['401', '403', '429', '500']) expect(Object.keys(op.responses)).toContain(status);
    expect(Object.keys(op.responses)).not.toContain('default');
  });

  it.each(operations.map((o) => [label(o), o] as const))(
    '%s lists only catalogue codes of the response status, with the matching type',
    (_name, { op }) => {
      for (const [status, response] of errorResponses(op)) {
        const { codes, type } = errorResponseConstraint(response);
        expect(codes.length, `${status} lists no code`).toBeGreaterThan(0);
        for (const code of codes) {
          expect(byCode.get(code)?.status, `${code} under ${status} (undefined: not in the catalogue)`).toBe(status);
          expect(type, `${status} type`).toBe(byCode.get(code)!.type);
        }
      }
    },
  );

  it.each(operations.filter((o) => o.op.requestBody).map((o) => [label(o), o] as const))(
    '%s, which takes a body, documents malformed JSON, several invalid fields and a wrong content type',
    (_name, { op }) => {
      const badRequest = errorResponseConstraint(resolve(op.responses['400'])).codes;
      expect(badRequest).toEqual(expect.arrayContaining(['INVALID_REQUEST_BODY', 'INVALID_REQUEST']));
      expect(errorResponseConstraint(resolve(op.responses['415'])).codes).toEqual(['UNSUPPORTED_MEDIA_TYPE']);
    },
  );
});
