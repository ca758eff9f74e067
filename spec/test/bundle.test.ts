import { existsSync, readFileSync } from 'node:fs';
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

  it('ships no dereferenced copy (30 times the bundle; consumers make one, as the README says)', () => {
    expect(existsSync(join(distDir, 'openapi.dereferenced.json'))).toBe(false);
  });

  it('names the local sandbox as a server, beside {base_url} whose default is usable', () => {
    expect(bundle.servers.map((s: { url: string }) => s.url)).toEqual(['http://localhost:4010', '{base_url}']);
    expect(bundle.servers[0].description).toMatch(/local sandbox/);
    expect(bundle.servers[1].variables.base_url.default).toBe('http://localhost:4010');
  });

  it('keeps every component under a unique name (no Foo-2 renames from collisions)', () => {
    for (const [section, components] of Object.entries<Record<string, unknown>>(bundle.components)) {
      for (const name of Object.keys(components)) {
        expect(name, `${section}/${name}`).toMatch(/^[A-Z][A-Za-z0-9]*$/);
      }
    }
  });
});
