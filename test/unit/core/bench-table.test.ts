import fc from 'fast-check';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { MAX_WIDTH, renderTable, wrap, type BenchTable } from '../../../bench/table.js';
import { MEMORY_COLUMNS, memoryShapedTable, readGrid, shownRows } from '../../fixtures/bench-grid.js';

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const widest = (text: string): number => Math.max(...text.split('\n').map((l) => stringWidth(l)));

describe('bench table', () => {
  it('prints one table per module, each with its own columns only', () => {
    const text = renderTable([
      {
        title: 'Memory',
        rows: [
          { op: 'view', 'ops/s': 1234.567 },
          { op: 'create', 'ops/s': 99 },
        ],
      },
      { title: 'Search', rows: [{ 'median ms': 12.5, ratio: '5.2x' }] },
    ]);
    expect(text.split('\n')).toEqual([
      'Memory',
      'op     |    ops/s',
      '-------|---------',
      'view   | 1,234.57',
      'create |       99',
      '',
      'Search',
      'median ms | ratio',
      '----------|------',
      '     12.5 |  5.2x',
    ]);
  });

  it('renders an empty module as its title', () => {
    expect(renderTable([{ title: 'Nothing', rows: [] }])).toBe('Nothing');
  });

  it('word-wraps a long title at 200 columns and cuts nothing', () => {
    const title = Array.from({ length: 120 }, (_, i) => `word${i}`).join(' ');
    const lines = renderTable([{ title, rows: [] }]).split('\n');
    expect(lines.length).toBeGreaterThan(3);
    expect(widest(lines.join('\n'))).toBeLessThanOrEqual(MAX_WIDTH);
    expect(lines.join(' ')).toBe(title);
    // A "word" longer than a line is split, not cut.
    const long = `see ${'x'.repeat(450)} end`;
    const split = renderTable([{ title: long, rows: [] }]).split('\n');
    expect(widest(split.join('\n'))).toBeLessThanOrEqual(MAX_WIDTH);
    expect(split.join('').replaceAll(' ', '')).toBe(long.replaceAll(' ', ''));
  });

  it("prints bench/memory's 14 columns as one table under 200 columns, names wrapped at their spaces", () => {
    const table = memoryShapedTable();
    const text = renderTable([table]);
    expect(widest(text)).toBeLessThanOrEqual(MAX_WIDTH);
    expect(text).not.toContain('…');
    const expected = shownRows(table, MEMORY_COLUMNS);
    const grid = readGrid(text.split('\n'), { expected });
    expect(grid.title).toBe(table.title);
    expect(grid.columns).toEqual(MEMORY_COLUMNS);
    expect(grid.headerLines).toBeGreaterThan(1); // 14 names on one line are over 200 columns
    expect(grid.rows).toEqual(expected);
  });

  it('wraps a long case name inside its column, the other columns staying put', () => {
    const name = `at the cap: ${Array.from({ length: 30 }, (_, i) => `step${i}`).join(' ')}`;
    const columns = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`measure ${i}`, `${i}.5 ms`]));
    const table: BenchTable = {
      title: 'Long names',
      rows: [
        { case: name, ...columns },
        { case: 'short', ...columns },
      ],
    };
    const text = renderTable([table]);
    expect(widest(text)).toBeLessThanOrEqual(MAX_WIDTH);
    const grid = readGrid(text.split('\n'));
    expect(grid.rows.map((r) => r[0])).toEqual([name, 'short']);
    expect(grid.rows[1]).toEqual(['short', ...Object.values(columns)]);
    // The long row spans several lines, set apart by an empty row.
    const lines = text.split('\n');
    expect(lines.filter((l) => /^\s*\|/.test(l) && l.replace(/[\s|]/g, '') === '').length).toBe(1);
  });

  it('measures widths in terminal columns: CJK and emoji take two, combining marks none', () => {
    const text = renderTable([
      {
        title: 'Unicode',
        rows: [
          { case: '東京', 'ops/s': 1 },
          { case: 'e\u0301te\u0301', 'ops/s': 22 },
          { case: '🚀 launch', 'ops/s': 3 },
          { case: 'µs → ×', 'ops/s': 4 },
        ],
      },
    ]);
    expect(text.split('\n')).toEqual([
      'Unicode',
      'case      | ops/s',
      '----------|------',
      '東京      |     1',
      'e\u0301te\u0301       |    22',
      '🚀 launch |     3',
      'µs → ×    |     4',
    ]);
  });

  it('wraps wide CJK cells in a wide table with every bar in the same terminal column', () => {
    const cjk = '記憶の書き込みは一度だけ同期する'.repeat(6);
    const row = Object.fromEntries(
      Array.from({ length: 8 }, (_, i) => [`列 ${i}`, i === 0 ? cjk : `値 ${i}`]),
    );
    const text = renderTable([{ title: 'CJK', rows: [row, row] }]);
    expect(widest(text)).toBeLessThanOrEqual(MAX_WIDTH);
    const grid = readGrid(text.split('\n'), { rejoin: '' });
    expect(grid.rows[0]![0]).toBe(cjk);
  });

  it('falls back to one block per row only when no table fits, wrapping long values instead of cutting them', () => {
    const row = Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`metric number ${i}`, i * 1000.5]));
    const note = 'x'.repeat(500);
    const text = renderTable([
      { title: 'Wide', rows: [row, { ...row, note }] },
      { title: 'Narrow', rows: [{ n: 1 }] },
    ]);
    const lines = text.split('\n');
    expect(widest(text)).toBeLessThanOrEqual(MAX_WIDTH);
    expect(lines.slice(0, 3)).toEqual(['Wide', '  metric number 0: 0', '  metric number 1: 1,000.5']);
    expect(text).not.toContain('…');
    const noteAt = lines.findIndex((l) => l.startsWith('  note: '));
    expect(
      lines
        .slice(noteAt, noteAt + 3)
        .join('')
        .replace('  note: ', '')
        .replaceAll(' ', ''),
    ).toBe(note);
    expect(lines.slice(-4)).toEqual(['Narrow', 'n', '-', '1']);
  });

  it('prints two decimals, and a fraction below 1 to two significant digits (0.001 is not 0)', () => {
    const rows = [1234.567, 12.5, 0.62, 0.555, 0.001, 0.000123, -0.004].map((v) => ({ v }));
    expect(
      renderTable([{ title: 'Numbers', rows }])
        .split('\n')
        .slice(3),
    ).toEqual(
      ['1,234.57', '    12.5', '    0.62', '    0.56', '   0.001', '0.00012', '  -0.004'].map((v) =>
        v.padStart(8),
      ),
    );
  });

  it('prints tabs and line breaks in a value or title as spaces, so the bars stay put', () => {
    expect(
      renderTable([
        {
          title: 'Tabs\tand\nbreaks',
          rows: [
            { case: 'a\tb', n: 1 },
            { case: 'two\nlines', n: 2 },
          ],
        },
      ]).split('\n'),
    ).toEqual(['Tabs and breaks', 'case      | n', '----------|--', 'a b       | 1', 'two lines | 2']);
  });

  it("leaves a cell empty where a row lacks the column, even one named like an object's member", () => {
    expect(renderTable([{ title: 'Members', rows: [{ toString: 1 }, { n: 2 }] }]).split('\n')).toEqual([
      'Members',
      'toString | n',
      '---------|--',
      '       1 |',
      '         | 2',
    ]);
  });

  it('wraps at spaces, and inside a too-long word after a slash', () => {
    expect(wrap('reference syncs/op', 9)).toEqual(['reference', 'syncs/op']);
    expect(wrap('ours / reference', 9)).toEqual(['ours /', 'reference']);
    expect(wrap('bench/memory/at-cap', 8)).toEqual(['bench/', 'memory/', 'at-cap']);
    expect(wrap('', 5)).toEqual(['']);
  });

  it('property: wrapped lines fit and keep every character but the spaces', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 80 }),
        fc.integer({ min: 2, max: 30 }),
        (text, max) => {
          const lines = wrap(text, max);
          // Only a single grapheme wider than the line (a few symbols are 3 columns) can overflow it.
          for (const line of lines)
            if ([...segmenter.segment(line)].length > 1) expect(stringWidth(line)).toBeLessThanOrEqual(max);
          expect(lines.join('').replace(/\s/g, '')).toBe(text.replace(/\s/g, ''));
        },
      ),
    );
  });

  it('property: no line of any table is wider than 200 columns', () => {
    const value = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 120 }),
      fc.double({ noNaN: true }),
      fc.integer(),
    );
    const table = fc.record({
      title: fc.string({ unit: 'grapheme', maxLength: 400 }),
      rows: fc.array(
        fc.dictionary(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }), value, { maxKeys: 40 }),
        {
          maxLength: 5,
        },
      ),
    });
    fc.assert(
      fc.property(fc.array(table, { maxLength: 3 }), (tables) => {
        expect(widest(renderTable(tables))).toBeLessThanOrEqual(MAX_WIDTH);
      }),
      { numRuns: 100 },
    );
  });
});
