// Negative inputs generated from the contract for one operation: each case is a valid baseline
// request with exactly one thing broken (a parameter out of range, a phone number not in E.164,
// a value outside its enum, a missing required field, a string over its limit, malformed JSON, a
// wrong content type, an id with the wrong prefix or an unknown one). The expected status and
// code of each case come from spec-runtime (validateRequest + errorFor) or, for unknown ids,
// from the operation's documented 404 codes: never from a table written here.
import {
  deref,
  fieldName as fieldNameOf,
  idPrefixes,
  isObject,
  itemsOf,
  type JsonObject,
  type Operation,
  propertiesOf,
  requiredOf,
  typesOf,
} from '@svc/spec-runtime';
import type { CheckId } from '../checks/catalogue.js';
import { documentedCodes, type Expected, expectedFor, type OpRequest } from '../checks/expect.js';
import { bodyFormReading, lineAccessReadings, withReadings } from '../checks/readings.js';
import type { Spec } from '../spec.js';
import { constraintId } from './constraints.js';
import { isPhone, sample } from './schema.js';

export type NegativeKind = Extract<CheckId, `negative.${string}`>;

export interface NegativeCase {
  kind: NegativeKind;
  label: string;
  request: OpRequest;
  /** A body sent verbatim (malformed JSON, wrong content type). */
  raw?: { body: string; contentType?: string; unparseable?: boolean };
  expected: Expected;
  /** The documented constraint the case breaks (see constraints.ts), where it is a limit. */
  constraint?: string;
}

/** The made-up values: recognisable in server logs, unlikely to exist. */
export const UNKNOWN_SUFFIX = '0svcContract404';
const UNKNOWN_VALUE = 'svc-contract-unknown-404';
const UNUSED_PHONE = '+15550000001';
const WRONG_PREFIX = 'zzz-0svcContract';
const NON_MATCHING = ['!!!', '-', ' ', '', '§'];
/** JSON cut short: no server can parse it, so even a write method cannot execute anything. */
export const MALFORMED_BODY = '{"svc_contract": ';

type Path = Array<string | number>;

const clone = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));

const REMOVED = Symbol('removed');

/** A copy of `root` with the value at `path` set to `value` (REMOVED: deleted). */
function setAt(root: unknown, path: Path, value: unknown): unknown {
  const copy = clone(root) as Record<string | number, unknown>;
  let node = copy;
  path.slice(0, -1).forEach((k) => (node = node[k] as Record<string | number, unknown>));
  const key = path[path.length - 1] as string | number;
  if (value === REMOVED) delete node[key];
  else node[key] = value;
  return copy;
}

/** `options[0].label`: spec-runtime's name of a field, as its violations say it. */
const fieldName = (path: Path) => fieldNameOf(path.map(String));

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40
    ? `${text.slice(0, 30)}…(${typeof value === 'string' ? value.length : text.length} chars)`
    : text;
}

/** Phone numbers that are not E.164, made from a valid one: no +, spaces, dashes. */
export function phoneVariants(valid: string): string[] {
  const digits = valid.replace(/^\+/, '');
  return [
    digits,
    `+${digits.slice(0, 1)} ${digits.slice(1, 4)} ${digits.slice(4)}`,
    `+${digits.slice(0, 1)}-${digits.slice(1, 4)}-${digits.slice(4)}`,
  ];
}

function invalidEnumValue(values: unknown[]): string {
  const lower = values.every((v) => typeof v === 'string' && v === v.toLowerCase());
  return lower ? 'svc_contract_not_in_enum' : 'SVC_CONTRACT_NOT_IN_ENUM';
}

function nonMatching(pattern: string): string | undefined {
  let re: RegExp;
  try {
    re = new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
  return NON_MATCHING.find((candidate) => !re.test(candidate));
}

/** A schema of a single value (no object, no array): one the generator can break on its own. */
function isLeaf(schema: JsonObject): boolean {
  const types = typesOf(schema);
  if (
    types.includes('object') ||
    types.includes('array') ||
    schema.properties !== undefined ||
    schema.items !== undefined
  )
    return false;
  return types.length > 0 || Array.isArray(schema.enum) || typeof schema.pattern === 'string';
}

export function negativeCases(spec: Spec, op: Operation, baseline: OpRequest): NegativeCase[] {
  const cases: NegativeCase[] = [];
  const phoneExample = (() => {
    const examples = spec.schema('PhoneNumber')?.examples;
    return Array.isArray(examples) && typeof examples[0] === 'string' ? examples[0] : '+14155550123';
  })();
  const push = (kind: NegativeKind, label: string, request: OpRequest, extra: Partial<NegativeCase> = {}) => {
    const expected = extra.expected ?? expectedFor(spec, op, request);
    // A mutation the contract does not forbid is no negative input: nothing to expect.
    if (expected) cases.push({ kind, label, request, expected, ...extra });
  };
  /** The baseline with one value of its body set (REMOVED: deleted): one thing broken. */
  const withBodyAt = (path: Path, value: unknown): OpRequest => ({
    ...baseline,
    body: setAt(baseline.body, path, value),
  });
  const notFound = (param?: { errorCode?: string | Record<string, unknown> }): Expected | undefined => {
    const listed = documentedCodes(spec, op, 404);
    if (listed.length === 0) return undefined;
    const own = typeof param?.errorCode === 'string' && listed.includes(param.errorCode) ? [param.errorCode] : listed;
    return { status: 404, codes: own, why: 'no such resource' };
  };

  // Path parameters: phone numbers, prefixed ids, other identifiers.
  for (const p of op.parameters.filter((x) => x.in === 'path')) {
    const withParam = (value: string): OpRequest => ({ ...baseline, params: { ...baseline.params, [p.name]: value } });
    const current = baseline.params?.[p.name];
    if (isPhone(spec, p.schema)) {
      for (const bad of phoneVariants(current ?? phoneExample))
        push('negative.phone-format', `path ${p.name}=${preview(bad)}`, withParam(bad));
      // A number that is no line of the team is also one the key may not access: where the
      // operation marks that answer ambiguous (x-svc-ambiguity line-access), either reading passes.
      const nf = op.codesByStatus.has(404) ? notFound(p) : undefined;
      if (nf)
        push('negative.unknown-id', `path ${p.name}=${UNUSED_PHONE}`, withParam(UNUSED_PHONE), {
          expected: withReadings(nf, lineAccessReadings(spec, op)),
        });
      continue;
    }
    const prefixes = idPrefixes(p.schema);
    const nf = notFound(p);
    for (const prefix of prefixes)
      if (nf)
        push(
          'negative.unknown-id',
          `path ${p.name}=${prefix}${UNKNOWN_SUFFIX}`,
          withParam(`${prefix}${UNKNOWN_SUFFIX}`),
          { expected: nf },
        );
    if (prefixes.length > 0) push('negative.id-prefix', `path ${p.name}=${WRONG_PREFIX}`, withParam(WRONG_PREFIX));
    else if (nf)
      push('negative.unknown-id', `path ${p.name}=${UNKNOWN_VALUE}`, withParam(UNKNOWN_VALUE), { expected: nf });
  }

  // Query parameters.
  for (const p of op.parameters.filter((x) => x.in === 'query')) {
    const withQuery = (value: string): OpRequest => ({ ...baseline, query: { ...baseline.query, [p.name]: value } });
    const s = p.schema;
    const types = typesOf(s);
    if (types.includes('integer') || types.includes('number')) {
      if (typeof s.minimum === 'number')
        push('negative.out-of-range', `query ${p.name}=${s.minimum - 1}`, withQuery(String(s.minimum - 1)), {
          constraint: constraintId('query', p.name, 'minimum', s.minimum),
        });
      if (typeof s.maximum === 'number')
        push('negative.out-of-range', `query ${p.name}=${s.maximum + 1}`, withQuery(String(s.maximum + 1)), {
          constraint: constraintId('query', p.name, 'maximum', s.maximum),
        });
      push('negative.out-of-range', `query ${p.name}="ten"`, withQuery('ten'));
    }
    if (Array.isArray(s.enum))
      push('negative.enum', `query ${p.name}=${invalidEnumValue(s.enum)}`, withQuery(invalidEnumValue(s.enum)));
    else if (isPhone(spec, s))
      for (const bad of phoneVariants(baseline.query?.[p.name] ?? phoneExample))
        push('negative.phone-format', `query ${p.name}=${preview(bad)}`, withQuery(bad));
    else if (idPrefixes(s).length > 0)
      push('negative.id-prefix', `query ${p.name}=${WRONG_PREFIX}`, withQuery(WRONG_PREFIX));
    else if (typeof s.pattern === 'string') {
      const bad = nonMatching(s.pattern);
      if (bad !== undefined) push('negative.pattern', `query ${p.name}=${preview(bad)}`, withQuery(bad));
    }
    if (p.required && baseline.query?.[p.name] !== undefined) {
      const rest = { ...baseline.query };
      delete rest[p.name];
      push('negative.missing-required', `query ${p.name} missing`, { ...baseline, query: rest });
    }
  }

  // The body.
  if (op.requestBody) {
    const asIfNoBody = expectedFor(spec, op, { ...baseline, body: undefined });
    if (asIfNoBody)
      push('negative.malformed-json', 'body {"svc_contract": (cut short)', baseline, {
        raw: { body: MALFORMED_BODY, unparseable: true },
        expected: asIfNoBody,
      });
    // No body at all, where one is required (the rule breaks alone: nothing else is sent wrong).
    if (op.requestBody.required && asIfNoBody)
      push('negative.missing-required', 'body missing', { ...baseline, body: undefined }, { expected: asIfNoBody });
    const mediaCodes = op.codesByStatus.get(415);
    if (mediaCodes && mediaCodes.size > 0 && baseline.body !== undefined) {
      push('negative.content-type', 'Content-Type: text/plain', baseline, {
        raw: { body: JSON.stringify(baseline.body), contentType: 'text/plain' },
        expected: { status: 415, codes: [...mediaCodes], why: 'the body is not application/json' },
      });
    }
    const bodySchema = deref(spec.contract, spec.resolve(op.requestBody.schemaPointer));
    if (baseline.body !== undefined) walkBody(baseline.body, bodySchema, []);
  }

  function walkBody(value: unknown, schema: JsonObject, path: Path): void {
    const at = fieldName(path) || 'body';
    if (isObject(value)) {
      const props = propertiesOf(spec.contract, schema);
      for (const name of requiredOf(spec.contract, schema)) {
        if (name in value)
          push(
            'negative.missing-required',
            `body ${fieldName([...path, name])} missing`,
            withBodyAt([...path, name], REMOVED),
          );
      }
      for (const [name, propSchema] of Object.entries(props)) {
        const child = (value as Record<string, unknown>)[name];
        if (child !== undefined) walkBody(child, propSchema, [...path, name]);
        else if (path.length === 0 && isLeaf(propSchema)) {
          // An optional field the baseline leaves out still has to be validated when sent: add it,
          // broken, to the otherwise valid request (still one thing broken).
          leaf(isPhone(spec, propSchema) ? phoneExample : sample(spec, propSchema), propSchema, [name]);
        }
      }
      if (deref(spec.contract, schema).additionalProperties === false) {
        push(
          'negative.unknown-field',
          `body ${fieldName([...path, 'svc_contract_unknown'])}`,
          withBodyAt([...path, 'svc_contract_unknown'], true),
        );
      }
      return;
    }
    if (Array.isArray(value)) {
      const s = deref(spec.contract, schema);
      if (typeof s.maxItems === 'number' && value.length > 0) {
        const over = Array.from({ length: s.maxItems + 1 }, (_, i) => value[i % value.length]);
        push('negative.too-long', `body ${at} with ${s.maxItems + 1} items`, withBodyAt(path, over), {
          constraint: constraintId('body', at, 'maxItems', s.maxItems),
        });
      }
      if (typeof s.minItems === 'number' && s.minItems > 0) {
        push(
          'negative.too-long',
          `body ${at} with ${s.minItems - 1} items`,
          withBodyAt(path, value.slice(0, s.minItems - 1)),
          { constraint: constraintId('body', at, 'minItems', s.minItems) },
        );
      }
      const items = itemsOf(spec.contract, s);
      if (items && value.length > 0) walkBody(value[0], items, [...path, 0]);
      return;
    }
    leaf(value, schema, path);
  }

  function leaf(value: unknown, schema: JsonObject, path: Path): void {
    const at = fieldName(path);
    const s = deref(spec.contract, schema);
    if (isPhone(spec, s)) {
      for (const bad of phoneVariants(typeof value === 'string' ? value : phoneExample))
        push('negative.phone-format', `body ${at}=${preview(bad)}`, withBodyAt(path, bad));
      return;
    }
    if (Array.isArray(s.enum)) {
      push('negative.enum', `body ${at}=${invalidEnumValue(s.enum)}`, withBodyAt(path, invalidEnumValue(s.enum)));
      return;
    }
    // A number of a body field outside its documented range, at any depth (business hours' times).
    for (const [keyword, step] of [
      ['minimum', -1],
      ['maximum', 1],
    ] as const) {
      const limit = s[keyword];
      if (typeof limit === 'number' && typeof value === 'number')
        push('negative.out-of-range', `body ${at}=${limit + step}`, withBodyAt(path, limit + step), {
          constraint: constraintId('body', at, keyword, limit),
        });
    }
    if (typeof s.minLength === 'number' && s.minLength > 0)
      push(
        'negative.too-long',
        `body ${at} of ${s.minLength - 1} characters`,
        withBodyAt(path, 'x'.repeat(s.minLength - 1)),
        { constraint: constraintId('body', at, 'minLength', s.minLength) },
      );
    if (typeof s.maxLength === 'number')
      push(
        'negative.too-long',
        `body ${at} of ${s.maxLength + 1} characters`,
        withBodyAt(path, 'x'.repeat(s.maxLength + 1)),
        { constraint: constraintId('body', at, 'maxLength', s.maxLength) },
      );
    const prefixes = idPrefixes(s);
    if (prefixes.length > 0 && typeof value === 'string') {
      push('negative.id-prefix', `body ${at}=${WRONG_PREFIX}`, withBodyAt(path, WRONG_PREFIX));
      const prefix = prefixes.find((p) => value.startsWith(p));
      const listed = op.codesByStatus.get(404);
      // Only a top-level id names the resource the operation's 404 is about; what an unknown id
      // inside a collection (a calendar of a receptionist) gets is not shown.
      if (prefix && listed && listed.size > 0 && path.length === 1) {
        push(
          'negative.unknown-id',
          `body ${at}=${prefix}${UNKNOWN_SUFFIX}`,
          withBodyAt(path, `${prefix}${UNKNOWN_SUFFIX}`),
          {
            expected: { status: 404, codes: [...listed], why: `no ${at} ${prefix}${UNKNOWN_SUFFIX}` },
          },
        );
      }
    } else if (typeof s.pattern === 'string' && typeof value === 'string') {
      const bad = nonMatching(s.pattern);
      if (bad !== undefined) push('negative.pattern', `body ${at}=${preview(bad)}`, withBodyAt(path, bad));
    }
  }

  return withBodyFormReadings(spec, op, baseline, cases);
}

/**
 * Where the request body's form is ambiguous (x-svc-ambiguity body-form), a case that breaks a
 * field the two forms place differently also accepts the other form's refusal of it as unknown.
 */
function withBodyFormReadings(spec: Spec, op: Operation, baseline: OpRequest, cases: NegativeCase[]): NegativeCase[] {
  const base = isObject(baseline.body) ? baseline.body : {};
  return cases.map((c) => {
    const body = c.request.body;
    const touched = isObject(body)
      ? Object.keys({ ...base, ...body }).filter((k) => JSON.stringify(body[k]) !== JSON.stringify(base[k]))
      : [];
    const reading = bodyFormReading(spec, op, baseline, touched);
    return reading ? { ...c, expected: withReadings(c.expected, [reading]) } : c;
  });
}
