// The texts `pnpm rules:write` writes from the checks' descriptions (src/check-descriptions.ts):
// the catalogue's table (src/catalogue.ts) and RULES.md's "enforced by" column on every row that
// names the spec's statements by rule id. Pure functions of their inputs: the script writes them,
// test/rules-written.test.ts fails when the files in the repository differ from them.

/** The modules that describe checks when imported: the suite's rules, the response checks, discovery, the proxy, the verdict. */
export const DESCRIBING_MODULES = [
  'rules/index.js',
  'exchange-checks/response.js',
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
    .map(({ id, title, source, enforces }) => {
      const lines = [
        `  ${JSON.stringify(id)}: {`,
        `    title: ${JSON.stringify(title)},`,
        `    source: ${JSON.stringify(source)},`,
      ];
      if (enforces?.length) lines.push(`    enforces: ${JSON.stringify(enforces)},`);
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

const ticked = (cell) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

/**
 * RULES.md with the "enforced by" cell of each row that names rule ids (in its "encoded as" cell)
 * written from the descriptions: the checks that enforce any of them, sorted, or, where none
 * does, the cell as it was (a reason in words). `isRuleId` tells a rule id from other ticked text.
 */
export function writtenRules(text, descriptions, isRuleId) {
  const lines = text.split('\n');
  const header = lines.findIndex((l) => l.startsWith('| § |'));
  if (header < 0) throw new Error('RULES.md has lost its table.');
  for (let i = header + 2; i < lines.length && lines[i].startsWith('|'); i++) {
    // `| a | b | … | e |`, the last cell keeping its space (or empty): joined back the same way.
    const cells = lines[i].slice(2, -1).split(' | ');
    const ruleIds = ticked(cells[2] ?? '').filter(isRuleId);
    if (ruleIds.length === 0) continue;
    const checks = descriptions
      .filter((d) => (d.enforces ?? []).some((id) => ruleIds.includes(id)))
      .map((d) => d.id)
      .sort();
    if (checks.length === 0) continue;
    cells[3] = checks.map((id) => `\`${id}\``).join(', ');
    lines[i] = `| ${cells.join(' | ')}|`;
  }
  return lines.join('\n');
}
