// The combination rules a request body documents in `x-svc-input-rules` (precedence of one field
// over another, a blank value that clears, fields that exclude each other), and whether a body
// exercises one. The rules are the spec's; this module only reads them.
import { deref, isObject, type Operation } from '@svc/spec-runtime';
import type { Spec } from '../spec.js';

export type InputRuleKind = 'precedence' | 'blank-clears' | 'mutual-exclusion';
const KINDS: readonly InputRuleKind[] = ['precedence', 'blank-clears', 'mutual-exclusion'];

export interface InputRule {
  /** `rule precedence user_id over email`, `rule blank-clears description`. */
  id: string;
  kind: InputRuleKind;
  /** Body fields (dotted paths): for precedence, the winner first. */
  fields: string[];
  description: string;
}

function idOf(kind: InputRuleKind, fields: string[]): string {
  if (kind === 'precedence') return `rule precedence ${fields[0]} over ${fields.slice(1).join(', ')}`;
  return `rule ${kind} ${fields.join(', ')}`;
}

/** The body schema's x-svc-input-rules, checked for shape (a malformed entry is a contract bug). */
export function inputRulesOf(spec: Spec, op: Operation): InputRule[] {
  if (!op.requestBody) return [];
  const raw = deref(spec.contract, spec.resolve(op.requestBody.schemaPointer))['x-svc-input-rules'];
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw new Error(`${op.operationId}: x-svc-input-rules must be a list.`);
  return raw.map((entry, i) => {
    const kind = isObject(entry) ? entry.kind : undefined;
    const fields = isObject(entry) && Array.isArray(entry.fields) ? entry.fields.map(String) : [];
    if (!KINDS.includes(kind as InputRuleKind) || fields.length === 0)
      throw new Error(`${op.operationId}: x-svc-input-rules[${i}] needs a kind (${KINDS.join(', ')}) and fields.`);
    const description = isObject(entry) && typeof entry.description === 'string' ? entry.description : '';
    return { id: idOf(kind as InputRuleKind, fields), kind: kind as InputRuleKind, fields, description };
  });
}

/** The value at a dotted path of a body (undefined: absent). */
export function valueAt(body: unknown, path: string): unknown {
  let node = body;
  for (const part of path.split('.')) node = isObject(node) ? node[part] : undefined;
  return node;
}

/** Whether a body that succeeded exercised the rule: both fields sent, a blank sent, one of the exclusive fields alone. */
export function ruleSent(rule: InputRule, body: unknown): boolean {
  const present = rule.fields.filter((f) => valueAt(body, f) !== undefined);
  if (rule.kind === 'precedence') return present.length === rule.fields.length;
  if (rule.kind === 'blank-clears') {
    const value = valueAt(body, rule.fields[0] as string);
    return typeof value === 'string' && value.trim() === '';
  }
  return present.length === 1;
}
