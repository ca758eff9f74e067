// A validator's findings about a webhook delivery, said in the API's own error dialect: each
// problem names the field as clients write it (`body.transcriptions[0].source`), the error code
// the contract gives it (the schema's x-svc-error-code, else the code of a field that names none)
// and a human sentence with the failing value. A pattern is never printed: the sentence says the
// form the schema expects, in the words of its description.
import { FIELD_ERROR_DEFAULT_CODE, WEBHOOK_SCHEMA_RULES } from './generated/webhooks.js';

/** What Ajv's standalone validators report (without `verbose`). */
export interface ValidatorError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** One way a delivery breaks its topic's schema, as an entry of the API's `errors[]`. */
export interface SvcWebhookProblem {
  /** The field as clients write it: `body.from_number`, `body.transcriptions[0].time`. */
  readonly field: string;
  /** The contract's code for this failure (`INVALID_PHONE_FORMAT`), else the API's field-level default. */
  readonly code: string;
  /** A sentence that says what is wrong and what was sent, with no raw pattern. */
  readonly message: string;
  /** The JSON pointer of the value (`/body/from_number`). */
  readonly path: string;
}

interface SchemaRule {
  code?: string | Record<string, string>;
  expected?: string;
}

const rules = WEBHOOK_SCHEMA_RULES as Record<string, SchemaRule>;

const segmentsOf = (pointer: string): string[] =>
  pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));

/** A field as clients write it: `transcriptions[0].source`. */
function fieldName(segments: readonly string[]): string {
  let field = '';
  for (const part of segments) field += /^\d+$/.test(part) ? `[${part}]` : field === '' ? part : `.${part}`;
  return field;
}

function valueAt(root: unknown, segments: readonly string[]): unknown {
  let value = root;
  for (const part of segments) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** A short, safe rendering of the failing value: long strings are cut, containers are described. */
function preview(value: unknown): string {
  if (typeof value === 'string')
    return value.length > 80 ? `${JSON.stringify(value.slice(0, 77))}...` : JSON.stringify(value);
  if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (value !== null && typeof value === 'object') return 'an object';
  return value === undefined ? 'nothing' : JSON.stringify(value);
}

const article = (word: string) => (/^[aeiou]/i.test(word) ? `an ${word}` : `a ${word}`);
const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** The named schema a schema path lies in (`#/components/schemas/PhoneNumber/pattern`), if any. */
const ruleOf = (schemaPath: string): SchemaRule | undefined =>
  rules[/^#\/components\/schemas\/([^/]+)\//.exec(schemaPath)?.[1] ?? ''];

function codeOf(error: ValidatorError): string {
  const code = ruleOf(error.schemaPath)?.code;
  if (typeof code === 'string') return code;
  return code?.[error.keyword] ?? FIELD_ERROR_DEFAULT_CODE;
}

/** What the value must be, in words, for one failed keyword (undefined: no such sentence). */
function expectation(error: ValidatorError): string | undefined {
  const p = error.params;
  switch (error.keyword) {
    case 'pattern':
      return lowerFirst(ruleOf(error.schemaPath)?.expected ?? 'in the form the contract describes');
    case 'format':
      return `a valid ${String(p.format).toUpperCase()}`;
    case 'enum':
      return `one of ${(p.allowedValues as unknown[]).map(String).join(', ')}`;
    case 'const':
      return JSON.stringify(p.allowedValue);
    case 'type':
      return article(String(p.type));
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${String(p.comparison)} ${String(p.limit)}`;
    case 'minLength':
      return `at least ${String(p.limit)} characters long`;
    case 'maxLength':
      return `at most ${String(p.limit)} characters long`;
    case 'minItems':
      return `a list of at least ${String(p.limit)} items`;
    case 'maxItems':
      return `a list of at most ${String(p.limit)} items`;
    default:
      return undefined;
  }
}

/** One validator finding about `delivery`, in the API's error dialect. */
export function problemOf(error: ValidatorError, delivery: unknown): SvcWebhookProblem {
  const segments = segmentsOf(error.instancePath);
  const missing = error.keyword === 'required' ? String(error.params.missingProperty) : undefined;
  const field = fieldName(missing === undefined ? segments : [...segments, missing]) || 'the delivery';
  const path = error.instancePath || '/';
  const code = codeOf(error);
  if (missing !== undefined) return { field, code, message: `${field} is required`, path };
  const got = `; got ${preview(valueAt(delivery, segments))}`;
  const expected = expectation(error);
  const message = expected === undefined ? `${field} is not valid${got}` : `${field} must be ${expected}${got}`;
  return { field, code, message, path };
}
