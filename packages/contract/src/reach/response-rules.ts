// The spec's x-svc-response-rules: what a response holds, omits, orders or names beyond what its
// schema can say (a list in creation order, values a list never holds, the text an error's field
// names). On an operation they are that operation's; on a schema (the error catalogue) they hold
// wherever the schema's values are answered. This module only reads them, checked for shape.
import { isObject, type Operation } from '@svc/spec-runtime';
import type { Spec } from '../spec.js';

interface RuleBase {
  /** The rule's name in the spec (`COMMENTS_IN_CREATION_ORDER`). */
  rule: string;
  description: string;
}

/** The entries of a list (dotted path to an array: `data.comments`) come ordered by a field. */
export interface OrderRule extends RuleBase {
  kind: 'order';
  array: string;
  by: string;
  direction: 'ascending' | 'descending';
}

/** No entry of a list has one of these values in `field` (the examples the description gives). */
export interface ExcludesRule extends RuleBase {
  kind: 'excludes';
  array: string;
  field: string;
  examples: string[];
}

/** Values at dotted paths (`data.comment_count`, `data.comments.length`). */
export interface EqualsRule extends RuleBase {
  kind: 'equals';
  values: Record<string, unknown>;
}

/**
 * What an error names that depends on the request: the parameter left out, the value sent. (The
 * scope a key lacks is an x-svc-detail-rules entry on its code, read by response.error-details.)
 */
export type NamedByRequest = 'missing-parameter' | 'failing-value';
const NAMED: readonly NamedByRequest[] = ['missing-parameter', 'failing-value'];

/**
 * An error of `code` (or of every code of `type`) carries in its `field` one of the texts of
 * `mentions`, or what `names` says the request decides.
 */
export interface ErrorMentionsRule extends RuleBase {
  kind: 'error-mentions';
  code?: string;
  type?: string;
  field: string;
  mentions?: string[];
  names?: NamedByRequest;
}

export type ResponseRule = OrderRule | ExcludesRule | EqualsRule | ErrorMentionsRule;

const EXTENSION = 'x-svc-response-rules';
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);

/** One entry, checked for what its kind needs (a malformed entry is a contract bug: it throws). */
function parse(entry: unknown, where: string): ResponseRule {
  const e = isObject(entry) ? entry : {};
  const base = { rule: String(e.rule ?? ''), description: String(e.description ?? '') };
  const text = (key: string) => {
    if (typeof e[key] !== 'string' || e[key] === '') throw new Error(`${where} ${base.rule}: ${key} must be a string.`);
    return e[key] as string;
  };
  if (base.rule === '') throw new Error(`${where}: an ${EXTENSION} entry needs a rule name.`);
  switch (e.kind) {
    case 'order':
      return { ...base, kind: 'order', array: text('array'), by: text('by'), direction: orderOf(e.direction) };
    case 'excludes':
      return { ...base, kind: 'excludes', array: text('array'), field: text('field'), examples: strings(e.examples) };
    case 'equals':
      if (!isObject(e.values)) throw new Error(`${where} ${base.rule}: values must be a map.`);
      return { ...base, kind: 'equals', values: e.values };
    case 'error-mentions':
      return errorMentions(e, base, where);
    default:
      throw new Error(`${where} ${base.rule}: unknown kind ${String(e.kind)}.`);
  }
}

function errorMentions(e: Record<string, unknown>, base: RuleBase, where: string): ErrorMentionsRule {
  const at = `${where} ${base.rule}`;
  const code = typeof e.code === 'string' ? e.code : undefined;
  const type = typeof e.type === 'string' ? e.type : undefined;
  const names = NAMED.find((n) => n === e.names);
  const mentions = strings(e.mentions);
  if (typeof e.field !== 'string') throw new Error(`${at}: field must be a string.`);
  if (!code && !type) throw new Error(`${at}: an error-mentions rule needs a code or a type.`);
  if (!names && mentions.length === 0)
    throw new Error(`${at}: mentions (texts) or names (${NAMED.join(', ')}) needed.`);
  return {
    ...base,
    kind: 'error-mentions',
    field: e.field,
    ...(code ? { code } : {}),
    ...(type ? { type } : {}),
    ...(names ? { names } : { mentions }),
  };
}

const orderOf = (v: unknown): 'ascending' | 'descending' => (v === 'descending' ? 'descending' : 'ascending');

const listAt = (node: unknown, where: string): unknown[] => {
  if (node === undefined) return [];
  if (!Array.isArray(node)) throw new Error(`${where}: ${EXTENSION} must be a list.`);
  return node;
};

/** The rules an operation states for its own responses. */
export function operationResponseRules(op: Operation): ResponseRule[] {
  return listAt(op.raw[EXTENSION], op.operationId).map((e) => parse(e, op.operationId));
}

/** The rules the error catalogue states for errors of some code, wherever they are answered. */
export function errorResponseRules(spec: Spec): ErrorMentionsRule[] {
  const catalogue = spec.schema('ErrorCode');
  return listAt(catalogue?.[EXTENSION], 'ErrorCode')
    .map((e) => parse(e, 'ErrorCode'))
    .filter((r): r is ErrorMentionsRule => r.kind === 'error-mentions');
}

/** The value at a dotted path, where `length` of an array is its length (`data.comments.length`). */
export function valueAtPath(value: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => {
    if (Array.isArray(node) && key === 'length') return node.length;
    return isObject(node) ? node[key] : undefined;
  }, value);
}
