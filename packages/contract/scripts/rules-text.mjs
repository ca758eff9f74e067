// The texts `pnpm rules:write` writes from the checks' descriptions (src/check-descriptions.ts):
// the catalogue's table (src/catalogue.ts), RULES.md's "enforced by" column on every row that
// names the spec's statements by rule id, and its "reached first" column on every row (the
// precondition of each check the row's "enforced by" cell names). Pure functions of their inputs:
// the script writes them, test/rules-written.test.ts fails when the files in the repository differ
// from them.

/** The modules that describe checks when imported: the suite's rules, the response checks, discovery, the proxy, the verdict. */
export const DESCRIBING_MODULES = [
  'rules/index.js',
  'exchange-checks/response.js',
  'exchange-checks/rate-windows.js',
  'discovery/get.js',
  'proxy.js',
  'verdict.js',
];

const BEGIN = "// BEGIN the table `pnpm rules:write` writes from the checks' descriptions: edit those, not this.";
const END = '// END of the written table.';

/** The catalogue's table: every described check by id (sorted), its title, source and the statements it enforces. */
export function catalogueTable(descriptions) {
  const rows = [...descriptions]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map(({ id, title, source, enforces, precondition }) => {
      const lines = [
        `  ${JSON.stringify(id)}: {`,
        `    title: ${JSON.stringify(title)},`,
        `    source: ${JSON.stringify(source)},`,
      ];
      if (enforces?.length) lines.push(`    enforces: ${JSON.stringify(enforces)},`);
      if (precondition) lines.push(`    precondition: ${JSON.stringify(precondition)},`);
      return [...lines, '  },'].join('\n');
    });
  return [
    BEGIN,
    '// biome-ignore format: written by pnpm rules:write',
    'export const CHECKS = {',
    ...rows,
    '} as const satisfies Record<string, CheckInfo>;',
    END,
  ].join('\n');
}

/** catalogue.ts with its table replaced by the one the descriptions give. */
export function writtenCatalogue(text, descriptions) {
  const from = text.indexOf(BEGIN);
  const to = text.indexOf(END);
  if (from < 0 || to < from) throw new Error('catalogue.ts has lost the markers of its written table.');
  return text.slice(0, from) + catalogueTable(descriptions) + text.slice(to + END.length);
}

// The backtick by its code: some readers of this file take one in a regex literal for an open template.
const TICK = String.fromCharCode(96);
const TICKED = new RegExp(`${TICK}([^${TICK}]+)${TICK}`, 'g');
const ticked = (cell) => [...cell.matchAll(TICKED)].map((m) => m[1]);

/** The columns of RULES.md's table, by index. */
const ENCODED = 2;
const ENFORCED = 3;
const REACHED = 5;

/** The checks that enforce any of the row's rule ids, or undefined where none does (the cell stays as written). */
function enforcingChecks(cells, descriptions, isRuleId) {
  const ruleIds = ticked(cells[ENCODED] ?? '').filter(isRuleId);
  const checks = descriptions
    .filter((d) => (d.enforces ?? []).some((id) => ruleIds.includes(id)))
    .map((d) => d.id)
    .sort();
  return checks.length > 0 ? checks : undefined;
}

/** The "reached first" cell: each enforcing check's precondition, as its description states it (`|` escaped). */
function reachedFirst(enforcedCell, byId) {
  return ticked(enforcedCell)
    .filter((id) => byId.get(id)?.precondition)
    .map((id) => `${TICK}${id}${TICK}: ${byId.get(id).precondition.replaceAll('|', '\\|')}`)
    .join('; ');
}

/** A table row's cells, trimmed (a `|` escaped as `\\|` stays inside its cell). */
const cellsOf = (line) =>
  line
    .slice(1, -1)
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());

/**
 * RULES.md with, on each row of its table, the "enforced by" cell written from the descriptions
 * where the row names rule ids (in its "encoded as" cell): the checks that enforce any of them,
 * sorted, or, where none does, the cell as it was (a reason in words); and the "reached first"
 * cell: the precondition of each check the "enforced by" cell names, empty where it names none (a
 * row of five cells, as rows were before that column, gains it). `isRuleId` tells a rule id from
 * other ticked text.
 */
export function writtenRules(text, descriptions, isRuleId) {
  const lines = text.split('\n');
  const header = lines.findIndex((l) => l.startsWith('| § |'));
  if (header < 0) throw new Error('RULES.md has lost its table.');
  const byId = new Map(descriptions.map((d) => [d.id, d]));
  for (let i = header + 2; i < lines.length && lines[i].startsWith('|'); i++) {
    const cells = cellsOf(lines[i]);
    if (cells.length === REACHED) cells.push('');
    if (cells.length !== REACHED + 1) throw new Error(`RULES.md line ${i + 1} has ${cells.length} cells, not 6.`);
    const checks = enforcingChecks(cells, descriptions, isRuleId);
    if (checks) cells[ENFORCED] = checks.map((id) => `${TICK}${id}${TICK}`).join(', ');
    cells[REACHED] = reachedFirst(cells[ENFORCED], byId);
    lines[i] = `| ${cells.join(' | ')} |`;
  }
  return lines.join('\n');
}
