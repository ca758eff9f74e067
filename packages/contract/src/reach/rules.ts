// The traceability of the spec's rule extensions: every rule the spec encodes for machines
// (x-svc-transitions, x-svc-merge-rules, x-svc-option-rules, x-svc-input-rules, x-svc-response-rules,
// x-svc-detail-rules, x-svc-mentions, x-svc-inline-syntax) by id, read from
// the bundle, against the checks that claim to enforce it. A rule no check claims, or a claim on
// a rule the spec no longer has, is a gap the package's own test fails on (units.test.ts).
import { isObject } from '@svc/spec-runtime';
import type { CheckId } from '../catalogue.js';
import type { Spec } from '../spec.js';

export const RULE_EXTENSIONS = [
  'x-svc-transitions',
  'x-svc-merge-rules',
  'x-svc-option-rules',
  'x-svc-input-rules',
  // What a response holds, omits, orders or names beyond its schema (described-rules.contract.ts).
  'x-svc-response-rules',
  // What a field of an error of one code says (response.error-details), and the mentions of notes and comments.
  'x-svc-detail-rules',
  'x-svc-mentions',
  'x-svc-inline-syntax',
];

export interface RuleRef {
  /** `x-svc-option-rules LABEL_UNIQUE`, `x-svc-transitions action ARCHIVE (any → archived)`. */
  id: string;
  /** Where in the bundle (a JSON pointer). */
  at: string;
}

/** The name of what carries an extension: the last segment of its JSON pointer before the extension. */
const ownerOf = (at: string) => (at.split('/').at(-2) ?? '').replace(/~1/g, '/').replace(/~0/g, '~');

function idsOf(extension: string, value: unknown, at: string): string[] {
  const entries = Array.isArray(value) ? value.filter(isObject) : [];
  switch (extension) {
    case 'x-svc-detail-rules':
      return entries.map((e) =>
        [
          extension,
          ownerOf(at),
          e.field,
          e.names !== undefined ? `names ${String(e.names)}` : `contains ${String(e.contains)}`,
        ].join(' '),
      );
    case 'x-svc-mentions':
      return isObject(value)
        ? [`${extension} ${ownerOf(at)} ${String(value.content)} lists ${String(value.listed)}`]
        : [];
    case 'x-svc-inline-syntax':
      return [`${extension} ${ownerOf(at)}`];
    case 'x-svc-transitions':
      return entries.map((e) => `${extension} ${String(e.trigger)} (${String(e.from)} → ${String(e.to)})`);
    case 'x-svc-merge-rules':
      return isObject(value) ? mergeRuleIds(value) : [];
    case 'x-svc-option-rules':
    case 'x-svc-response-rules':
      return entries.map((e) => `${extension} ${String(e.rule)}`);
    default:
      return entries.map((e) => `${extension} ${String(e.kind)} ${Array.isArray(e.fields) ? e.fields.join(', ') : ''}`);
  }
}

/**
 * `x-svc-merge-rules merged` (the receptionist's, which has no name), `x-svc-merge-rules
 * dialer-queue merged`: one id per list of fields; a named block keeps its ids apart from the others.
 */
function mergeRuleIds(value: Record<string, unknown>): string[] {
  const name = typeof value.name === 'string' ? `${value.name} ` : '';
  return Object.keys(value)
    .filter((k) => Array.isArray(value[k]))
    .map((k) => `x-svc-merge-rules ${name}${k}`);
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
        if (RULE_EXTENSIONS.includes(key)) for (const id of idsOf(key, value, here)) found.push({ id, at: here });
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
    // --- the audit's line
    'x-svc-merge-rules custom-field replaced',
  ],
  'negative.pattern': ['x-svc-option-rules LABEL_NOT_BLANK'],
  'negative.too-long': ['x-svc-option-rules LABEL_MAX_LENGTH'],
  'custom-fields.option-invalid': ['x-svc-option-rules LABEL_UNIQUE'],
  'custom-fields.options-not-supported': ['x-svc-option-rules DROPDOWN_ONLY'],
  'custom-fields.partial-update': [
    'x-svc-option-rules KEY_AND_TYPE_IMMUTABLE',
    // --- the audit's lines
    'x-svc-merge-rules custom-field merged',
    'x-svc-merge-rules custom-field replaced',
  ],
  'custom-fields.description': ['x-svc-input-rules blank-clears description'],
  'dialer-queues.each-value': ['x-svc-input-rules precedence user_id, email'],
  // --- The full sentence audit (issue 24, item 5): partial updates and x-svc-response-rules.
  'dialer-queues.partial-update': ['x-svc-merge-rules dialer-queue merged'],
  'threads.create-then-read': ['x-svc-response-rules CREATED_WITH_FIRST_COMMENT'],
  'described.order': ['x-svc-response-rules COMMENTS_IN_CREATION_ORDER'],
  'described.excludes': ['x-svc-response-rules BUILT_IN_FIELDS_NOT_LISTED'],
  'described.error-mentions': [
    'x-svc-response-rules MISSING_PARAMETER_NAMED',
    'x-svc-response-rules FAILING_VALUE_IN_MESSAGE',
  ],
  // --- end of the audit's lines
  'response.error-details': [
    'x-svc-detail-rules API_KEY_INSUFFICIENT_SCOPE message names required-scope',
    'x-svc-detail-rules INVALID_PHONE_FORMAT suggestion contains E.164',
    'x-svc-detail-rules CONVERSATION_ITEM_NOT_FOUND message names failing-value',
    'x-svc-detail-rules MEMBER_NOT_FOUND message names failing-value',
    'x-svc-detail-rules CALL_NOT_FOUND message names failing-value',
    'x-svc-detail-rules TEXT_MESSAGE_NOT_FOUND message names failing-value',
    'x-svc-detail-rules PHONE_NUMBER_NOT_FOUND message names failing-value',
    'x-svc-detail-rules TAG_NOT_FOUND message names failing-value',
    'x-svc-detail-rules SUMMARY_TEMPLATE_NOT_FOUND message names failing-value',
    'x-svc-detail-rules PERSON_NOT_FOUND message names failing-value',
    'x-svc-detail-rules NOTE_NOT_FOUND message names failing-value',
    'x-svc-detail-rules THREAD_NOT_FOUND message names failing-value',
    'x-svc-detail-rules ATTRIBUTE_NOT_FOUND message names failing-value',
    'x-svc-detail-rules ASSIGNEE_NOT_FOUND message names failing-value',
  ],
  'response.mentions': [
    'x-svc-mentions ConversationNote content lists mentions',
    'x-svc-mentions ThreadComment content lists mentions',
    'x-svc-inline-syntax NoteMention',
  ],
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
