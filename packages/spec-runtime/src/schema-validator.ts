// Two Ajv 2020-12 instances per contract, over the same bundle: one stops at the first error
// (what every request pays), one collects every error (asked only for small inputs, to list each
// failing field in errors[]). The whole bundle is added once to each under an id, and every
// validator is compiled by pointer into it (so internal `$ref`s resolve) and cached: each
// request, parameter and response schema is compiled at most once per instance.
//
// Why two: Ajv with allErrors keeps validating every item of an array after maxItems has failed,
// so a batch of 30 000 ids cost seconds and answered megabytes; the first error (maxItems, which
// Ajv checks before the items) already decides the documented code.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import type { JsonObject } from './json-pointer.js';

const BUNDLE_ID = 'svc-openapi';

class CompiledSchemas {
  private readonly ajv: Ajv2020;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(bundle: JsonObject, allErrors: boolean) {
    this.ajv = new Ajv2020({
      // The bundle carries OpenAPI and x-svc-* keywords that are not JSON Schema.
      strict: false,
      allErrors,
      // parentSchema on each error is how a violation finds its x-svc-error-code.
      verbose: true,
      // The document added is an OpenAPI document, not a schema; only its parts are compiled.
      validateSchema: false,
    });
    formats.default(this.ajv);
    this.ajv.addSchema(bundle as object, BUNDLE_ID);
  }

  validator(pointer: string): ValidateFunction {
    let validate = this.cache.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${BUNDLE_ID}${pointer}` });
      this.cache.set(pointer, validate);
    }
    return validate;
  }
}

export class SchemaValidator {
  private readonly first: CompiledSchemas;
  private readonly every: CompiledSchemas;

  constructor(bundle: JsonObject) {
    this.first = new CompiledSchemas(bundle, false);
    this.every = new CompiledSchemas(bundle, true);
  }

  /** Compiles both validators of a pointer now. */
  precompile(pointer: string): void {
    this.first.validator(pointer);
    this.every.validator(pointer);
  }

  /**
   * Validates and returns Ajv's errors (empty when valid). The first error is always found;
   * every error only when `complete` is true and the value is invalid (the caller says when the
   * value is small enough for that to be cheap).
   */
  errors(pointer: string, data: unknown, complete = true): ErrorObject[] {
    const first = this.first.validator(pointer);
    if (first(data)) return [];
    if (!complete) return [...(first.errors ?? [])];
    const every = this.every.validator(pointer);
    return every(data) ? [...(first.errors ?? [])] : [...(every.errors ?? [])];
  }
}
