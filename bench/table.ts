// One table per benchmark: its title, then a table of its own columns only (a union of every module's
// columns was over 400 characters wide). No line is wider than MAX_WIDTH and nothing is cut: a long title
// is word-wrapped; a table too wide first wraps its column names (each column as wide as its longest word
// or value), then its longest text cells, at spaces (a slash or a hard break only inside a word longer than
// its column). Only a table that cannot fit even so (dozens of columns) is printed as one block of
// "column: value" lines per row. Widths are terminal columns (string-width: CJK and emoji take two,
// combining marks none), so the bars line up in a terminal. Plain text so it reads in any terminal and
// pastes into an issue as is. (`--json` prints the tables themselves, unchanged.)
import stringWidth from 'string-width';

export interface BenchTable {
  title: string;
  rows: Record<string, string | number>[];
}

export const MAX_WIDTH = 200;

const SEPARATOR = ' | ';
// A text column wrapped by words is never squeezed below this before the table gives up on columns: a
// narrower one would break most of its words.
const MIN_TEXT_WIDTH = 10;

// Tabs and line breaks would move the bars: every whitespace character in a value or title prints as a space.
const OTHER_SPACE = /[^\S ]/g;

// Two decimals, but a fraction below 1 keeps two significant digits: a layout shift of 0.001 (a failed
// "0" target) must not print as 0.
const format = (value: string | number | undefined): string =>
  value === undefined
    ? ''
    : typeof value === 'number'
      ? Number.isInteger(value)
        ? value.toLocaleString('en-US')
        : value.toLocaleString(
            'en-US',
            Math.abs(value) < 1 ? { maximumSignificantDigits: 2 } : { maximumFractionDigits: 2 },
          )
      : value.replace(OTHER_SPACE, ' ');

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const widthOf = (text: string): number => stringWidth(text);
const words = (text: string): string[] => text.split(/\s+/).filter((w) => w !== '');
const longestWord = (text: string): number => Math.max(0, ...words(text).map(widthOf));

// A word wider than `max`, in pieces of at most `max` columns, each ending after a slash where one falls
// in it ("ops/" + "s" is worse than a hard break, so not at the piece's first character).
function splitWord(word: string, max: number): string[] {
  const pieces: string[] = [];
  let rest = Array.from(segmenter.segment(word), (s) => s.segment);
  while (widthOf(rest.join('')) > max) {
    let n = 0;
    let used = 0;
    while (n < rest.length && used + widthOf(rest[n]!) <= max) used += widthOf(rest[n++]!);
    n = Math.max(n, 1); // a single grapheme wider than the column still moves on
    const slash = rest.slice(0, n).lastIndexOf('/');
    if (slash > 0) n = slash + 1;
    pieces.push(rest.slice(0, n).join(''));
    rest = rest.slice(n);
  }
  if (rest.length > 0) pieces.push(rest.join(''));
  return pieces;
}

/**
 * `text` in lines of at most `max` columns, broken at spaces. A word too long for a line is split, its
 * first piece filling the line it starts on. (Only a single grapheme wider than `max` can overflow.)
 */
export function wrap(text: string, max: number): string[] {
  if (widthOf(text) <= max && !/[^\S ]/.test(text)) return [text];
  const lines: string[] = [];
  let line = '';
  const add = (word: string): void => {
    if (line === '') line = word;
    else if (widthOf(line) + 1 + widthOf(word) <= max) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  };
  for (const word of words(text)) {
    if (widthOf(word) <= max) {
      add(word);
      continue;
    }
    let pieces = splitWord(word, max);
    const room = max - widthOf(line) - 1;
    if (line !== '' && room >= 4) {
      const [head, ...tail] = splitWord(word, room);
      line += ` ${head}`;
      lines.push(line);
      line = '';
      pieces = splitWord(tail.join(''), max);
    }
    pieces.forEach(add);
  }
  return lines.length === 0 && line === '' ? [''] : [...lines, ...(line === '' ? [] : [line])];
}

const pad = (text: string, width: number, right: boolean): string => {
  const fill = ' '.repeat(Math.max(0, width - widthOf(text)));
  return right ? fill + text : text + fill;
};

const total = (widths: number[]): number =>
  widths.reduce((a, b) => a + b, 0) + SEPARATOR.length * Math.max(0, widths.length - 1);

// The columns' widths, or null when even the narrowest readable layout is wider than MAX_WIDTH.
function fitWidths(columns: string[], cells: string[][], numeric: boolean[]): number[] | null {
  const valueWidth = columns.map((_, i) => Math.max(0, ...cells.map((r) => widthOf(r[i]!))));
  const natural = columns.map((c, i) => Math.max(widthOf(c), valueWidth[i]!));
  if (total(natural) <= MAX_WIDTH) return natural;
  // 1. Wrap the column names: each column as wide as its longest value or name word. Then give the room
  // left back to the columns whose whole name fits in it, the cheapest first.
  const widths = columns.map((c, i) => Math.max(longestWord(c), valueWidth[i]!));
  if (total(widths) <= MAX_WIDTH) {
    let room = MAX_WIDTH - total(widths);
    const byCost = columns
      .map((_, i) => i)
      .sort((a, b) => natural[a]! - widths[a]! - (natural[b]! - widths[b]!));
    for (const i of byCost) {
      const cost = natural[i]! - widths[i]!;
      if (cost > room) break;
      widths[i] = natural[i]!;
      room -= cost;
    }
    return widths;
  }
  // 2. Wrap the widest text cells by words, then 3. break their longest words (never a number: a number
  // in pieces is misread).
  const floors = [
    columns.map((c, i) =>
      numeric[i] ? widths[i]! : Math.max(longestWord(c), ...cells.map((r) => longestWord(r[i]!))),
    ),
    columns.map((c, i) => (numeric[i] ? widths[i]! : Math.min(widths[i]!, MIN_TEXT_WIDTH))),
  ];
  for (const floor of floors) {
    while (total(widths) > MAX_WIDTH) {
      let widest = -1;
      for (let i = 0; i < widths.length; i++)
        if (widths[i]! > floor[i]! && (widest < 0 || widths[i]! > widths[widest]!)) widest = i;
      if (widest < 0) break;
      widths[widest]!--;
    }
    if (total(widths) <= MAX_WIDTH) return widths;
  }
  return null;
}

function grid(columns: string[], cells: string[][], numeric: boolean[], widths: number[]): string[] {
  const line = (values: string[]): string =>
    values
      .map((v, i) => pad(v, widths[i]!, numeric[i]!))
      .join(SEPARATOR)
      .trimEnd();
  // Every cell as its lines; a row is as tall as its tallest cell. Names sit on the rule, values at the top.
  const block = (values: string[], bottom: boolean): string[] => {
    const wrapped = values.map((v, i) => wrap(v, widths[i]!));
    const height = Math.max(...wrapped.map((w) => w.length));
    const at = (w: string[], k: number): string => (bottom ? w[k - (height - w.length)] : w[k]) ?? '';
    return Array.from({ length: height }, (_, k) => line(wrapped.map((w) => at(w, k))));
  };
  const body = cells.map((row) => block(row, false));
  // A row of more than one line is set apart from its neighbours by an empty row.
  const gap = line(widths.map(() => ''));
  return [
    ...block(columns, true),
    widths.map((w) => '-'.repeat(w)).join('-|-'),
    ...body.flatMap((b, k) => (k > 0 && (b.length > 1 || body[k - 1]!.length > 1) ? [gap, ...b] : b)),
  ];
}

function renderOne(table: BenchTable): string {
  const title = wrap(table.title.replace(OTHER_SPACE, ' '), MAX_WIDTH);
  const columns: string[] = [];
  for (const row of table.rows)
    for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
  if (columns.length === 0) return title.join('\n');
  const cells = table.rows.map((row) =>
    columns.map((c) => format(Object.hasOwn(row, c) ? row[c] : undefined)),
  );
  const numeric = columns.map((_, i) => cells.every((r) => r[i] === '' || /^[-\d.,]+[x×%]?$/.test(r[i]!)));
  const widths = fitWidths(columns, cells, numeric);
  if (widths) return [...title, ...grid(columns, cells, numeric, widths)].join('\n');
  // Too many columns for any table: each row as its own block, a long value wrapped under its name.
  const blocks = cells.map((row) =>
    row
      .flatMap((v, i) =>
        v === ''
          ? []
          : wrap(`${columns[i]}: ${v}`, MAX_WIDTH - 4).map((l, k) => (k === 0 ? `  ${l}` : `    ${l}`)),
      )
      .join('\n'),
  );
  return [...title, blocks.join('\n\n')].join('\n');
}

export function renderTable(tables: BenchTable[]): string {
  return tables.map(renderOne).join('\n\n');
}
