import { describe, expect, it } from 'vitest';
import { toOpenApi30 } from '../scripts/variants/openapi30.mjs';
import { bundle, errorNarrowing } from './support/spec.js';

// Through JSON, as it is written to dist (the converter leaves a marker key on some arrays).
const variant = JSON.parse(JSON.stringify(toOpenApi30(bundle)));
const schemas = variant.components.schemas;
const namedErrors = Object.keys(bundle.components.schemas).filter(
  (name) => bundle.components.schemas[name].dependentSchemas?.code?.$ref === '#/components/schemas/ApiError',
);

describe('the OpenAPI 3.0.3 variant', () => {
  it('keeps the catalogue and ApiError', () => {
    expect(schemas.ErrorCode.enum).toEqual(bundle.components.schemas.ErrorCode.enum);
    expect(schemas.ErrorCode['x-enum-descriptions']).toEqual(
      bundle.components.schemas.ErrorCode['x-enum-descriptions'],
    );
    expect(schemas.ApiError).toMatchObject({
      title: 'ApiError',
      allOf: [{ $ref: '#/components/schemas/ApiErrorFields' }, { required: ['type', 'code'] }],
    });
  });

  it('makes each named error an ApiError through allOf (3.0 has no dependentSchemas), with its own codes', () => {
    expect(namedErrors.length).toBeGreaterThan(0);
    for (const name of namedErrors) {
      expect(schemas[name].dependentSchemas, name).toBeUndefined();
      expect(schemas[name].allOf, name).toContainEqual({ $ref: '#/components/schemas/ApiError' });
      expect(errorNarrowing(bundle.components.schemas[name]).code.enum, name).toEqual(
        schemas[`${name.replace(/Error$/, '')}Code`].enum,
      );
    }
  });

  it('gives "X or Y or null" its null on the first typed branch (3.0 allows nullable beside a type only)', () => {
    const { oneOf, nullable } = schemas.Thread.properties.resolved_by;
    expect(nullable).toBeUndefined();
    expect(oneOf).toEqual([{ type: 'object', additionalProperties: true, nullable: true }, { type: 'string' }]);
  });

  it('has no dependentSchemas left anywhere', () => {
    expect(JSON.stringify(variant)).not.toContain('"dependentSchemas"');
  });
});
