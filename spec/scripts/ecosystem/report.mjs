// Judging and printing the matrix: exceptions (tools + rule, with a reason) move matching findings
// to the "excepted" count; an exception that matches nothing is reported so the list stays short.

/** Rows with excepted findings moved out, plus the exceptions that matched nothing. */
export function applyExceptions(rows, exceptions) {
  const used = new Set();
  const judged = rows.map((row) => {
    const excepted = [];
    const keep = (finding) => {
      const index = exceptions.findIndex((e) => e.tools.includes(row.tool) && e.rule === finding.rule);
      if (index < 0) return true;
      used.add(index);
      excepted.push(finding);
      return false;
    };
    return { ...row, errors: row.errors.filter(keep), warnings: row.warnings.filter(keep), excepted };
  });
  return { rows: judged, unused: exceptions.filter((_, index) => !used.has(index)) };
}

export function formatRow(row) {
  const status = row.errors.length + row.warnings.length ? 'FAIL' : 'ok  ';
  return `  ${status} ${row.tool.padEnd(34)} errors ${String(row.errors.length).padStart(4)}  warnings ${String(row.warnings.length).padStart(4)}  excepted ${String(row.excepted.length).padStart(3)}`;
}

/** The first message of a failing row, errors before warnings, with its rule. */
export function firstProblem(row) {
  const first = row.errors[0] ?? row.warnings[0];
  const more = row.errors.length + row.warnings.length - 1;
  return `[${first.rule}] ${first.message}${more > 0 ? ` (and ${more} more)` : ''}`;
}
