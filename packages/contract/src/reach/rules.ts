// The traceability of the spec's rule extensions: every rule the spec encodes for machines
// (x-svc-transitions, x-svc-merge-rules, x-svc-option-rules, x-svc-input-rules, x-svc-response-rules,
// x-svc-detail-rules, x-svc-mentions, x-svc-inline-syntax) by id, read from
// the bundle, against the checks that claim to enforce it. A rule no check claims, or a claim on
// a rule the spec no longer has, is a gap the package's own test fails on (units.test.ts).
import { isObject } from '@svc/spec-runtime';
import { CHECKS, type CheckId, type CheckInfo } from '../catalogue.js';
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

/**
 * Which checks enforce which rules of the extensions: written from each check's `enforces` (the
 * catalogue's table, itself written from the checks' descriptions); RULES.md's column says the same.
 */
export const ENFORCED_BY: Partial<Record<CheckId, readonly string[]>> = Object.fromEntries(
  Object.entries(CHECKS as Record<string, CheckInfo>).flatMap(([id, info]) =>
    info.enforces?.length ? [[id, info.enforces]] : [],
  ),
);

/** Rules no check claims, and claims on rules the spec does not have: both empty when traced. */
export function traceGaps(spec: Spec): { unclaimed: string[]; stale: string[] } {
  const rules = new Set(ruleExtensions(spec).map((r) => r.id));
  const claimed = new Set(Object.values(ENFORCED_BY).flatMap((ids) => [...(ids ?? [])]));
  return {
    unclaimed: [...rules].filter((id) => !claimed.has(id)),
    stale: [...claimed].filter((id) => !rules.has(id)),
  };
}
