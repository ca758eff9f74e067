// The traceability matrix (RULES.md) against the code: every rule extension of the spec has a row,
// every check a row names is in the catalogue, and a row naming rule extensions lists exactly the
// checks ENFORCED_BY gives them. Also the readers behind the described.* checks.
import { readFileSync } from 'node:fs';
import type { JsonObject, Operation } from '@svc/spec-runtime';
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../src/catalogue.js';
import { errorResponseRules, operationResponseRules, valueAtPath } from '../src/reach/response-rules.js';
import { ENFORCED_BY, RULE_EXTENSIONS, ruleExtensions } from '../src/reach/rules.js';
import { outOfOrder } from '../src/rules/described-order.js';
import { loadSpec } from '../src/spec.js';

const spec = loadSpec();
const matrix = readFileSync(new URL('../RULES.md', import.meta.url), 'utf8');

interface Row {
  line: number;
  rule: string;
  ruleIds: string[];
  checks: string[];
  also: string[];
  enforcedText: string;
}

const GROUPS = new Set(Object.keys(CHECKS).map((id) => id.split('.')[0]));
const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
/** Backticked check ids: a known group, a dot, a name (`knowledge.text` is no group, so no check). */
const checkIdsIn = (cell: string) =>
  ticked(cell).filter((t) => /^[a-z-]+\.[a-z0-9-]+$/.test(t) && GROUPS.has(t.split('.')[0]));
const ruleIdsIn = (cell: string) => ticked(cell).filter((t) => RULE_EXTENSIONS.some((x) => t.startsWith(`${x} `)));

/** The rows of the matrix table (after its header), split into cells. */
function rowsOf(text: string): Row[] {
  const lines = text.split('\n');
  const header = lines.findIndex((l) => l.startsWith('| § |'));
  const rows: Row[] = [];
  for (let i = header + 2; i < lines.length && lines[i]?.startsWith('|'); i++) {
    const cells = (lines[i] as string).split(' | ').map((c) => c.replace(/^\| ?| ?\|$/g, '').trim());
    const [, rule = '', encoded = '', enforced = '', also = ''] = cells;
    rows.push({
      line: i + 1,
      rule,
      ruleIds: ruleIdsIn(encoded),
      checks: checkIdsIn(enforced),
      also: checkIdsIn(also),
      enforcedText: enforced,
    });
  }
  return rows;
}

/** Which claims ENFORCED_BY makes on the given rule ids. */
function claimersOf(ruleIds: string[]): string[] {
  return Object.entries(ENFORCED_BY)
    .filter(([, ids]) => (ids ?? []).some((id) => ruleIds.includes(id)))
    .map(([check]) => check)
    .sort();
}

/** Everything wrong between a matrix and the code, as readable lines (empty: they agree). */
function disagreements(text: string): string[] {
  const rows = rowsOf(text);
  const out: string[] = [];
  const listed = new Set(rows.flatMap((r) => r.ruleIds));
  for (const { id } of ruleExtensions(spec)) if (!listed.has(id)) out.push(`no row encodes ${id}`);
  for (const row of rows) {
    for (const id of row.ruleIds)
      if (!ruleExtensions(spec).some((r) => r.id === id)) out.push(`line ${row.line}: the spec has no ${id}`);
    for (const id of [...row.checks, ...row.also])
      if (!(id in CHECKS)) out.push(`line ${row.line}: no check ${id} in the catalogue`);
    const decided = /^(not checkable from outside, because .+|not checked yet: .+)$/.test(row.enforcedText);
    if (row.checks.length === 0 && !decided) out.push(`line ${row.line}: neither a check nor a reason`);
    // A reason names no enforcing check: checks that read the rule in passing go under "also".
    if (row.checks.length > 0 && decided) out.push(`line ${row.line}: a reason beside checks`);
    if (row.ruleIds.length > 0 && JSON.stringify([...row.checks].sort()) !== JSON.stringify(claimersOf(row.ruleIds)))
      out.push(
        `line ${row.line}: names ${row.checks.join(', ') || 'no check'}, ENFORCED_BY gives ${claimersOf(row.ruleIds).join(', ') || 'none'}`,
      );
  }
  return out;
}

describe('the traceability matrix (RULES.md)', () => {
  it('holds a row per rule sentence, each with a check or a reason', () => {
    const rows = rowsOf(matrix);
    expect(rows.length).toBeGreaterThan(100);
    expect(rows.find((r) => r.rule.startsWith('Options missing from the list are removed'))?.checks).toEqual([
      'custom-fields.option-rules',
    ]);
  });

  it('agrees with the spec, the catalogue and ENFORCED_BY', () => {
    expect(disagreements(matrix)).toEqual([]);
  });

  it('names a rule missing from the table, a check the catalogue lacks and a row that disagrees with ENFORCED_BY', () => {
    const broken = matrix
      .replace(/^\| PATCH custom field \| Option labels unique.*\n/m, '')
      .replace('| `threads.duplicate` |', '| `threads.duplicat` |')
      .replace(
        '| `x-svc-input-rules blank-clears description` | `custom-fields.description` |',
        '| `x-svc-input-rules blank-clears description` | `custom-fields.partial-update` |',
      )
      .replace('| not checkable from outside, because keys are generated', '| keys are generated');
    expect(disagreements(broken)).toEqual([
      'no row encodes x-svc-option-rules LABEL_UNIQUE',
      expect.stringMatching(/^line \d+: neither a check nor a reason$/),
      expect.stringMatching(/^line \d+: no check threads.duplicat in the catalogue$/),
      expect.stringMatching(
        /^line \d+: names custom-fields.partial-update, ENFORCED_BY gives custom-fields.description$/,
      ),
    ]);
  });
});

describe('the x-svc-response-rules readers', () => {
  it('reads every response rule of the bundle by its id, and each entry by its kind', () => {
    expect(
      ruleExtensions(spec)
        .map((r) => r.id)
        .filter((id) => id.startsWith('x-svc-response-rules '))
        .sort(),
    ).toEqual([
      'x-svc-response-rules BUILT_IN_FIELDS_NOT_LISTED',
      'x-svc-response-rules COMMENTS_IN_CREATION_ORDER',
      'x-svc-response-rules CREATED_WITH_FIRST_COMMENT',
      'x-svc-response-rules FAILING_VALUE_IN_MESSAGE',
      'x-svc-response-rules MISSING_PARAMETER_NAMED',
    ]);
    const getThread = spec.contract.operationsById.get('getThread');
    expect(getThread && operationResponseRules(getThread)).toMatchObject([
      {
        rule: 'COMMENTS_IN_CREATION_ORDER',
        kind: 'order',
        array: 'data.comments',
        by: 'created_at',
        direction: 'ascending',
      },
    ]);
    expect(errorResponseRules(spec).map((r) => [r.code ?? r.type, r.field, r.mentions ?? r.names])).toEqual([
      ['MISSING_PARAMETER', 'param', 'missing-parameter'],
      ['validation_error', 'message', 'failing-value'],
    ]);
    expect(valueAtPath({ data: { comments: [1, 2] } }, 'data.comments.length')).toBe(2);
  });

  it('refuses a malformed entry: a contract bug, not a pass', () => {
    const getThread = spec.contract.operationsById.get('getThread');
    if (!getThread) throw new Error('no getThread');
    const broken = (entry: JsonObject): Operation => ({
      ...getThread,
      raw: { ...getThread.raw, 'x-svc-response-rules': [entry] },
    });
    expect(() => operationResponseRules(broken({ rule: 'X', kind: 'order', by: 'created_at' }))).toThrow(
      'getThread X: array must be a string.',
    );
    expect(() => operationResponseRules(broken({ rule: 'X', kind: 'sorted' }))).toThrow(
      'getThread X: unknown kind sorted.',
    );
    expect(() => operationResponseRules(broken({ kind: 'order' }))).toThrow('needs a rule name');
  });

  it('finds a pair out of order, comparing a zone-less timestamp only with another zone-less one', () => {
    const at = (...times: string[]) => times.map((created_at) => ({ created_at }));
    expect(
      outOfOrder(at('2026-03-02T09:45:00Z', '2026-03-02T10:05:12Z', '2026-03-03T14:20:00'), 'created_at', 'ascending'),
    ).toBeUndefined();
    expect(
      outOfOrder(at('2026-03-03T14:20:00', '2026-03-02T10:05:12Z', '2026-03-02T09:45:00Z'), 'created_at', 'ascending'),
    ).toEqual([1, 2]);
    // A zoned and a zone-less value are never compared: their instants are uncertain beside each other.
    expect(outOfOrder(at('2026-03-03T14:20:00Z', '2026-03-02T10:05:12'), 'created_at', 'ascending')).toBeUndefined();
    expect(outOfOrder(at('2026-03-02T10:00:00', '2026-03-02T09:00:00'), 'created_at', 'ascending')).toEqual([0, 1]);
    expect(
      outOfOrder(at('2026-03-02T10:00:00+02:00', '2026-03-02T09:00:00Z'), 'created_at', 'ascending'),
    ).toBeUndefined();
    expect(outOfOrder([{ n: 3 }, { n: 1 }], 'n', 'descending')).toBeUndefined();
  });
});
