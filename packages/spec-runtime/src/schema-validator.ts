// One Ajv 2020-12 instance per contract. The whole bundle is added once under an id, and every
// validator is compiled by pointer into it (so internal `$ref`s resolve) and cached: each
// request, parameter and response schema is compiled at most once.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import type { JsonObject } from './json-pointer.js';

const BUNDLE_ID = 'svc-openapi';

export class SchemaValidator {
  private readonly ajv: Ajv2020;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(bundle: JsonObject) {
    this.ajv = new Ajv2020({
      // The bundle carries OpenAPI and x-svc-* keywords that are not JSON Schema.
      strict: false,
      allErrors: true,
      // parentSchema on each error is how a violation finds its x-svc-error-code.
      verbose: true,
      // The document added is an OpenAPI document, not a schema; only its parts are compiled.
      validateSchema: false,
    });
    formats.default(this.ajv);
    this.ajv.addSchema(bundle as object, BUNDLE_ID);
  }

  /** The validator of the schema at a local pointer of the bundle (`#/components/...`). */
  validator(pointer: string): ValidateFunction {
    let validate = this.cache.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${BUNDLE_ID}${pointer}` });
      this.cache.set(pointer, validate);
    }
    return validate;
  }

  /** Validates and returns Ajv's errors (empty when valid). */
  errors(pointer: string, data: unknown): ErrorObject[] {
    const validate = this.validator(pointer);
    return validate(data) ? [] : [...(validate.errors ?? [])];
  }
}
