// Every honesty marker of the contract has a control or a stated reason (support/marker-controls.ts):
// the markers are listed from the bundle itself, so a marker added to the spec without one fails
// here. The controls themselves run in the mutants test files.
import { isObject } from '@svc/spec-runtime';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../src/spec.js';
import { CONTROLS } from './support/controls.js';
import { MARKER_RULES } from './support/marker-controls.js';

const KINDS = ['x-svc-ambiguity', 'x-svc-unspecified', 'x-svc-inferred'];

/** Every marker of a bundle, as `<pointer with ~1 read as /> <marker>[.<aspect>]` (one per aspect of a map). */
function markersOf(bundle: unknown): string[] {
  const found: string[] = [];
  const walk = (node: unknown, pointer: string) => {
    if (Array.isArray(node)) for (const [i, v] of node.entries()) walk(v, `${pointer}/${i}`);
    if (!isObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (!KINDS.includes(key)) walk(value, `${pointer}/${key}`);
      else if (isObject(value)) for (const aspect of Object.keys(value)) found.push(`${pointer} ${key}.${aspect}`);
      else found.push(`${pointer} ${key}`);
    }
  };
  walk(bundle, '#');
  return found;
}

const markers = markersOf(loadSpec().contract.bundle);
const ruleOf = (marker: string) => MARKER_RULES.find((r) => r.markers.test(marker));

describe('every marker of the contract has a control or a reason', () => {
  it('the bundle holds markers of every kind (the listing works)', () => {
    for (const kind of KINDS)
      expect(
        markers.some((m) => m.includes(` ${kind}`)),
        kind,
      ).toBe(true);
    expect(markers).toContain('#/components/parameters/PatchIdempotencyKeyParameter x-svc-inferred.replay');
    expect(markers).toContain('#/paths//v2/api/numbers/{number}/agent/get x-svc-ambiguity.line-access');
  });

  it('no marker is left without a rule', () => {
    expect(markers.filter((m) => ruleOf(m) === undefined)).toEqual([]);
  });

  it('every rule covers a marker, and names controls that exist or a reason', () => {
    const names = new Set(CONTROLS.map((c) => c.name));
    for (const rule of MARKER_RULES) {
      expect(
        markers.some((m) => ruleOf(m) === rule),
        String(rule.markers),
      ).toBe(true);
      expect((rule.controls?.length ?? 0) > 0 || (rule.reason?.length ?? 0) > 0, String(rule.markers)).toBe(true);
      for (const name of rule.controls ?? []) expect(names, name).toContain(name);
    }
  });

  it('an ambiguity added to the spec without a control fails the listing', () => {
    const bundle = structuredClone(loadSpec().contract.bundle) as { components: { schemas: Record<string, object> } };
    bundle.components.schemas.Thread = { ...bundle.components.schemas.Thread, 'x-svc-ambiguity': 'Two readings.' };
    const added = markersOf(bundle).filter((m) => !markers.includes(m));
    expect(added).toEqual(['#/components/schemas/Thread x-svc-ambiguity']);
    expect(added.filter((m) => ruleOf(m) === undefined)).toEqual(added);
  });
});
