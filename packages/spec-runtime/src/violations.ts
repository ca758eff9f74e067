// Turns Ajv errors into violations: one per failing field, with a readable message that includes
// the failing value and the error code the contract attaches to it through x-svc-error-code.
//
// Where the code comes from:
// - on the parameter object (a parameter-level code overrides everything, e.g. a path id with a
//   wrong prefix -> 404 NOTE_NOT_FOUND);
// - on the violated schema itself (Ajv's parentSchema), as a code or a keyword -> code map;
// - for `required`, on the missing property's schema, only through a map with a `required` key
//   (a plain code describes a bad value, not a missing one);
// - for composite failures (anyOf/oneOf), Ajv reports the branches and the composite at the same
//   instance path: the errors of one field are grouped and the first code found wins, which is
//   how a NullablePhoneNumber failing its PhoneNumber branch still yields INVALID_PHONE_FORMAT.
import type { ErrorObject } from 'ajv/dist/2020.js';
import { getByPointer, isObject, type JsonObject } from './json-pointer.js';

export type ViolationLocation = 'path' | 'query' | 'header' | 'body';

export interface Violation {
  location: ViolationLocation;
  /** Parameter name, or a body field path such as options[1].label ('body' for the body itself). */
  field: string;
  /** The JSON Schema keyword that failed (or 'required' for a missing parameter). */
  keyword: string;
  message: string;
  /** The contract's code for this violation, or null when it names none. */
  code: string | null;
  /** The failing value, when there is one. */
  value?: unknown;
}

/**
 * The code a schema or parameter object names, with `x-svc-error-code`, for a failure of
 * `keyword`: a plain code covers every keyword, a map names one per keyword. `mapOnly` ignores a
 * plain code (a missing field takes a code only from a map's `required` key).
 */
export function codeOf(holder: unknown, keyword: string, mapOnly = false): string | null {
  if (!isObject(holder)) return null;
  const code = holder['x-svc-error-code'];
  if (!mapOnly && typeof code === 'string') return code;
  if (isObject(code) && typeof code[keyword] === 'string') return code[keyword] as string;
  return null;
}

/** Like {@link codeOf} but also looks through a chain of `$ref`s (a property may be `{ $ref }`). */
function codeAlongRefs(bundle: JsonObject, node: unknown, keyword: string, mapOnly: boolean): string | null {
  let current = node;
  for (let hops = 0; hops < 16 && isObject(current); hops++) {
    const code = codeOf(current, keyword, mapOnly);
    if (code !== null) return code;
    if (typeof current.$ref !== 'string') break;
    current = getByPointer(bundle, current.$ref);
  }
  return null;
}

export function fieldFromPointer(instancePath: string, extra?: string): string {
  const parts =
    instancePath === ''
      ? []
      : instancePath
          .slice(1)
          .split('/')
          .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra !== undefined) parts.push(extra);
  return fieldName(parts);
}

/** A field as clients write it: `options[2].label`. */
export function fieldName(segments: readonly string[]): string {
  let field = '';
  for (const part of segments) {
    if (/^\d+$/.test(part)) field += `[${part}]`;
    else field += field === '' ? part : `.${part}`;
  }
  return field;
}

/** A short, safe rendering of a failing value for error messages. */
export function previewValue(value: unknown): string {
  if (typeof value === 'string') {
    const shown = value.length > 80 ? `${value.slice(0, 77)}...` : value;
    return JSON.stringify(shown) + (value.length > 80 ? ` (${value.length} characters)` : '');
  }
  if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (isObject(value)) return 'an object';
  if (value === undefined) return 'nothing';
  return JSON.stringify(value);
}

/** The first sentence of a schema's description, as a phrase that follows "must be" ("a phone number in E.164: …"). */
export function expectedForm(schema: unknown): string | undefined {
  const description = isObject(schema) ? schema.description : undefined;
  if (typeof description !== 'string' || description.trim() === '') return undefined;
  const sentence = (description.trim().split(/(?<=\.)\s/)[0] ?? '').replace(/\.$/, '');
  return sentence.charAt(0).toLowerCase() + sentence.slice(1);
}

function messageFor(field: string, error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  const got = `; got ${previewValue(error.data)}`;
  const name = field === '' ? 'the value' : field;
  switch (error.keyword) {
    case 'required':
      return `${name} is required`;
    case 'additionalProperties':
      return `${name} is not a known field`;
    case 'type':
      return `${name} must be of type ${String(p.type)}${got}`;
    case 'enum':
      return `${name} must be one of ${(p.allowedValues as unknown[]).map(String).join(', ')}${got}`;
    case 'const':
      return `${name} must be ${JSON.stringify(p.allowedValue)}${got}`;
    case 'pattern':
      // The form in words (the schema's description), never the raw regular expression.
      return `${name} must be ${expectedForm(error.parentSchema) ?? 'in the form the contract describes'}${got}`;
    case 'maxLength':
      return `${name} is ${typeof error.data === 'string' ? [...error.data].length : '?'} characters long; the maximum is ${String(p.limit)}`;
    case 'minLength':
      return p.limit === 1
        ? `${name} must not be empty`
        : `${name} must be at least ${String(p.limit)} characters long${got}`;
    case 'maxItems':
      return `${name} holds ${Array.isArray(error.data) ? error.data.length : '?'} items; the maximum is ${String(p.limit)}`;
    case 'minItems':
      return `${name} must hold at least ${String(p.limit)} item${p.limit === 1 ? '' : 's'}${got}`;
    case 'maximum':
    case 'minimum':
    case 'exclusiveMaximum':
    case 'exclusiveMinimum':
      return `${name} must be ${String(p.comparison)} ${String(p.limit)}${got}`;
    case 'format':
      return `${name} must be a valid ${String(p.format)}${got}`;
    default:
      return `${name} ${error.message ?? 'is invalid'}${got}`;
  }
}

/** A violation before its location is known. */
type Candidate = Omit<Violation, 'location'>;

function candidateFor(bundle: JsonObject, error: ErrorObject, rename: (field: string) => string): Candidate {
  const p = error.params as Record<string, unknown>;
  const { keyword, parentSchema: parent } = error;
  // A missing or unknown field is named by the error of the object holding it, and has no value.
  const named =
    keyword === 'required' ? p.missingProperty : keyword === 'additionalProperties' ? p.additionalProperty : undefined;
  const field = rename(fieldFromPointer(error.instancePath, typeof named === 'string' ? named : undefined));
  const message = messageFor(field, error);
  if (typeof named !== 'string') return { field, keyword, message, code: codeOf(parent, keyword), value: error.data };
  if (keyword === 'additionalProperties') return { field, keyword, message, code: codeOf(parent, keyword) };
  const property = isObject(parent) && isObject(parent.properties) ? parent.properties[named] : undefined;
  return {
    field,
    keyword,
    message,
    code: codeAlongRefs(bundle, property, keyword, true) ?? codeAlongRefs(bundle, parent, keyword, true),
  };
}

const COMPOSITE = new Set(['anyOf', 'oneOf', 'allOf', 'if', 'not']);

/** Groups Ajv errors by field into violations. `rename` maps the data-relative field to the reported one. */
export function violationsFromAjv(
  bundle: JsonObject,
  errors: readonly ErrorObject[],
  location: ViolationLocation,
  rename: (field: string) => string = (f) => f,
): Violation[] {
  const groups = new Map<string, Candidate[]>();
  for (const error of errors) {
    const candidate = candidateFor(bundle, error, rename);
    const group = groups.get(candidate.field) ?? [];
    group.push(candidate);
    groups.set(candidate.field, group);
  }
  const violations: Violation[] = [];
  for (const [field, group] of groups) {
    const coded = group.find((c) => c.code !== null && !COMPOSITE.has(c.keyword)) ?? group.find((c) => c.code !== null);
    const specific = coded ?? group.find((c) => !COMPOSITE.has(c.keyword)) ?? (group[0] as Candidate);
    violations.push({
      location,
      field,
      keyword: specific.keyword,
      message: specific.message,
      code: coded?.code ?? null,
      ...('value' in specific ? { value: specific.value } : {}),
    });
  }
  return violations;
}
