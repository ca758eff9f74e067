// Input coverage, both ways, from the contract alone: what an operation documents (every
// parameter, every body field at every depth, every enum value, every combination rule of
// `x-svc-input-rules`, every validation rule), and what one exchange of the run exercised (the
// inputs of a request that succeeded, or the one rule a refused request broke alone). Nothing here
// lists an operation's inputs by hand: the bundle is walked, and the request is validated by
// spec-runtime to learn which rule it breaks.
import {
  codeOf,
  deref,
  getByPointer,
  isObject,
  type JsonObject,
  type Operation,
  propertiesOf,
  requiredOf,
  typesOf,
  type Violation,
} from '@svc/spec-runtime';
import { bodyFormFields } from '../expectations/readings.js';
import { type ApiRequest, wireOf } from '../http/exchange.js';
import type { Spec } from '../spec.js';
import { inputRulesOf, ruleSent } from './input-rules.js';

/** Keywords that state a validation rule of a value (a type mismatch is not a documented rule). */
const RULE_KEYWORDS = [
  'enum',
  'const',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
] as const;

/** Keywords that only say which branch failed: the branch's own violation names the rule. */
const COMBINATORS = new Set(['anyOf', 'oneOf', 'allOf', 'not', 'if', 'then', 'else']);

export interface DocumentedInputs {
  /** What some request that succeeded must carry: `query size`, `body options[].label`, `body action=READ`, `rule …`. */
  sent: string[];
  /** What some refused request must break alone: `query size maximum`, `body content required`. */
  rules: string[];
}

/** What one exchange exercised, as ids of DocumentedInputs. */
export interface ExercisedInputs {
  sent: string[];
  broke: string[];
}

const join = (path: string, name: string) => (path === '' ? name : `${path}.${name}`);
const MAX_DEPTH = 12;

interface SchemaNode {
  path: string;
  schema: JsonObject;
  /** The nodes along the `$ref` chain that led here (a property's own x-svc-error-code sits beside its $ref). */
  chain: JsonObject[];
}

/** The nodes a chain of `$ref`s passes through, the target last. */
function refChain(spec: Spec, raw: unknown): JsonObject[] {
  const chain: JsonObject[] = [];
  let node = raw;
  for (let hops = 0; hops < 32 && isObject(node); hops++) {
    chain.push(node);
    if (typeof node.$ref !== 'string') break;
    node = getByPointer(spec.contract.bundle, node.$ref);
  }
  return chain;
}

/** Whether the contract names a code for a failure of `keyword` here (a rule it documents). */
function coded(chain: readonly JsonObject[], keyword: string, mapOnly = false): boolean {
  return chain.some((node) => codeOf(node, keyword, mapOnly) !== null);
}

/** Every schema under a root with the body path it describes; allOf/anyOf/oneOf branches share their path. */
function schemaNodes(spec: Spec, root: unknown): SchemaNode[] {
  const nodes: SchemaNode[] = [];
  const visit = (raw: unknown, path: string, depth: number) => {
    if (depth > MAX_DEPTH) return;
    const chain = refChain(spec, raw);
    const schema = deref(spec.contract, raw);
    nodes.push({ path, schema, chain });
    for (const branch of ['allOf', 'anyOf', 'oneOf'] as const) {
      const list = schema[branch];
      if (Array.isArray(list)) for (const part of list) visit(part, path, depth + 1);
    }
    if (isObject(schema.properties))
      for (const [name, prop] of Object.entries(schema.properties)) visit(prop, join(path, name), depth + 1);
    if (schema.items !== undefined) visit(schema.items, `${path}[]`, depth + 1);
  };
  visit(root, '', 0);
  return nodes;
}

function enumValues(schema: JsonObject): string[] {
  return Array.isArray(schema.enum) ? schema.enum.filter((v) => v !== null).map(String) : [];
}

/** Limits the description states in numbers (lengths, sizes, ranges): rules even where no code is named for them. */
const LIMITS = new Set(['minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems']);

/**
 * The rules a value's schema states: those the contract names a code for, and the limits of body
 * fields and numeric query parameters (generate/constraints.ts counts the same). Others (a header's
 * minLength 1, an email format) are the spec's own inference, not rules of the description.
 */
function keywordRules(
  where: string,
  schema: JsonObject,
  chain: readonly JsonObject[],
  options: { limits: boolean; override?: unknown },
): string[] {
  const { limits, override } = options;
  const named = (k: string) =>
    coded(chain, k) || (override !== undefined && codeOf({ 'x-svc-error-code': override }, k) !== null);
  // A minimum length or count of 0 constrains nothing.
  const limit = (k: string) => limits && LIMITS.has(k) && !(k !== 'minimum' && k.startsWith('min') && schema[k] === 0);
  return RULE_KEYWORDS.filter((k) => schema[k] !== undefined && (named(k) || limit(k))).map((k) => `${where} ${k}`);
}

function bodyInputs(spec: Spec, op: Operation, out: DocumentedInputs): void {
  if (!op.requestBody) return;
  if (op.requestBody.required && spec.contract.catalogue.has('INVALID_REQUEST_BODY'))
    out.rules.push('body body required');
  for (const { path, schema, chain } of schemaNodes(spec, spec.resolve(op.requestBody.schemaPointer))) {
    if (path !== '') out.sent.push(`body ${path}`);
    for (const value of enumValues(schema)) out.sent.push(`body ${path}=${value}`);
    if (path !== '') out.rules.push(...keywordRules(`body ${path}`, schema, chain, { limits: true }));
    const props = isObject(schema.properties) ? schema.properties : {};
    for (const name of requiredOf(spec.contract, schema))
      if (name in props && (coded(refChain(spec, props[name]), 'required', true) || coded(chain, 'required', true)))
        out.rules.push(`body ${join(path, name)} required`);
    if (schema.additionalProperties === false && coded(chain, 'additionalProperties'))
      out.rules.push(`body ${join(path, '*')} additionalProperties`);
  }
}

/**
 * Where a body's form is ambiguous (x-svc-ambiguity body-form: the receptionist's single values
 * flat or inside `agent`), the two places of one field are one input: `body agent.name` and
 * `body name` both read `body name`, and the block itself is no input of its own. Identity elsewhere.
 */
function formAlias(spec: Spec, op: Operation): (id: string) => string | undefined {
  const placed = bodyFormFields(spec, op);
  if (placed.size === 0 || !op.requestBody) return (id) => id;
  const top = propertiesOf(spec.contract, spec.resolve(op.requestBody.schemaPointer));
  const blocks = [...placed].filter((n) => top[n] !== undefined && typesOf(top[n] as JsonObject).includes('object'));
  return (id) => {
    for (const block of blocks) {
      if (id === `body ${block}`) return undefined;
      const prefix = `body ${block}.`;
      if (id.startsWith(prefix) && placed.has(/^[^.[= ]+/.exec(id.slice(prefix.length))?.[0] ?? ''))
        return `body ${id.slice(prefix.length)}`;
    }
    return id;
  };
}

const aliased = (ids: readonly string[], alias: (id: string) => string | undefined): string[] => [
  ...new Set(ids.map(alias).filter((id): id is string => id !== undefined)),
];

const memo = new WeakMap<Operation, DocumentedInputs>();

/** Everything the operation documents about its input, read from the bundle. */
export function documentedInputs(spec: Spec, op: Operation): DocumentedInputs {
  const known = memo.get(op);
  if (known) return known;
  const out: DocumentedInputs = { sent: [], rules: [] };
  for (const p of op.parameters) {
    const schema = deref(spec.contract, p.schema);
    out.sent.push(`${p.in} ${p.name}`);
    for (const value of enumValues(schema)) out.sent.push(`${p.in} ${p.name}=${value}`);
    // A path parameter cannot be left out or empty and still address the operation: its required
    // and minLength are the route's, not rules a request can break alone.
    if (p.in === 'path') continue;
    if (p.required) out.rules.push(`${p.in} ${p.name} required`);
    const numeric = p.in === 'query' && typesOf(schema).some((t) => t === 'integer' || t === 'number');
    out.rules.push(
      ...keywordRules(`${p.in} ${p.name}`, schema, refChain(spec, p.schema), {
        limits: numeric,
        override: p.errorCode,
      }),
    );
  }
  bodyInputs(spec, op, out);
  for (const r of inputRulesOf(spec, op)) out.sent.push(r.id);
  const alias = formAlias(spec, op);
  const unique = { sent: aliased(out.sent, alias), rules: aliased(out.rules, alias) };
  memo.set(op, unique);
  return unique;
}

/** The paths (`a.b`, `a[].c`) and scalar values (`a.b=X`) a JSON body carries. */
function bodyPaths(value: unknown, path: string, out: Set<string>, depth = 0): void {
  if (depth > MAX_DEPTH) return;
  if (Array.isArray(value)) {
    for (const item of value) {
      out.add(`body ${path}[]`);
      bodyPaths(item, `${path}[]`, out, depth + 1);
    }
    return;
  }
  if (isObject(value)) {
    for (const [name, child] of Object.entries(value)) {
      out.add(`body ${join(path, name)}`);
      bodyPaths(child, join(path, name), out, depth + 1);
    }
    return;
  }
  if (path !== '' && (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'))
    out.add(`body ${path}=${String(value)}`);
}

/** A violation as the rule id it breaks: `body options[].label maxLength`, `body * additionalProperties`. */
export function ruleOf(v: Violation): string {
  const field = v.field.replace(/\[\d+\]/g, '[]');
  if (v.keyword === 'additionalProperties') {
    const cut = field.lastIndexOf('.');
    return `${v.location} ${cut < 0 ? '*' : `${field.slice(0, cut)}.*`} additionalProperties`;
  }
  return `${v.location} ${field} ${v.keyword}`;
}

/** The request's parts as spec-runtime validates them. */
function partsOf(spec: Spec, request: ApiRequest, params: Record<string, string>) {
  const { headers } = wireOf(request, '', spec);
  return { params, query: request.query ?? {}, headers, body: request.body };
}

/**
 * What one answered request exercised: on a 2xx, every documented input it carried; on a 4xx,
 * the one rule it broke, when it broke exactly one (a request breaking two proves neither).
 */
export function exercisedInputs(
  spec: Spec,
  op: Operation,
  request: ApiRequest,
  params: Record<string, string>,
  status: number,
): ExercisedInputs {
  const documented = documentedInputs(spec, op);
  if (status >= 200 && status < 300) {
    const carried = new Set<string>();
    const parts = partsOf(spec, request, params);
    for (const p of op.parameters) {
      const raw =
        p.in === 'path'
          ? params[p.name]
          : p.in === 'query'
            ? parts.query[p.name]
            : Object.entries(parts.headers).find(([k]) => k.toLowerCase() === p.name.toLowerCase())?.[1];
      if (raw === undefined) continue;
      carried.add(`${p.in} ${p.name}`);
      carried.add(`${p.in} ${p.name}=${raw}`);
    }
    if (request.rawBody === undefined) bodyPaths(request.body, '', carried);
    for (const r of inputRulesOf(spec, op)) if (ruleSent(r, request.body)) carried.add(r.id);
    const sent = new Set(aliased([...carried], formAlias(spec, op)));
    return { sent: documented.sent.filter((id) => sent.has(id)), broke: [] };
  }
  if (status < 400 || status >= 500 || request.rawBody !== undefined) return { sent: [], broke: [] };
  const violations = spec.contract.validateRequest(op, partsOf(spec, request, params));
  const broken = new Set(
    aliased(violations.filter((v) => !COMBINATORS.has(v.keyword)).map(ruleOf), formAlias(spec, op)),
  );
  const [only] = broken;
  return { sent: [], broke: broken.size === 1 && only && documented.rules.includes(only) ? [only] : [] };
}
