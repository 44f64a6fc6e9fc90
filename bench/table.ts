// One table for every benchmark: a "benchmark" column with the module's title (on its first row), then
// the union of all metric columns in order of first appearance. Plain text so it reads in any terminal
// and pastes into an issue as is.
export interface BenchTable {
  title: string;
  rows: Record<string, string | number>[];
}

const format = (value: string | number | undefined): string =>
  value === undefined
    ? ''
    : typeof value === 'number'
      ? Number.isInteger(value)
        ? value.toLocaleString('en-US')
        : value.toLocaleString('en-US', { maximumFractionDigits: 2 })
      : value;

export function renderTable(tables: BenchTable[]): string {
  const columns = ['benchmark'];
  for (const table of tables) {
    for (const row of table.rows)
      for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
  }
  const cells: string[][] = [];
  for (const table of tables) {
    const rows = table.rows.length > 0 ? table.rows : [{}];
    rows.forEach((row, i) => {
      cells.push(columns.map((c) => (c === 'benchmark' ? (i === 0 ? table.title : '') : format(row[c]))));
    });
  }
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i]!.length)));
  const numeric = columns.map(
    (_, i) => i > 0 && cells.every((r) => r[i] === '' || /^[-\d.,]+[x×%]?$/.test(r[i]!)),
  );
  const line = (values: string[]): string =>
    values
      .map((v, i) => (numeric[i] ? v.padStart(widths[i]!) : v.padEnd(widths[i]!)))
      .join(' | ')
      .trimEnd();
  return [line(columns), widths.map((w) => '-'.repeat(w)).join('-|-'), ...cells.map(line)].join('\n');
}
