import { describe, expect, it } from 'vitest';
import { MAX_WIDTH, renderTable } from '../../../bench/table.js';

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

  it('never prints a line over 200 characters: a wide table becomes one block per row', () => {
    const row = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`metric number ${i}`, i * 1000.5]));
    const text = renderTable([
      { title: 'Wide', rows: [row, { ...row, note: 'x'.repeat(500) }] },
      { title: 'Narrow', rows: [{ n: 1 }] },
    ]);
    const lines = text.split('\n');
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(MAX_WIDTH);
    expect(lines.slice(0, 3)).toEqual(['Wide', '  metric number 0: 0', '  metric number 1: 1,000.5']);
    expect(lines).toContain(`  note: ${'x'.repeat(MAX_WIDTH - 9)}…`);
    expect(lines.slice(-4)).toEqual(['Narrow', 'n', '-', '1']);
  });
});
