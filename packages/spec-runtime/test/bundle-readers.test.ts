import { describe, expect, it } from 'vitest';
import { readUnspecifiedOperations } from '../src/facts.js';
import type { JsonObject } from '../src/index.js';
import { headerNamesByComponent } from '../src/walk.js';
import { bundle as parsed } from './support/contract.js';

const bundle = parsed as JsonObject;
type Responses = Record<string, { headers?: Record<string, { $ref?: string }> }>;

describe('headerNamesByComponent', () => {
  it('names each header component as the responses that use it do', () => {
    const names = headerNamesByComponent(bundle);
    const components = Object.keys((bundle.components as { headers: object }).headers);
    // Every component some response uses is named, by the key it is used under.
    expect([...names.keys()].every((component) => components.includes(component))).toBe(true);
    expect(names.size).toBeGreaterThan(0);
    const paths = bundle.paths as unknown as Record<string, Record<string, { responses: Responses }>>;
    const ok = paths['/v2/api/threads/{id}']?.get?.responses['200'];
    expect(Object.keys(ok?.headers ?? {}).length).toBeGreaterThan(0);
    for (const [name, header] of Object.entries(ok?.headers ?? {})) {
      const component = header.$ref?.split('/').pop();
      if (component) expect(names.get(component)).toBe(name);
    }
  });

  it('finds nothing in a bundle whose responses use no header component', () => {
    expect(
      headerNamesByComponent({
        paths: { '/x': { get: { responses: { 200: { headers: { 'X-A': { schema: {} } } } } } } },
      }).size,
    ).toBe(0);
  });
});

describe('readUnspecifiedOperations', () => {
  it('lists the operations named without a method and path, each with what is missing', () => {
    const list = readUnspecifiedOperations(bundle);
    expect(list.length).toBeGreaterThan(0);
    for (const item of list) {
      expect(typeof item.name).toBe('string');
      expect(item.unspecified.length).toBeGreaterThan(0);
    }
  });

  it('fails on a bundle without the list', () => {
    expect(() => readUnspecifiedOperations({ info: {} })).toThrow(/x-svc-unspecified-operations/);
  });
});
