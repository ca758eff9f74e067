import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { bundle, distDir } from './support/spec.js';

describe('the bundle', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(bundle));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('has the same content in its JSON and YAML forms', () => {
    const yaml = parse(readFileSync(join(distDir, 'openapi.yaml'), 'utf8'));
    expect(yaml).toEqual(bundle);
  });

  it('has a dereferenced copy without a single $ref', () => {
    const text = readFileSync(join(distDir, 'openapi.dereferenced.json'), 'utf8');
    expect(text).not.toContain('"$ref"');
    const dereferenced = JSON.parse(text);
    expect(Object.keys(dereferenced.paths)).toEqual(Object.keys(bundle.paths));
  });

  it('keeps every component under a unique name (no Foo-2 renames from collisions)', () => {
    for (const [section, components] of Object.entries<Record<string, unknown>>(bundle.components)) {
      for (const name of Object.keys(components)) {
        expect(name, `${section}/${name}`).toMatch(/^[A-Z][A-Za-z0-9]*$/);
      }
    }
  });
});
