// Two Ajv 2020-12 instances per contract, over the same bundle: one stops at the first error
// (what every value pays), one collects every error (asked only for small values, to list each
// failing field in errors[]). The whole bundle is added once to each under an id, and every
// validator is compiled by pointer into it (so internal `$ref`s resolve) and cached: each
// request, parameter and response schema is compiled at most once per instance.
//
// Why two: Ajv with allErrors is quadratic in the invalid items of an array (each call of a
// referenced schema concatenates every error collected so far), and it keeps validating every
// item after maxItems has failed: a batch of 30 000 ids cost seconds, and a thread of 20 000
// invalid comments from an upstream froze a proxy for 5.8 s. The first error already decides
// the documented code; every error is only worth listing for a value small enough that listing
// them costs a bounded amount. So the bound lives here, for every caller: the request side, the
// response checks, the contract tests and the proxy alike.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import type { JsonObject } from './json-pointer.js';

const BUNDLE_ID = 'svc-openapi';

/**
 * Values of at most this many JSON values (objects, arrays and scalars, counted together) get
 * every error listed; a larger one is answered from its first error, which already decides the
 * documented code (Ajv checks an array's maxItems before its items, for example). Every body the
 * API documents as a request fits well within it; only a hostile one does not.
 */
export const EVERY_ERROR_MAX_NODES = 256;

/** Whether `value` holds at most `limit` JSON values; stops counting as soon as it knows. */
export function hasAtMostNodes(value: unknown, limit: number): boolean {
  const stack: unknown[] = [value];
  let count = 0;
  while (stack.length > 0) {
    const node = stack.pop();
    if (++count > limit) return false;
    if (Array.isArray(node)) {
      if (count + node.length > limit) return false;
      for (const child of node) stack.push(child);
    } else if (typeof node === 'object' && node !== null) {
      // for-in rather than Object.values: no array of every field of a huge object is built.
      let children = 0;
      for (const key in node) {
        if (count + ++children > limit) return false;
        stack.push((node as Record<string, unknown>)[key]);
      }
    }
  }
  return true;
}

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
   * Validates and returns Ajv's errors (empty when valid). The first error is always found; every
   * error only when the value is invalid and small: `complete` says whether it is (a caller that
   * knows the value's size, as the body parser does, tells), else the value's nodes are counted,
   * at most {@link EVERY_ERROR_MAX_NODES} of them. A large value thus costs one pass that stops
   * at its first error, whatever its size.
   */
  errors(pointer: string, data: unknown, complete?: boolean): ErrorObject[] {
    const first = this.first.validator(pointer);
    if (first(data)) return [];
    if (!(complete ?? hasAtMostNodes(data, EVERY_ERROR_MAX_NODES))) return [...(first.errors ?? [])];
    const every = this.every.validator(pointer);
    return every(data) ? [...(first.errors ?? [])] : [...(every.errors ?? [])];
  }
}
