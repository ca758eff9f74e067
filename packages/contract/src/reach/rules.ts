// The traceability of the spec's rule extensions: every rule the spec encodes for machines
// (x-svc-transitions, x-svc-merge-rules, x-svc-option-rules, x-svc-input-rules) by id, read from
// the bundle, against the checks that claim to enforce it. A rule no check claims, or a claim on
// a rule the spec no longer has, is a gap the package's own test fails on (units.test.ts).
import { isObject } from '@svc/spec-runtime';
import type { CheckId } from '../checks/catalogue.js';
import type { Spec } from '../spec.js';

export const RULE_EXTENSIONS = ['x-svc-transitions', 'x-svc-merge-rules', 'x-svc-option-rules', 'x-svc-input-rules'];

export interface RuleRef {
  /** `x-svc-option-rules LABEL_UNIQUE`, `x-svc-transitions action ARCHIVE (any → archived)`. */
  id: string;
  /** Where in the bundle (a JSON pointer). */
  at: string;
}

function idsOf(extension: string, value: unknown): string[] {
  const entries = Array.isArray(value) ? value.filter(isObject) : [];
  switch (extension) {
    case 'x-svc-transitions':
      return entries.map((e) => `${extension} ${String(e.trigger)} (${String(e.from)} → ${String(e.to)})`);
    case 'x-svc-merge-rules':
      return isObject(value) ? Object.keys(value).map((k) => `${extension} ${k}`) : [];
    case 'x-svc-option-rules':
      return entries.map((e) => `${extension} ${String(e.rule)}`);
    default:
      return entries.map((e) => `${extension} ${String(e.kind)} ${Array.isArray(e.fields) ? e.fields.join(', ') : ''}`);
  }
}

/** Every rule the bundle encodes in a rule extension, wherever it sits. */
export function ruleExtensions(spec: Spec): RuleRef[] {
  const found: RuleRef[] = [];
  const walk = (node: unknown, at: string, depth: number) => {
    if (depth > 40) return;
    if (Array.isArray(node)) for (const [i, x] of node.entries()) walk(x, `${at}/${i}`, depth + 1);
    else if (isObject(node))
      for (const [key, value] of Object.entries(node)) {
        const here = `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        if (RULE_EXTENSIONS.includes(key)) for (const id of idsOf(key, value)) found.push({ id, at: here });
        else walk(value, here, depth + 1);
      }
  };
  walk(spec.contract.bundle, '#', 0);
  return found;
}

/** Which checks enforce which rules of the extensions (the README's "rule by rule" table says the same in words). */
export const ENFORCED_BY: Partial<Record<CheckId, readonly string[]>> = {
  'conversations.action-idempotent': [
    'x-svc-transitions action READ (any → read)',
    'x-svc-transitions action UNREAD (any → unread)',
  ],
  'conversations.archive': [
    'x-svc-transitions action ARCHIVE (any → archived)',
    'x-svc-transitions action UNARCHIVE (archived → unarchived)',
  ],
  'summary-templates.delete': [
    'x-svc-transitions DELETE /v2/api/summary_templates/{id} (active → deactivated)',
    'x-svc-transitions DELETE /v2/api/summary_templates/{id} (deactivated → deactivated)',
  ],
  'receptionist.merge-rules': ['x-svc-merge-rules merged'],
  'receptionist.collections-replaced': ['x-svc-merge-rules replaced'],
  'custom-fields.option-rules': [
    'x-svc-option-rules RENAME_BY_KEY',
    'x-svc-option-rules NEW_WITHOUT_MATCHING_KEY',
    'x-svc-option-rules REMOVE_MISSING',
  ],
  'negative.pattern': ['x-svc-option-rules LABEL_NOT_BLANK'],
  'negative.too-long': ['x-svc-option-rules LABEL_MAX_LENGTH'],
  'custom-fields.option-invalid': ['x-svc-option-rules LABEL_UNIQUE'],
  'custom-fields.options-not-supported': ['x-svc-option-rules DROPDOWN_ONLY'],
  'custom-fields.partial-update': ['x-svc-option-rules KEY_AND_TYPE_IMMUTABLE'],
  'custom-fields.description': ['x-svc-input-rules blank-clears description'],
  'dialer-queues.each-value': ['x-svc-input-rules precedence user_id, email'],
};

/** Rules no check claims, and claims on rules the spec does not have: both empty when traced. */
export function traceGaps(spec: Spec): { unclaimed: string[]; stale: string[] } {
  const rules = new Set(ruleExtensions(spec).map((r) => r.id));
  const claimed = new Set(Object.values(ENFORCED_BY).flatMap((ids) => [...(ids ?? [])]));
  return {
    unclaimed: [...rules].filter((id) => !claimed.has(id)),
    stale: [...claimed].filter((id) => !rules.has(id)),
  };
}
