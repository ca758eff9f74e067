// Tiny Markdown writers for the generated guides. Redoc renders CommonMark + GFM tables; the
// helpers only make sure spec text cannot break the structure it is placed in.

/** A table cell: one line, pipes escaped. */
export function cell(text: string | number | boolean | undefined | null): string {
  if (text === undefined || text === null || text === '') return '';
  return String(text)
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();
}

export function table(headers: string[], rows: (string | number | boolean | undefined | null)[][]): string {
  const lines = [`| ${headers.map(cell).join(' | ')} |`, `| ${headers.map(() => '---').join(' | ')} |`];
  for (const row of rows) lines.push(`| ${row.map(cell).join(' | ')} |`);
  return lines.join('\n');
}

/** Inline code that survives backticks inside the value. */
export function code(text: string | number): string {
  const value = String(text);
  const fence = value.includes('`') ? '``' : '`';
  const pad = value.startsWith('`') || value.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${value}${pad}${fence}`;
}

/** Spec prose reflowed to one paragraph (descriptions are wrapped at ~100 columns in YAML). */
export function oneLine(text: string | undefined): string {
  return (text ?? '').replace(/\s*\n\s*/g, ' ').trim();
}

export function bulletList(items: string[]): string {
  return items.map((item) => `- ${item}`).join('\n');
}

export function fencedBlock(language: string, body: string): string {
  const fence = body.includes('```') ? '````' : '```';
  return `${fence}${language}\n${body}\n${fence}`;
}

/** Joins blocks with blank lines, dropping empty ones. */
export function blocks(...parts: (string | undefined | false)[]): string {
  return parts.filter((part): part is string => typeof part === 'string' && part.trim() !== '').join('\n\n');
}
