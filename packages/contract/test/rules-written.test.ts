// The catalogue's table (src/catalogue.ts) and RULES.md's "enforced by" column are written from the
// checks' descriptions by `pnpm rules:write`: the files in the repository must be what it writes.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { DESCRIBING_MODULES, writtenCatalogue, writtenRules } from '../scripts/rules-text.mjs';
import { type CheckDescription, describedChecks } from '../src/check-descriptions.js';
import { RULE_EXTENSIONS } from '../src/reach/rules.js';

const read = (file: string) => readFileSync(new URL(file, import.meta.url), 'utf8');
const isRuleId = (text: string) => RULE_EXTENSIONS.some((x) => text.startsWith(`${x} `));
let descriptions: readonly CheckDescription[] = [];

beforeAll(async () => {
  for (const module of DESCRIBING_MODULES) await import(`../src/${module.replace(/\.js$/, '.ts')}`);
  // Only the package's own checks: a test file sharing this worker may have described one of its own.
  descriptions = describedChecks().filter((d) => !d.id.startsWith('example.'));
});

describe('what pnpm rules:write writes', () => {
  it('is what src/catalogue.ts holds (run pnpm rules:write after changing a check)', () => {
    const catalogue = read('../src/catalogue.ts');
    expect(writtenCatalogue(catalogue, descriptions)).toBe(catalogue);
    expect(descriptions.length).toBeGreaterThanOrEqual(82);
  });

  it("is what RULES.md's enforced-by column holds (run pnpm rules:write after changing what a check enforces)", () => {
    const rules = read('../RULES.md');
    expect(writtenRules(rules, descriptions, isRuleId)).toBe(rules);
  });

  it('changes with a description: a retitled check, a claim dropped', () => {
    const catalogue = read('../src/catalogue.ts');
    const retitled = descriptions.map((d) => (d.id === 'threads.duplicate' ? { ...d, title: 'Another title' } : d));
    expect(writtenCatalogue(catalogue, retitled)).toContain('"Another title"');
    const rules = read('../RULES.md');
    const row = (text: string) =>
      text.split('\n').find((l) => l.startsWith('| ') && l.includes('`x-svc-option-rules LABEL_UNIQUE`'));
    expect(row(rules)).toContain('| `custom-fields.option-invalid` |');
    const unclaimed = descriptions.map((d) => (d.id === 'custom-fields.option-invalid' ? { ...d, enforces: [] } : d));
    const moved = [
      ...unclaimed,
      { id: 'threads.duplicate', title: 't', source: 's', enforces: ['x-svc-option-rules LABEL_UNIQUE'] },
    ];
    expect(row(writtenRules(rules, moved, isRuleId))).toContain('| `threads.duplicate` |');
  });

  it('has every check state the state it must reach first, so every row a check enforces names it', () => {
    expect(descriptions.filter((d) => !d.precondition?.trim()).map((d) => d.id)).toEqual([]);
    const rows = read('../RULES.md')
      .split('\n')
      .filter((l) => /^\| [^§-]/.test(l));
    const unstated = rows.filter((l) => /\| `[a-z-]+\.[a-z0-9-]+`[^|]*\| [^|]*\| {2}\|$/.test(l));
    expect(unstated).toEqual([]);
  });

  it('writes each enforcing check\'s precondition into its rows\' "reached first" cell, a `|` escaped', () => {
    const rules = read('../RULES.md');
    const stated = descriptions.map((d) =>
      d.id === 'custom-fields.option-invalid' ? { ...d, precondition: 'two options | one label' } : d,
    );
    const row = (text: string) =>
      text.split('\n').find((l) => l.startsWith('| ') && l.includes('`x-svc-option-rules LABEL_UNIQUE`'));
    expect(row(writtenRules(rules, stated, isRuleId))).toMatch(
      /\| `custom-fields.option-invalid` \| {2}\| `custom-fields.option-invalid`: two options \\\| one label \|$/,
    );
    // A row of five cells, as written before the column, gains it; a row of another width is named.
    const five = rules.replace(/^(\| PATCH custom field \| Option labels unique.*) \| [^|]* \|$/m, '$1 |');
    expect(row(writtenRules(five, stated, isRuleId))).toBe(row(writtenRules(rules, stated, isRuleId)));
    const four = rules.replace(/^(\| PATCH custom field \| Option labels unique.*?) \| [^|]*\|[^|]*\|$/m, '$1 |');
    expect(() => writtenRules(four, stated, isRuleId)).toThrow(/RULES.md line \d+ has 4 cells, not 6/);
  });
});
