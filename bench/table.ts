// One table per benchmark: its title, then a table of its own columns only (a union of every module's
// columns was over 400 characters wide). No line is longer than MAX_WIDTH: a table too wide for that is
// printed as one block of "column: value" lines per row instead, and an overlong value is cut with "…".
// Plain text so it reads in any terminal and pastes into an issue as is. (`--json` prints the tables
// themselves, unchanged.)
export interface BenchTable {
  title: string;
  rows: Record<string, string | number>[];
}

export const MAX_WIDTH = 200;

const format = (value: string | number | undefined): string =>
  value === undefined
    ? ''
    : typeof value === 'number'
      ? Number.isInteger(value)
        ? value.toLocaleString('en-US')
        : value.toLocaleString('en-US', { maximumFractionDigits: 2 })
      : value;

const cut = (text: string, width: number): string =>
  text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;

function renderOne(table: BenchTable): string {
  const title = cut(table.title, MAX_WIDTH);
  const columns: string[] = [];
  for (const row of table.rows)
    for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
  if (columns.length === 0) return title;
  const cells = table.rows.map((row) => columns.map((c) => format(row[c])));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i]!.length)));
  const numeric = columns.map((_, i) => cells.every((r) => r[i] === '' || /^[-\d.,]+[x×%]?$/.test(r[i]!)));
  const line = (values: string[]): string =>
    values
      .map((v, i) => (numeric[i] ? v.padStart(widths[i]!) : v.padEnd(widths[i]!)))
      .join(' | ')
      .trimEnd();
  const lines = [line(columns), widths.map((w) => '-'.repeat(w)).join('-|-'), ...cells.map(line)];
  if (lines.every((l) => l.length <= MAX_WIDTH)) return [title, ...lines].join('\n');
  // Too wide: each row as its own block.
  const blocks = cells.map((row) =>
    row
      .map((v, i) => (v === '' ? null : cut(`  ${columns[i]}: ${v}`, MAX_WIDTH)))
      .filter((l): l is string => l !== null)
      .join('\n'),
  );
  return `${title}\n${blocks.join('\n\n')}`;
}

export function renderTable(tables: BenchTable[]): string {
  return tables.map(renderOne).join('\n\n');
}
